"""Metrics history of the nightly re-evaluation: every run appended to a JSON Lines file; a run is
compared with the previous successful one, and a metric that drops by more than max_drop is a regression."""
from __future__ import annotations

import json
from pathlib import Path

from tasks.io import atomic_path


def flatten(metrics: dict, prefix: str = "") -> dict[str, float]:
    """{"set/detector/metric": value} from nested metrics."""
    flat = {}
    for key, value in sorted(metrics.items()):
        name = f"{prefix}/{key}" if prefix else key
        if isinstance(value, dict):
            flat.update(flatten(value, name))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            flat[name] = float(value)
    return flat


def read_history(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def append_history(path: Path, entry: dict) -> None:
    """Append one run (atomically: the whole file is rewritten through a temporary file)."""
    lines = [json.dumps(e, sort_keys=True) for e in read_history(path)] + [json.dumps(entry, sort_keys=True)]
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")


def last_successful(history: list[dict]) -> dict | None:
    return next((e for e in reversed(history) if e["status"] == "ok"), None)


def compare(previous: dict[str, float] | None, current: dict[str, float], max_drop: float) -> list[dict]:
    """Every metric of the previous run with its current value; regression: dropped by more than max_drop
    (a metric that disappeared counts as a regression too)."""
    if previous is None:
        return []
    rows = []
    for name, before in sorted(previous.items()):
        after = current.get(name)
        drop = None if after is None else round(before - after, 4)
        rows.append({"metric": name, "previous": before, "current": after, "drop": drop,
                     "regression": after is None or drop > max_drop})
    return rows


def regression_report(rows: list[dict], previous: dict | None, run: dict, max_drop: float) -> str:
    """Markdown: the verdict, then the regressions, then the count of metrics compared."""
    regressions = [r for r in rows if r["regression"]]
    head = f"# Nightly re-evaluation {run['started']}\n\nRun: {run['name']}. "
    if previous is None:
        return head + "No previous successful run: this run becomes the baseline.\n"
    head += (f"Compared with the run of {previous['started']} ({len(rows)} metrics, max drop {max_drop}).\n\n"
             f"**{len(regressions)} regression(s).**\n")
    if not regressions:
        return head
    lines = ["| metric | previous | current | drop |", "|---|---|---|---|"]
    for r in regressions:
        current = "missing" if r["current"] is None else f"{r['current']:.4f}"
        drop = "–" if r["drop"] is None else r["drop"]
        lines.append(f"| {r['metric']} | {r['previous']:.4f} | {current} | {drop} |")
    return head + "\n" + "\n".join(lines) + "\n"
