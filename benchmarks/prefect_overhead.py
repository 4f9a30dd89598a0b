"""Prefect's cost per stage: a stage is one process running one flow, so its overhead is the wall time of a
process that runs a flow of N trivial tasks minus one that only imports Prefect and defines it. Measured
with a temporary server per process (no PREFECT_API_URL: what each stage paid before `make run` shared
one) and with one shared server (`make run`), whose own CPU time is added to the flow's. With a table
from benchmarks.stage_times (--stage-times), the overhead as a share of each stage's time. Target: <= 10%.

    python -m benchmarks.prefect_overhead [--tasks 8] [--runs 3] [--stage-times FILE.json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from tasks.ops.prefect_server import QUIET, client_env, free_port, start_server, stop_server

PROBE = """
import sys
from prefect import flow, task

@task
def step(k):
    return k

@flow(name="overhead-probe")
def probe(n):
    return [step(k) for k in range(n)]

if sys.argv[1] == "run":
    probe(int(sys.argv[2]))
"""


def _timed(args: list[str], env: dict) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def overhead(env: dict, tasks: int, runs: int, server: psutil.Process | None = None) -> tuple[float, float]:
    """Median wall and CPU seconds that running the flow adds to a process that only defines it."""
    probe = [sys.executable, "-c", PROBE]
    _timed([*probe, "run", str(tasks)], env)  # warm-up: database migrations, first-run caches
    bare = [_timed([*probe, "bare"], env) for _ in range(runs)]
    ran = []
    for _ in range(runs):
        server_cpu = sum(server.cpu_times()[:2]) if server else 0.0
        wall, cpu = _timed([*probe, "run", str(tasks)], env)
        ran.append((wall, cpu + (sum(server.cpu_times()[:2]) - server_cpu if server else 0.0)))
    return tuple(statistics.median(r[i] for r in ran) - statistics.median(b[i] for b in bare) for i in (0, 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--stage-times", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="prefect-overhead-") as tmp:
        temp_home, shared_home = Path(tmp) / "temporary", Path(tmp) / "shared"
        base = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
        temporary = overhead({**base, **QUIET, "PREFECT_HOME": str(temp_home)}, args.tasks, args.runs)
        api = start_server(shared_home, free_port())
        try:
            server = psutil.Process(int((shared_home / "server.pid").read_text()))
            shared = overhead(client_env(api, shared_home, base), args.tasks, args.runs, server)
        finally:
            stop_server(shared_home)
    print(f"Prefect overhead per stage (a flow of {args.tasks} tasks, median of {args.runs} runs):")
    for label, (wall, cpu) in (("temporary server per stage", temporary), ("shared server (make run)", shared)):
        print(f"  {label:<27} {wall:5.2f} s wall, {cpu:5.2f} s CPU")
    if args.stage_times:
        rows = [r for r in json.loads(args.stage_times.read_text()) if r["status"] == "ran"]
        width = max(len(r["stage"]) for r in rows)
        print(f"  {'stage':<{width}}  seconds  temporary  shared  (share of the stage's wall time; target <= 10%)")
        for r in rows:
            print(f"  {r['stage']:<{width}}  {r['seconds']:7.1f}  {temporary[0] / r['seconds']:8.1%}  "
                  f"{shared[0] / r['seconds']:6.1%}")


if __name__ == "__main__":
    main()
