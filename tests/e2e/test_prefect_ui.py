"""`make run`'s shared Prefect server, end to end: in a copy of the repo, `python -m tasks.ops.run fetch`
starts a real Prefect server on a free 127.0.0.1 port (state in the copy's .prefect/), runs the `fetch`
stage against it and prints the time table; a second run reuses the server and skips the stage. The
flow run and its task runs are on the server afterwards, and headless Chromium finds the flow run on
the UI's flow-runs page and the stage's log on the flow run's page (screenshots in the test's tmp folder)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tasks.ops.prefect_server import free_port, stop_server
from tasks.ops.repo_copy import copy_repo
from tests.headless_chromium import Chromium
from tests.prefect_server import api_post

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def repo(tmp_path_factory, mirror):
    repo = copy_repo(tmp_path_factory.mktemp("ui") / "repo")
    yield repo
    stop_server(repo / ".prefect")


@pytest.fixture(scope="module")
def runs(repo, mirror):
    """Two `make run`-style runs of the fetch stage on one port: (port, first output, second output)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}", HALLUCI_RAW_MIRROR=str(mirror))
    outputs = []
    for k in range(2):
        save = ["--save", str(repo.parent / f"times{k}.json")]
        proc = subprocess.run([sys.executable, "-m", "tasks.ops.run", "--port", str(port), *save, "fetch"], cwd=repo,
                              env=env, capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        outputs.append(proc.stdout)
    return port, *outputs


def test_one_server_started_then_reused_with_the_time_table(repo, runs):
    port, first, second = runs
    assert f"Prefect server: started at http://127.0.0.1:{port}" in first
    assert f"Prefect server: reusing the one at http://127.0.0.1:{port}" in second
    assert re.search(r"^fetch +\d+\.\d +\d+\.\d  ran$", first, re.MULTILINE)
    assert re.search(r"^fetch +\d+\.\d +\d+\.\d  skipped$", second, re.MULTILINE)
    assert re.search(r"^total +\d+\.\d +\d+\.\d  1 ran, 0 not run$", first, re.MULTILINE)
    assert f"http://127.0.0.1:{port}/runs" in first
    saved = [json.loads((repo.parent / f"times{k}.json").read_text()) for k in range(2)]
    assert [[(r["stage"], r["status"]) for r in rows] for rows in saved] == [[("fetch", "ran")], [("fetch", "skipped")]]
    assert (repo / ".prefect" / "prefect.db").is_file() and (repo / ".prefect" / "server.pid").is_file()
    ignored = subprocess.run(["git", "check-ignore", ".prefect/prefect.db"], cwd=repo, capture_output=True, text=True,
                             check=False)
    assert ignored.stdout.strip() == ".prefect/prefect.db"


def test_flow_run_task_runs_and_ui(repo, runs, tmp_path):
    port, _, _ = runs
    api, ui = f"http://127.0.0.1:{port}/api", f"http://127.0.0.1:{port}"
    flow_runs = api_post(api, "/flow_runs/filter", {"flows": {"name": {"any_": ["fetch"]}}})
    assert len(flow_runs) == 1 and flow_runs[0]["state"]["type"] == "COMPLETED"  # the skipped run made none
    run = flow_runs[0]
    task_runs = api_post(api, "/task_runs/filter", {"flow_runs": {"id": {"any_": [run["id"]]}}})
    sources = yaml.safe_load((repo / "params.yaml").read_text())["fetch"]["sources"]
    assert sorted(t["name"] for t in task_runs) == sorted(f"fetch-{s}" for s in sources)
    assert {t["state"]["type"] for t in task_runs} == {"COMPLETED"}

    with Chromium() as browser:
        runs_page = browser.open_and_wait_for(f"{ui}/runs", run["name"])
        browser.screenshot(tmp_path / "flow-runs.png")
        run_page = browser.open_and_wait_for(f"{ui}/runs/flow-run/{run['id']}", "pawsx: 6 files verified")
        browser.screenshot(tmp_path / "flow-run.png")
    assert run["name"] in runs_page and "fetch" in runs_page
    assert run["name"] in run_page and f"{len(sources)} Task runs" in run_page
    assert "pawsx: 6 files verified (from mirror)" in run_page
    assert all((tmp_path / f).stat().st_size > 20_000 for f in ("flow-runs.png", "flow-run.png"))
