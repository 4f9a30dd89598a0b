"""A real Dask cluster for tests (a pytest plugin, listed in tests/conftest.py): a Prefect server, a `dask
scheduler` and two 1-thread `dask worker` processes on 127.0.0.1, started once per test session (per xdist
worker) by the first test that asks for `cluster`; and the helpers that compare a rebuild on it with a build."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback import ROOT, VENV, api, free_port, prefect_healthy, started, wait
from tests.repo_copy import stage_env


def _scheduler_up(address: str) -> bool:
    from distributed import Client

    try:
        with Client(address, timeout=5) as client:
            return len(client.scheduler_info()["workers"]) == 2
    except OSError:
        return False


@pytest.fixture(scope="session")
def cluster(tmp_path_factory, mirror):
    """(scheduler address, the environment of flows that use the cluster and its Prefect server)."""
    tmp_path = tmp_path_factory.mktemp("dask")
    port, prefect_port = free_port(), free_port()
    address, base = f"tcp://127.0.0.1:{port}", f"http://127.0.0.1:{prefect_port}/api"
    env = {k: v for k, v in stage_env(mirror).items() if k != "HALLUCI_DASK_SCHEDULER"}
    env.update({"PREFECT_HOME": str(tmp_path / "prefect-home"), "PREFECT_API_URL": base})
    bin_ = VENV / "bin"
    server = [str(bin_ / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(prefect_port)]
    scheduler = [str(bin_ / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    # scheduler and workers unpickle tasks/ and flows/ from this checkout (PYTHONPATH)
    worker = [str(bin_ / "dask"), "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard"]
    with started(server, tmp_path / "prefect.log", cwd=tmp_path, env=env), \
            started(scheduler, tmp_path / "scheduler.log", cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}), \
            started(worker, tmp_path / "worker1.log", cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}), \
            started(worker, tmp_path / "worker2.log", cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}):
        wait(lambda: prefect_healthy(base), 180, "the Prefect server")
        wait(lambda: _scheduler_up(address), 120, "the Dask scheduler with two workers")
        yield address, env


def task_runs(env: dict, like: str) -> list[dict]:
    """The task runs on the cluster's Prefect server whose names match ``like``."""
    return api(env["PREFECT_API_URL"], "POST", "/task_runs/filter", {"task_runs": {"name": {"like_": like}}})


def snapshot(paths: list[Path]) -> dict[Path, bytes]:
    """The bytes of every file in ``paths`` (files, or folders walked in order)."""
    return {f: f.read_bytes() for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*"))) if f.is_file()}


def restore(files: dict[Path, bytes]) -> None:
    for path, data in files.items():
        path.write_bytes(data)
