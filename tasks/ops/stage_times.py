"""`dvc repro` with a per-stage time table: DVC's own output, echoed as it comes, is timestamped line by
line; a stage's seconds run from the end of the previous stage (DVC's change check included) to its lock
file update, or to the next stage's line when the lock did not change."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

RAN = re.compile(r"^Running stage '(?P<stage>[^']+)':$")
SKIPPED = re.compile(r"^Stage '(?P<stage>[^']+)' didn't change, skipping$")
RESTORED = re.compile(r"^Stage '(?P<stage>[^']+)' is cached - skipping run, checking out outputs$")
LOCKED = re.compile(r"^(Updating|Generating) lock file '")


@dataclass
class StageTime:
    stage: str
    status: str  # ran | skipped | restored (from DVC's run cache) | failed
    seconds: float


def stage_times(lines: Iterable[tuple[float, str]], start: float, end: float, returncode: int) -> list[StageTime]:
    """The stages of one repro, in DVC's order, from its output ``lines`` as (monotonic time, text)."""
    rows: list[StageTime] = []
    boundary = start
    open_row: StageTime | None = None

    def close(at: float) -> None:
        nonlocal open_row, boundary
        if open_row is not None:
            open_row.seconds, boundary, open_row = at - boundary, at, None

    for at, text in lines:
        text = text.strip()
        if LOCKED.match(text):
            close(at)
            continue
        for pattern, status in ((RAN, "ran"), (RESTORED, "restored"), (SKIPPED, "skipped")):
            m = pattern.match(text)
            if m:
                close(at)
                row = StageTime(m["stage"], status, 0.0)
                rows.append(row)
                if status == "skipped":
                    row.seconds, boundary = at - boundary, at
                else:
                    open_row = row
                break
    if open_row is not None and returncode != 0:
        open_row.status = "failed"
    close(end)
    return rows


def format_table(rows: list[StageTime], total: float) -> str:
    """The table `make run` and `make bench` print: stage, wall seconds, ran/skipped."""
    width = max([len("stage"), *(len(r.stage) for r in rows)])
    lines = [f"{'stage':<{width}}  {'seconds':>8}  status", f"{'-' * width}  {'-' * 8}  -------"]
    lines += [f"{r.stage:<{width}}  {r.seconds:8.1f}  {r.status}" for r in rows]
    ran = sum(r.status == "ran" for r in rows)
    lines.append(f"{'total':<{width}}  {total:8.1f}  {ran} ran, {len(rows) - ran} not run")
    return "\n".join(lines)


def timed_repro(args: list[str], cwd: Path, env: dict, echo: TextIO | None = sys.stdout
                ) -> tuple[int, list[StageTime], float]:
    """Run `dvc repro ARGS` (output echoed to ``echo``); return its exit code, stage times and wall seconds."""
    start = time.monotonic()
    proc = subprocess.Popen(["dvc", "repro", *args], cwd=cwd, env={**env, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1)
    lines = []
    for text in proc.stdout:
        lines.append((time.monotonic(), text))
        if echo is not None:
            echo.write(text)
            echo.flush()
    returncode = proc.wait()
    end = time.monotonic()
    return returncode, stage_times(lines, start, end, returncode), end - start
