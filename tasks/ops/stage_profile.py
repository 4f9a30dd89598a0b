"""A stage's own figures, when the environment names a folder in HALLUCI_PROFILE: wall and CPU seconds of its
process (and the processes it reaped), peak RSS, the models it loaded (tasks.models.loaded.LOADS) and where its
threads spend their time. Written at exit as <folder>/<stage>[ <args>].json; benchmarks.stage_profile runs a
build with it and tabulates the files.

Where the time goes is sampled: every 20 ms, each thread that is inside the project's code (tasks/) counts one
sample for the innermost tasks/ function on its stack, so time in a library is charged to the project function
that called it ('tasks/models/encoders.py:_run' for e5's engine). Threads outside tasks/ (Prefect's event
loop, the flow awaiting its tasks) and threads waiting on a condition or a future are not counted."""
from __future__ import annotations

import atexit
import json
import os
import resource
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from tasks.io import atomic_path
from tasks.models.loaded import LOADS

ENV = "HALLUCI_PROFILE"
INTERVAL_S = 0.02
TASKS = str(Path(__file__).resolve().parents[1]) + os.sep


WAITING = {("threading.py", "wait"), ("threading.py", "wait_for"), ("threading.py", "_wait_for_tstate_lock"),
           ("_base.py", "result"), ("_base.py", "as_completed"), ("selectors.py", "select"), ("queue.py", "get")}


def waiting(frame) -> bool:
    """The thread's innermost Python frame waits for another thread or for I/O (a Condition, a future)."""
    return (Path(frame.f_code.co_filename).name, frame.f_code.co_name) in WAITING


def innermost_project_frame(frame) -> str | None:
    """'tasks/<module path>:<function>' of the innermost frame in tasks/ (not this module), or None."""
    while frame is not None:
        path = frame.f_code.co_filename
        if path.startswith(TASKS) and not path.endswith("stage_profile.py"):
            return f"tasks/{path[len(TASKS):]}:{frame.f_code.co_name}"
        frame = frame.f_back
    return None


class Sampler(threading.Thread):
    """Counts, per sample, the innermost project function of every other thread (``innermost_project_frame``)."""

    def __init__(self, interval: float = INTERVAL_S):
        super().__init__(name="stage-profile-sampler", daemon=True)
        self.interval, self.samples, self.counts, self.running = interval, 0, Counter(), True

    def run(self) -> None:
        own = threading.get_ident()
        while self.running:
            self.samples += 1
            for ident, frame in sys._current_frames().items():
                where = innermost_project_frame(frame) if ident != own and not waiting(frame) else None
                if where:
                    self.counts[where] += 1
            time.sleep(self.interval)


def cpu_seconds() -> float:
    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


def peak_rss_mib() -> float:
    """The larger of this process's and its largest reaped child's peak resident set (ru_maxrss is in KiB)."""
    return max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
               resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024


def figures(name: str, wall: float, cpu: float, sampler: Sampler, top: int = 15) -> dict:
    """The stage's row: seconds, peak RSS, loads as 'loader model' -> count, and the ``top`` project functions
    with their share of the sampled time (a thread's sample over all samples: two busy threads can sum past 1)."""
    loads = {f"{fn} {model}": n for (fn, model), n in sorted(LOADS.items())}
    hot = [{"function": f, "share": round(n / max(sampler.samples, 1), 3)} for f, n in sampler.counts.most_common(top)]
    return {"stage": name, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "peak_rss_mib": round(peak_rss_mib()),
            "model_loads": loads, "top_functions": hot}


def start(name: str) -> None:
    """Profile this process from now until exit when HALLUCI_PROFILE is set (no cost otherwise)."""
    folder = os.environ.get(ENV)
    if not folder:
        return
    label = " ".join([name, *sys.argv[1:]])
    t0, c0, sampler = time.perf_counter(), cpu_seconds(), Sampler()
    sampler.start()

    def write() -> None:
        sampler.running = False
        row = figures(label, time.perf_counter() - t0, cpu_seconds() - c0, sampler)
        Path(folder).mkdir(parents=True, exist_ok=True)
        with atomic_path(Path(folder) / f"{label}.json") as tmp:
            tmp.write_text(json.dumps(row, indent=1) + "\n", encoding="utf-8")

    atexit.register(write)
