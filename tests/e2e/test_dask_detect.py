"""`detect` on a Dask cluster: a real `dask scheduler` and two `dask worker` processes on 127.0.0.1, and a real
Prefect server they share with the flow; a small detect run (consistency + similarity on the SHROOM sets, in
shards of rows) gives byte-identical outputs and metrics to the same run on the local runner, and both workers
ran shards. The two wall times are printed (pytest -s) for the record. On the same cluster (tests/dask_cluster.py),
a built CHARP cell regenerated in shards gives the build's bytes (the translation build by direction on Dask:
tests/e2e/test_e2e_paper.py)."""
from __future__ import annotations

import json
import shutil
import sys
import time

import pytest
import yaml

from tasks.ops.repo_copy import copy_repo
from tests.dask_cluster import restore, snapshot, task_runs
from tests.loopback import tree_digests
from tests.repo_copy import run

pytestmark = [pytest.mark.loopback, pytest.mark.slow]


def _repo(tmp_path, name, mirror):
    """A repo copy whose detect stage is small: the SHROOM sets (raw files only), two detectors, in shards."""
    repo = copy_repo(tmp_path / name)
    shutil.copytree(mirror / "shroom", repo / "data/raw/shroom")
    params = yaml.safe_load((repo / "params.yaml").read_text())
    detect = params["detect"]
    detect["eval_sets"] = ["shroom-trial", "shroom-val"]
    detect["detectors"] = {name: detect["detectors"][name] for name in ("consistency", "similarity")}
    detect["detectors"]["similarity"]["max_per_langpair"] = 100  # shroom-val: 100 seeded rows of DM, MT and PG each
    detect["shard_rows"] = 100  # consistency: shroom-trial 1 shard (80 rows), shroom-val 10; similarity: 1 + 3
    detect["gpu_concurrency"] = 2  # one similarity shard per worker at a time
    (repo / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    return repo


def _detect(repo, env) -> float:
    """`python -m flows.detect` (the stage's command) in ``repo``; its wall time."""
    start = time.perf_counter()
    run([sys.executable, "-m", "flows.detect"], repo, env)
    return time.perf_counter() - start


def _shards_run_by_worker(address: str) -> dict[str, int]:
    """Tasks each worker has computed so far (its state log's put-in-memory transitions)."""
    from distributed import Client

    with Client(address, timeout=10) as client:
        return client.run(lambda dask_worker: sum(e[1] == "put-in-memory" for e in dask_worker.state.log))


def test_detect_on_two_dask_workers_matches_the_local_runner(tmp_path, mirror, cluster):
    address, env = cluster
    local, dask = _repo(tmp_path, "local", mirror), _repo(tmp_path, "dask", mirror)
    local_s = _detect(local, env)
    earlier = _shards_run_by_worker(address)  # the session's cluster may have run other tests' tasks
    dask_s = _detect(dask, {**env, "HALLUCI_DASK_SCHEDULER": address})
    by_worker = {w: n - earlier.get(w, 0) for w, n in _shards_run_by_worker(address).items()}
    print(f"\npython -m flows.detect: local runner {local_s:.1f} s; Dask, 2 workers x 1 thread {dask_s:.1f} s")

    outputs = tree_digests(local / "data/detections")
    assert sorted(outputs) == ["shroom-trial.parquet", "shroom-val.parquet"]
    assert tree_digests(dask / "data/detections") == outputs
    assert (dask / "metrics/detect.json").read_bytes() == (local / "metrics/detect.json").read_bytes()
    stats = json.loads((local / "metrics/detect.json").read_text())
    assert stats["detectors"]["similarity"]["shroom-val"] == {"examples": 300, "no_answer": 0}
    assert stats["detectors"]["consistency"]["shroom-val"] == {"examples": 1000, "no_answer": 0}
    assert len(by_worker) == 2 and min(by_worker.values()) >= 1 and sum(by_worker.values()) == 15, by_worker


@pytest.mark.e2e
def test_charp_generation_in_shards_on_dask_matches_one_local_shard(built_repo, cluster):
    """A built cell regenerated on the cluster in shards of whole batches (4 + 2 turns, batch size 4): the
    same predictions file, byte for byte, as the build's one shard on the local runner."""
    address, env = cluster
    cell = "smollm2.train-h-full.eval-h-0"
    before = snapshot([built_repo / "data/charp/predictions/smollm2/train-h-full.eval-h-0.parquet",
                        built_repo / f"metrics/charp/generate.{cell}.json"])
    params_file = built_repo / "params.yaml"
    saved = params_file.read_text()
    try:
        params = yaml.safe_load(saved)
        assert params["charp"]["generation"]["batch_size"] == 4 and params["charp"]["subsets"]["eval"] == 6
        params["charp"]["generation"]["shard_rows"] = 4
        params_file.write_text(yaml.safe_dump(params, sort_keys=False))
        run([sys.executable, "-m", "flows.charp_generate", "smollm2", "full", "0"], built_repo,
            {**env, "HALLUCI_DASK_SCHEDULER": address})
        runs = task_runs(env, f"generate-{cell}-")
        assert sorted(r["name"] for r in runs) == [f"generate-{cell}-0", f"generate-{cell}-1"]
        assert {r["state_type"] for r in runs} == {"COMPLETED"}
        assert snapshot(list(before)) == before
    finally:
        params_file.write_text(saved)
        restore(before)
