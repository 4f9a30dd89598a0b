"""`detect` on a Dask cluster: a real `dask scheduler` and two `dask worker` processes on 127.0.0.1, and a real
Prefect server they share with the flow; a small detect run (consistency + similarity on the SHROOM sets, in
shards of rows) gives byte-identical outputs and metrics to the same run on the local runner, and both workers
ran shards. The two wall times are printed (pytest -s) for the record. On the same cluster, a built CHARP cell
regenerated in shards, and the built translation dataset rebuilt one shard per direction, give the build's
bytes."""
from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest
import yaml

from tasks.ops.repo_copy import copy_repo
from tests.loopback import ROOT, VENV, api, free_port, prefect_healthy, started, tree_digests, wait
from tests.repo_copy import run, stage_env

pytestmark = [pytest.mark.loopback, pytest.mark.slow]


def _repo(tmp_path, name, mirror):
    """A repo copy whose detect stage is small: the SHROOM sets (raw files only), two detectors, in shards."""
    repo = copy_repo(tmp_path / name)
    shutil.copytree(mirror / "shroom", repo / "data/raw/shroom")
    params = yaml.safe_load((repo / "params.yaml").read_text())
    detect = params["detect"]
    detect["eval_sets"] = ["shroom-trial", "shroom-val"]
    detect["detectors"] = {name: detect["detectors"][name] for name in ("consistency", "similarity")}
    detect["detectors"]["similarity"]["max_per_langpair"] = None  # every row, so that shroom-val has 4 shards
    detect["shard_rows"] = 300  # shroom-trial: 80 rows, 1 shard; shroom-val: 1000 rows, 4 shards
    detect["gpu_concurrency"] = 2  # one similarity shard per worker at a time
    (repo / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    return repo


def _detect(repo, env) -> float:
    """`python -m flows.detect` (the stage's command) in ``repo``; its wall time."""
    start = time.perf_counter()
    run([sys.executable, "-m", "flows.detect"], repo, env)
    return time.perf_counter() - start


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


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, mirror):
    """A Prefect server, a Dask scheduler and two 1-thread workers on 127.0.0.1: (scheduler address, the
    environment of flows that use them)."""
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


def test_detect_on_two_dask_workers_matches_the_local_runner(tmp_path, mirror, cluster):
    address, env = cluster
    local, dask = _repo(tmp_path, "local", mirror), _repo(tmp_path, "dask", mirror)
    local_s = _detect(local, env)
    dask_s = _detect(dask, {**env, "HALLUCI_DASK_SCHEDULER": address})
    by_worker = _shards_run_by_worker(address)
    print(f"\npython -m flows.detect: local runner {local_s:.1f} s; Dask, 2 workers x 1 thread {dask_s:.1f} s")

    outputs = tree_digests(local / "data/detections")
    assert sorted(outputs) == ["shroom-trial.parquet", "shroom-val.parquet"]
    assert tree_digests(dask / "data/detections") == outputs
    assert (dask / "metrics/detect.json").read_bytes() == (local / "metrics/detect.json").read_bytes()
    stats = json.loads((local / "metrics/detect.json").read_text())
    assert stats["detectors"]["similarity"]["shroom-val"] == {"examples": 1000, "no_answer": 0}
    assert len(by_worker) == 2 and min(by_worker.values()) >= 1 and sum(by_worker.values()) == 10, by_worker


def _task_runs(env: dict, like: str) -> list[dict]:
    return api(env["PREFECT_API_URL"], "POST", "/task_runs/filter", {"task_runs": {"name": {"like_": like}}})


def _snapshot(paths: list[Path]) -> dict[Path, bytes]:
    return {f: f.read_bytes() for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*"))) if f.is_file()}


def _restore(snapshot: dict[Path, bytes]) -> None:
    for path, data in snapshot.items():
        path.write_bytes(data)


@pytest.mark.e2e
def test_charp_generation_in_shards_on_dask_matches_one_local_shard(built_repo, cluster):
    """A built cell regenerated on the cluster in shards of whole batches (4 + 2 turns, batch size 4): the
    same predictions file, byte for byte, as the build's one shard on the local runner."""
    address, env = cluster
    cell = "smollm2.train-h-full.eval-h-2"
    before = _snapshot([built_repo / "data/charp/predictions/smollm2/train-h-full.eval-h-2.parquet",
                        built_repo / f"metrics/charp/generate.{cell}.json"])
    params_file = built_repo / "params.yaml"
    saved = params_file.read_text()
    try:
        params = yaml.safe_load(saved)
        assert params["charp"]["generation"]["batch_size"] == 4 and params["charp"]["subsets"]["eval"] == 6
        params["charp"]["generation"]["shard_rows"] = 4
        params_file.write_text(yaml.safe_dump(params, sort_keys=False))
        run([sys.executable, "-m", "flows.charp_generate", "smollm2", "full", "2"], built_repo,
            {**env, "HALLUCI_DASK_SCHEDULER": address})
        runs = _task_runs(env, f"generate-{cell}-")
        assert sorted(r["name"] for r in runs) == [f"generate-{cell}-0", f"generate-{cell}-1"]
        assert {r["state_type"] for r in runs} == {"COMPLETED"}
        assert _snapshot(list(before)) == before
    finally:
        params_file.write_text(saved)
        _restore(before)


@pytest.mark.e2e
def test_translation_build_by_direction_on_dask_matches_the_local_build(built_repo, cluster):
    """The built translation dataset rebuilt with one shard per direction on the two workers: the same
    files, byte for byte, as the build's shards one at a time on the local runner."""
    address, env = cluster
    before = _snapshot([built_repo / "data/hallucigen/translation", built_repo / "metrics/hallucigen_translation.json"])
    try:
        run([sys.executable, "-m", "flows.hallucigen_translation"], built_repo,
            {**env, "HALLUCI_DASK_SCHEDULER": address})
        runs = _task_runs(env, "build-")
        directions = yaml.safe_load((built_repo / "params.yaml").read_text())["hallucigen_translation"]["directions"]
        assert sorted(r["name"] for r in runs) == sorted(f"build-{d}" for d in directions)
        assert {r["state_type"] for r in runs} == {"COMPLETED"}
        assert _snapshot(list(before)) == before
    finally:
        _restore(before)
