"""The cost of a `dvc repro` that has nothing to do, against DVC's own floor, in wall and CPU seconds: DVC
starting (`dvc version`), reading the pipeline (`dvc stage list`: dvc.yaml, params, matrix and foreach
expansion), checking every stage (`dvc status`), and the no-op `dvc repro`. Also the pipeline's size: stages,
dvc.lock, files in directory deps and outs. Target: no-op repro <= 1.2 s wall on an idle 2-core machine;
on a busy one the CPU seconds are the steadier figure.

    python -m benchmarks.noop_repro [--runs 5] [--profile 25] [targets]   (after `make run`: stages up to date)

--profile N: also one no-op `dvc repro` in this process under cProfile on CPU time, its N costliest calls.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

from tasks.params import ROOT


def commands(targets: list[str]) -> dict[str, list[str]]:
    return {"dvc version (start-up floor)": ["dvc", "version"], "dvc stage list (read the pipeline)":
            ["dvc", "stage", "list"], "dvc status (check the stages)": ["dvc", "status", *targets],
            "dvc repro (no-op)": ["dvc", "repro", *targets]}


def timed(args: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=ROOT, env=env, check=False, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {(proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:]}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def pipeline_size() -> str:
    lock = yaml.safe_load((ROOT / "dvc.lock").read_text())["stages"]
    files = 0
    for stage in lock.values():
        for entry in [*stage.get("deps", []), *stage.get("outs", [])]:
            files += entry.get("nfiles", 0)
    return (f"{len(lock)} stages in dvc.lock ({(ROOT / 'dvc.lock').stat().st_size / 1024:.0f} KiB), "
            f"{files} files in directory deps and outs (counted once per stage that names them)")


def profile_noop(top: int, targets: list[str]) -> None:
    """Where a no-op repro spends its CPU time (cumulative, DVC's and its libraries' calls)."""
    from dvc.cli import main as dvc_main

    profiler = cProfile.Profile(time.process_time)
    os.chdir(ROOT)
    profiler.runcall(dvc_main, ["repro", "-q", *targets])
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    ap.add_argument("targets", nargs="*", help="stages (default: all)")
    args = ap.parse_args()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    if subprocess.run(["dvc", "status", "-q", *args.targets], cwd=ROOT, env=env, check=False).returncode != 0:
        raise SystemExit("some stage is not up to date: run `make run` first")
    print(f"no-op dvc repro, median of {args.runs} runs; {pipeline_size()}")
    for label, command in commands(args.targets).items():
        timed(command, env)  # warm the file cache
        runs = [timed(command, env) for _ in range(args.runs)]
        wall, cpu = (statistics.median(r[i] for r in runs) for i in (0, 1))
        print(f"  {label:<36} {wall:5.2f} s wall  {cpu:5.2f} s CPU")
    if args.profile:
        profile_noop(args.profile, args.targets)


if __name__ == "__main__":
    main()
