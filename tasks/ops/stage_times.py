"""`dvc repro` with a per-stage time table: DVC's own output, echoed as it comes, is timestamped line by
line; a stage's seconds run from the end of the previous stage (DVC's change check included) to its lock
file update, or to the next stage's line when the lock did not change. CPU seconds (of DVC and every
process under it) are sampled at the same lines: on a shared machine they show the work that wall time
hides behind waiting for a core."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import psutil

RAN = re.compile(r"^Running stage '(?P<stage>[^']+)':$")
SKIPPED = re.compile(r"^Stage '(?P<stage>[^']+)' didn't change, skipping$")
RESTORED = re.compile(r"^Stage '(?P<stage>[^']+)' is cached - skipping run, checking out outputs$")
LOCKED = re.compile(r"^(Updating|Generating) lock file '")


@dataclass
class StageTime:
    stage: str
    status: str  # ran | skipped | restored (from DVC's run cache) | failed
    seconds: float
    cpu_seconds: float = 0.0


def stage_times(lines: Iterable[tuple[float, float, str]], start: tuple[float, float], end: tuple[float, float],
                returncode: int) -> list[StageTime]:
    """The stages of one repro, in DVC's order, from its output ``lines`` as (monotonic time, CPU seconds so
    far, text); ``start`` and ``end`` are (time, CPU seconds) of the process's start and end."""
    rows: list[StageTime] = []
    boundary = start
    open_row: StageTime | None = None

    def close(row: StageTime, at: tuple[float, float]) -> None:
        nonlocal boundary
        row.seconds, row.cpu_seconds, boundary = at[0] - boundary[0], at[1] - boundary[1], at

    for at, cpu, text in lines:
        found = event(text)
        if open_row is not None and (found or LOCKED.match(text.strip())):
            close(open_row, (at, cpu))
            open_row = None
        if found:
            rows.append(StageTime(*found, seconds=0.0))
            if found[1] == "skipped":
                close(rows[-1], (at, cpu))
            else:
                open_row = rows[-1]
    if open_row is not None:
        open_row.status = "failed" if returncode != 0 else open_row.status
        close(open_row, end)
    return rows


def event(text: str) -> tuple[str, str] | None:
    """(stage, status) when ``text`` is DVC's line for a stage that runs, is skipped or restored."""
    for pattern, status in ((RAN, "ran"), (RESTORED, "restored"), (SKIPPED, "skipped")):
        m = pattern.match(text.strip())
        if m:
            return m["stage"], status
    return None


def tree_cpu_seconds(proc: psutil.Process) -> float:
    """CPU seconds of ``proc``, the children it reaped and its live descendants."""
    try:
        t = proc.cpu_times()
        children = proc.children()
    except psutil.NoSuchProcess:
        return 0.0
    return t.user + t.system + t.children_user + t.children_system + sum(map(tree_cpu_seconds, children))


def format_table(rows: list[StageTime], total: float, total_cpu: float) -> str:
    """The table `make run` and `make bench` print: stage, wall and CPU seconds, ran/skipped."""
    width = max([len("stage"), *(len(r.stage) for r in rows)])
    lines = [f"{'stage':<{width}}  {'seconds':>8}  {'CPU s':>8}  status",
             f"{'-' * width}  {'-' * 8}  {'-' * 8}  -------"]
    lines += [f"{r.stage:<{width}}  {r.seconds:8.1f}  {r.cpu_seconds:8.1f}  {r.status}" for r in rows]
    ran = sum(r.status == "ran" for r in rows)
    lines.append(f"{'total':<{width}}  {total:8.1f}  {total_cpu:8.1f}  {ran} ran, {len(rows) - ran} not run")
    return "\n".join(lines)


def _pump(proc: subprocess.Popen, watched: psutil.Process, lines: list, echo: TextIO | None) -> None:
    """Echo DVC's output as it comes; keep its stage lines with their time and CPU seconds."""
    for text in proc.stdout:
        if LOCKED.match(text.strip()) or event(text):
            lines.append((time.monotonic(), tree_cpu_seconds(watched), text))
        if echo is not None:
            echo.write(text)
            echo.flush()


def timed_repro(args: list[str], cwd: Path, env: dict, echo: TextIO | None = sys.stdout
                ) -> tuple[int, list[StageTime], float, float]:
    """Run `dvc repro ARGS` (output echoed to ``echo``); return its exit code, stage times, wall and CPU seconds."""
    start = time.monotonic()
    bin_dir = str(Path(sys.executable).parent)  # the venv's dvc and python, also when it is not activated
    path = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    proc = subprocess.Popen(["dvc", "repro", *args], cwd=cwd, env={**env, "PATH": path, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1)
    watched = psutil.Process(proc.pid)
    lines: list[tuple[float, float, str]] = []
    try:
        _pump(proc, watched, lines, echo)
    except KeyboardInterrupt:  # Ctrl-C reached DVC too: read on while it stops, then the table shows what ran
        _pump(proc, watched, lines, echo)
    cpu = tree_cpu_seconds(watched)  # before the wait reaps it
    returncode = proc.wait()
    end = time.monotonic()
    return returncode, stage_times(lines, (start, 0.0), (end, cpu), returncode), end - start, cpu
