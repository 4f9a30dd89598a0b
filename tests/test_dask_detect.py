"""`detect` on a Dask cluster: a real `dask scheduler` and two `dask worker` processes on 127.0.0.1, and a real
Prefect server they share with the flow; a small detect run (consistency + similarity on the SHROOM sets, in
shards of rows) gives byte-identical outputs and metrics to the same run on the local runner, and both workers
ran shards. The two wall times are printed (pytest -s) for the record."""
from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

from tasks.params import load_params
from tests.loopback import ROOT, VENV, free_port, prefect_healthy, run, started, tree_digests, wait

pytestmark = pytest.mark.loopback
RUN = """import json, sys, time
from pathlib import Path
from flows.detect import configured_detect
t = time.perf_counter()
configured_detect()(params=json.loads(sys.argv[1]), root=Path(sys.argv[2]))
print(f"detect wall {time.perf_counter() - t:.1f} s")
"""


def _params() -> dict:
    params = load_params("detect")
    params["eval_sets"] = ["shroom-trial", "shroom-val"]
    params["detectors"] = {name: params["detectors"][name] for name in ("consistency", "similarity")}
    params["shard_rows"] = 300  # shroom-trial: 80 rows, 1 shard; shroom-val: 1000 rows, 4 shards
    params["gpu_concurrency"] = 2  # one similarity shard per worker at a time
    return params


def _root(tmp_path, name, mirror):
    root = tmp_path / name
    shutil.copytree(mirror / "shroom", root / "data/raw/shroom")
    (root / "metrics").mkdir()
    return root


def _scheduler_up(address: str) -> bool:
    from distributed import Client

    try:
        with Client(address, timeout=5) as client:
            return len(client.scheduler_info()["workers"]) == 2
    except OSError:
        return False


def _shards_run_by_worker(address: str) -> dict[str, int]:
    """Tasks each worker computed (its state log's put-in-memory transitions)."""
    from distributed import Client

    with Client(address, timeout=10) as client:
        return client.run(lambda dask_worker: sum(e[1] == "put-in-memory" for e in dask_worker.state.log))


def test_detect_on_two_dask_workers_matches_the_local_runner(tmp_path, mirror):
    port, prefect_port = free_port(), free_port()
    address, base = f"tcp://127.0.0.1:{port}", f"http://127.0.0.1:{prefect_port}/api"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_") and k != "HALLUCI_DASK_SCHEDULER"}
    env.update({"PATH": f"{VENV / 'bin'}{os.pathsep}{env['PATH']}", "PYTHONPATH": str(ROOT), "DO_NOT_TRACK": "1",
                "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_HOME": str(tmp_path / "prefect-home"),
                "PREFECT_API_URL": base})
    params = json.dumps(_params())
    local, dask = _root(tmp_path, "local", mirror), _root(tmp_path, "dask", mirror)
    bin_ = VENV / "bin"
    server = [str(bin_ / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(prefect_port)]
    scheduler = [str(bin_ / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    worker = [str(bin_ / "dask"), "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard"]
    with started(server, tmp_path / "prefect.log", cwd=tmp_path, env=env), \
            started(scheduler, tmp_path / "scheduler.log", cwd=ROOT, env=env), \
            started(worker, tmp_path / "worker1.log", cwd=ROOT, env=env), \
            started(worker, tmp_path / "worker2.log", cwd=ROOT, env=env):
        wait(lambda: prefect_healthy(base), 180, "the Prefect server")
        wait(lambda: _scheduler_up(address), 120, "the Dask scheduler with two workers")
        local_run = run([sys.executable, "-c", RUN, params, str(local)], ROOT, env)
        dask_run = run([sys.executable, "-c", RUN, params, str(dask)], ROOT, {**env, "HALLUCI_DASK_SCHEDULER": address})
        by_worker = _shards_run_by_worker(address)
    timings = [line for p in (local_run, dask_run) for line in p.stdout.splitlines() if line.startswith("detect wall")]
    print(f"\nlocal runner: {timings[0]}; Dask, 2 workers x 1 thread: {timings[1]}")

    outputs = tree_digests(local / "data/detections")
    assert sorted(outputs) == ["shroom-trial.parquet", "shroom-val.parquet"]
    assert tree_digests(dask / "data/detections") == outputs
    assert (dask / "metrics/detect.json").read_bytes() == (local / "metrics/detect.json").read_bytes()
    stats = json.loads((local / "metrics/detect.json").read_text())
    assert stats["detectors"]["similarity"]["shroom-val"] == {"examples": 1000, "no_answer": 0}
    assert len(by_worker) == 2 and min(by_worker.values()) >= 1 and sum(by_worker.values()) == 10, by_worker
