"""The nightly on a Prefect process work pool: a real `prefect server start` on a free 127.0.0.1 port with a
temporary PREFECT_HOME, `make pool`, `make deploy` and one `make worker`, all separate processes; a run of
the deployment triggered through the API completes on the worker. The worker's checkout is a fresh clone
with the DVC remote (moto S3) configured: the nightly pulls the artifacts, `dvc repro` there runs nothing,
and the outputs are the bytes the origin pushed."""
from __future__ import annotations

import subprocess

import pytest
import yaml

from tests.loopback import (
    VENV,
    api,
    flow_run_logs,
    flow_run_state,
    free_port,
    prefect_healthy,
    started,
    tree_digests,
    wait,
)
from tests.repo_copy import run
from tests.s3_remote import TARGETS

pytestmark = [pytest.mark.loopback, pytest.mark.slow]
POOL = "nightly-ci"


def test_nightly_deployment_runs_on_a_process_worker(pushed, s3_env, tmp_path):
    checkout = tmp_path / "worker-checkout"
    subprocess.run(["git", "clone", "-q", str(pushed), str(checkout)], check=True)
    params = yaml.safe_load((checkout / "params.yaml").read_text())
    params["nightly"]["targets"] = TARGETS  # a tiny nightly: the repro stays cheap
    (checkout / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))

    port = free_port()
    base = f"http://127.0.0.1:{port}/api"
    env = {**s3_env, "PREFECT_HOME": str(tmp_path / "prefect-home"), "PREFECT_API_URL": base}
    make = ["make", f"VENV={VENV}", f"POOL={POOL}"]
    server = [str(VENV / "bin/prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)]
    with started(server, tmp_path / "server.log", cwd=tmp_path, env=env):
        wait(lambda: prefect_healthy(base), 180, "the Prefect server")
        run([*make, "pool"], checkout, env)
        pool = api(base, "GET", f"/work_pools/{POOL}")
        assert pool["type"] == "process"
        run([*make, "deploy", f"SOURCE={checkout}"], checkout, env)
        found = api(base, "POST", "/deployments/filter", {"deployments": {"name": {"any_": ["nightly"]}}})
        assert len(found) == 1 and found[0]["work_pool_name"] == POOL
        assert found[0]["schedules"][0]["schedule"]["cron"] == params["nightly"]["cron"]
        with started([*make, "worker"], tmp_path / "worker.log", cwd=checkout, env=env):
            wait(lambda: api(base, "POST", f"/work_pools/{POOL}/workers/filter", {}), 120, "the worker")
            state, run_id = flow_run_state(base, found[0]["id"])
            logs = flow_run_logs(base, run_id)
    assert state == "COMPLETED", "\n".join(logs[-20:]) + (tmp_path / "worker.log").read_text()[-3000:]
    assert any(m.startswith("dvc pull: ") for m in logs) and any(m.startswith("dvc push: ") for m in logs)
    repro = [m for m in logs if m.startswith("dvc repro: ")]
    assert repro == ["dvc repro: Stage 'dialogue@begin' didn't change, skipping / Data and pipelines are up to date."]
    for out in ("data/raw", "data/dialogue"):
        assert tree_digests(checkout / out) == tree_digests(pushed / out)
    assert "baseline" in (checkout / "data/history/regression_report.md").read_text()
