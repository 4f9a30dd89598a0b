"""The per-stage time table of `make run` / `make bench`, from a real `dvc repro` of a small project: which
stages ran, were skipped or failed, and how long each one took, in wall and in CPU seconds."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tasks.ops.stage_times import format_table, timed_repro

DVC_YAML = """stages:
  slow:
    cmd: python -c "import time; time.sleep(6); open('slow.txt', 'w').write('s')"
    outs: [slow.txt]
  quick:
    cmd: python -c "open('quick.txt', 'w').write(open('slow.txt').read() + open('knob.txt').read())"
    deps: [slow.txt, knob.txt]
    outs: [quick.txt]
  busy:
    cmd: python -c "import time; all(iter(lambda:time.process_time() < 2, False)); open('busy.txt', 'w').write('b')"
    deps: [quick.txt]
    outs: [busy.txt]
  fails:
    cmd: python -c "import sys; sys.exit(open('knob.txt').read() == 'boom')"
    deps: [knob.txt]
    outs: [fails.txt]
"""


@pytest.fixture
def project(tmp_path) -> tuple[Path, dict]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "DVC_NO_ANALYTICS": "1"}
    subprocess.run(["dvc", "init", "--no-scm", "-q"], cwd=tmp_path, env=env, check=True)
    (tmp_path / "dvc.yaml").write_text(DVC_YAML.replace("python", sys.executable))
    (tmp_path / "knob.txt").write_text("a")
    return tmp_path, env


def _statuses(rows) -> dict[str, str]:
    return {r.stage: r.status for r in rows}


def test_ran_skipped_and_failed_stages_with_their_seconds(project):
    repo, env = project
    rc, rows, total, cpu = timed_repro(["busy"], repo, env, echo=None)
    assert rc == 0 and [(r.stage, r.status) for r in rows] == [("slow", "ran"), ("quick", "ran"), ("busy", "ran")]
    slow, quick, busy = rows
    assert slow.seconds >= 6 > quick.seconds
    assert slow.cpu_seconds < 1.5 and busy.cpu_seconds >= 2  # sleeping takes wall time, spinning CPU time
    assert sum(r.seconds for r in rows) <= total and sum(r.cpu_seconds for r in rows) <= cpu

    rc, rows, _, _ = timed_repro(["slow", "quick"], repo, env, echo=None)
    assert rc == 0 and _statuses(rows) == {"slow": "skipped", "quick": "skipped"}
    # the first stage includes DVC's start-up (2.3 s on a loaded 2-core CI run): a skipped stage is >= 3 s short of
    # its 6 s sleep
    assert rows[0].seconds < slow.seconds - 3 and rows[1].seconds < 1

    (repo / "knob.txt").write_text("boom")
    rc, rows, _, _ = timed_repro([], repo, env, echo=None)
    assert rc != 0
    assert _statuses(rows)["slow"] == "skipped" and _statuses(rows)["fails"] == "failed"


def test_table_lists_every_stage_and_the_total():
    from tasks.ops.stage_times import StageTime

    rows = [StageTime("fetch", "ran", 3.26, 1.04), StageTime("dialogue@dstc11", "skipped", 0.4, 0.31)]
    assert format_table(rows, 4.0, 1.5).splitlines() == [
        "stage             seconds     CPU s  status",
        "---------------  --------  --------  -------",
        "fetch                 3.3       1.0  ran",
        "dialogue@dstc11       0.4       0.3  skipped",
        "total                 4.0       1.5  1 ran, 1 not run",
    ]
