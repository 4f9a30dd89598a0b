"""Per-stage wall time of `make run` on the current params (the offline default unless a profile was
applied): a fresh copy of the repo (no DVC cache, no dvc.lock) is rebuilt by `python -m tasks.ops.run`, as
after set-up on a new machine, against its own shared Prefect server on a free port; the same time table
as `make run` is printed. Targets: total <= 20 min on 2 cores; Prefect overhead per stage: see
benchmarks.prefect_overhead. With --profile DIR each stage also writes its figures there (HALLUCI_PROFILE,
tasks/ops/stage_profile.py) and their table follows (benchmarks.stage_profile).

    python -m benchmarks.stage_times [--save FILE.json] [--profile DIR] [dvc repro targets...]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.stage_profile import format_profile, profile_rows
from tasks.ops import stage_profile
from tasks.ops.prefect_server import free_port, stop_server
from tasks.ops.repo_copy import copy_repo
from tasks.params import ROOT, load_params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", type=Path,
                    help="write the stage rows here as JSON (benchmarks.prefect_overhead reads it)")
    ap.add_argument("--profile", type=Path, help="write each stage's profile here and print their table")
    args, targets = ap.parse_known_args()
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    mirror = load_params("fetch")["mirror"]
    if mirror and "HALLUCI_RAW_MIRROR" not in env:  # a relative mirror is relative to this repo, not the copy
        env["HALLUCI_RAW_MIRROR"] = str((ROOT / mirror).resolve())
    if args.profile:
        env[stage_profile.ENV] = str(args.profile.resolve())
    with tempfile.TemporaryDirectory(prefix="halluci-bench-stage-times-") as tmp:
        repo = copy_repo(Path(tmp) / "repo")
        try:
            save = ["--save", str(args.save.resolve())] if args.save else []
            proc = subprocess.run([sys.executable, "-m", "tasks.ops.run", "--port", str(free_port()), *save, *targets],
                                  cwd=repo, env=env, capture_output=True, text=True, check=False)
        finally:
            stop_server(repo / ".prefect")
    table = proc.stdout[proc.stdout.rfind("\nPer-stage wall time"):].strip()
    print(table)
    if args.profile:
        print("\n" + format_profile(profile_rows(args.profile)))
    if proc.returncode != 0:
        raise SystemExit(f"the repro failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")


if __name__ == "__main__":
    main()
