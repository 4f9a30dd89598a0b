"""Where each stage's time goes: the per-stage files a build writes with HALLUCI_PROFILE set
(tasks/ops/stage_profile.py) as one table of wall and CPU seconds, peak RSS and model loads, then each stage's
costliest project functions; with --before, the figures of an earlier table beside them.

    python -m benchmarks.stage_times --profile DIR     (builds a fresh copy with HALLUCI_PROFILE=DIR, then this)
    python -m benchmarks.stage_profile DIR [--top 5] [--save NOW.json] [--before THEN.json]
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path


def profile_rows(folder: Path) -> list[dict]:
    """The stage rows of ``folder``, one per process (a matrix stage's cells apart), by stage label."""
    rows = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(Path(folder).glob("*.json"))]
    if not rows:
        raise SystemExit(f"{folder}: no stage profiles (run a build with HALLUCI_PROFILE={folder})")
    return rows


def _loads(row: dict) -> str:
    """'model (loader)' per load, a folder by its last part: 'minilm (load_encoder), e5 (engine_pool) x2'."""
    out = []
    for key, n in row["model_loads"].items():
        loader, _, model = key.partition(" ")
        out.append(f"{Path(model).name or model} ({loader})" + (f" x{n}" if n > 1 else ""))
    return ", ".join(out) or "-"


def format_profile(rows: list[dict], before: list[dict] | None = None, top: int = 5) -> str:
    """Markdown: the stage table (with the earlier wall and CPU seconds where ``before`` has the stage), the
    totals, and each stage's ``top`` functions by share of sampled time."""
    then = {r["stage"]: r for r in before or []}
    head = "| stage | wall s | CPU s | peak RSS MiB | model loads |"
    if before is not None:
        head = "| stage | wall s (before) | CPU s (before) | peak RSS MiB | model loads |"
    lines = [head, "|---|---:|---:|---:|---|"]
    for r in rows:
        old = then.get(r["stage"])
        wall, cpu = f"{r['wall_s']:,.1f}", f"{r['cpu_s']:,.1f}"
        if before is not None:
            wall += f" ({old['wall_s']:,.1f})" if old else " (-)"
            cpu += f" ({old['cpu_s']:,.1f})" if old else " (-)"
        lines.append(f"| {r['stage']} | {wall} | {cpu} | {r['peak_rss_mib']:,} | {_loads(r)} |")
    total = (sum(r["wall_s"] for r in rows), sum(r["cpu_s"] for r in rows))
    lines.append(f"| **total** | {total[0]:,.1f} | {total[1]:,.1f} | | |")
    lines.append("")
    for r in sorted(rows, key=lambda r: -r["cpu_s"]):
        hot = "; ".join(f"{h['function']} {h['share']:.0%}" for h in r["top_functions"][:top])
        lines.append(f"- {r['stage']}: {hot or '(nothing sampled in tasks/)'}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="the HALLUCI_PROFILE folder of a build")
    ap.add_argument("--top", type=int, default=5, help="functions per stage")
    ap.add_argument("--save", type=Path, help="write the rows here (JSON), for a later --before")
    ap.add_argument("--before", type=Path, help="the rows of an earlier build (a --save file)")
    args = ap.parse_args()
    rows = profile_rows(args.folder)
    before = json.loads(args.before.read_text(encoding="utf-8")) if args.before else None
    print(format_profile(rows, before, args.top))
    if args.save:
        args.save.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
