"""tasks/ops/stage_profile.py: a process with HALLUCI_PROFILE set writes its row at exit, with the models it
loaded, its seconds and the project function its time went to; without it, nothing is written."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

from tasks.ops.stage_profile import waiting
from tasks.params import ROOT

SCRIPT = """
import time
from tasks.models.loaded import loader
from tasks.ops import stage_profile

stage_profile.start("demo")

@loader()
def load_demo(name):
    deadline = time.process_time() + 0.6
    while time.process_time() < deadline:
        pass
    return name

load_demo("tiny"), load_demo("tiny"), load_demo("other")
"""


def _run(tmp_path, profile: bool) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HALLUCI_PROFILE", None)
    if profile:
        env["HALLUCI_PROFILE"] = str(tmp_path / "profile")
    subprocess.run([sys.executable, "-c", SCRIPT, "a1"], cwd=tmp_path, env=env, check=True)


def test_a_profiled_process_writes_its_loads_seconds_and_hot_function(tmp_path):
    _run(tmp_path, profile=True)
    row = json.loads((tmp_path / "profile" / "demo a1.json").read_text(encoding="utf-8"))
    assert row["stage"] == "demo a1" and row["model_loads"] == {"load_demo other": 1, "load_demo tiny": 1}
    assert row["top_functions"][0]["function"] == "tasks/models/loaded.py:load"
    assert row["top_functions"][0]["share"] > 0.8 and row["cpu_s"] >= 1.2 and row["wall_s"] >= 1.2
    assert row["peak_rss_mib"] > 0


def test_without_the_variable_nothing_is_written(tmp_path):
    _run(tmp_path, profile=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_thread_waiting_on_a_condition_is_not_counted():
    cond, seen = threading.Condition(), {}

    def park():
        with cond:
            cond.wait(timeout=2)

    t = threading.Thread(target=park)
    t.start()
    time.sleep(0.2)
    seen["parked"] = waiting(sys._current_frames()[t.ident])
    with cond:
        cond.notify_all()
    t.join()
    assert seen["parked"] is True and waiting(sys._getframe()) is False
