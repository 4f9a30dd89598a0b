"""Flow `detect`: every configured detector on every evaluation set (DVC stage `detect`), in shards (detector x
evaluation set x detect.shard_rows rows) submitted side by side to the task runner: Prefect's thread pool in
this process, or a Dask cluster when one is named (tasks/runners.py). Model shards are `gpu`-tagged tasks, at
most detect.gpu_concurrency at once; e5 shards (a CPU-only engine) run beside them. Outputs do not depend on
the runner or on completion order. Examples an LLM detector's client got no answer for follow
tasks/models/client.py: all of them fail the stage and keep the previous outputs, some of them give one warning
line."""
from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.detectors.registry import active_detectors, check_detectors, holds_gpu
from tasks.detectors.run import run_vote
from tasks.detectors.shards import Shard, check_clients, merge, plan, run_shard
from tasks.io import atomic_dir, write_json, write_parquet
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import Detect, as_dict, flow_params
from tasks.runners import on_configured_runner
from tasks.schemas import DETECTOR_OUTPUT
from tasks.scoring.eval_sets import load_eval_sets


@task(name="load-eval-sets", cache_policy=NO_CACHE)
def load_task(params: dict, data: Path):
    return load_eval_sets(params["eval_sets"], data, params["seed"])


@task(cache_policy=NO_CACHE)
def shard_task(shard: Shard, llm_params: dict) -> tuple[list[dict], dict, dict]:
    return run_shard(shard, llm_params)


def submit_shard(shard: Shard, llm_params: dict):
    """A future of shard_task; model detectors with an accelerator path carry the gpu tag, unless the shard
    has nothing to run."""
    tags = [GPU_TAG] if holds_gpu(shard.spec) and shard.idle is None else []
    return shard_task.with_options(name=f"detect-{shard.detector}", task_run_name=f"detect-{shard.key}",
                                   tags=tags).submit(shard, llm_params)


@flow(name="detect")
def detect(params: Detect, root: Path = ROOT) -> None:
    """params: the validated detect section; root: where data/ and metrics/ are."""
    params = as_dict(params)
    detectors = active_detectors(params["detectors"])
    check_detectors(detectors)
    ensure_gpu_limit(params["gpu_concurrency"])
    sets = load_task(params, root / "data")
    shards = plan(detectors, sets, params["seed"], params.get("shard_rows"), params["llm"])
    futures = [submit_shard(shard, params["llm"]) for shard in shards]
    outputs, detector_stats = merge(shards, [future.result() for future in futures])
    check_clients(detectors, detector_stats, list(sets), params["llm"])
    for name, spec in detectors.items():
        if spec["kind"] == "vote":
            outputs += [row for s in sets.values() for row in run_vote(name, spec["members"], s, outputs)]
    stats = {"eval_sets": {n: {"kind": s.kind, **s.tally.as_dict()} for n, s in sets.items()},
             "detectors": detector_stats}
    with atomic_dir(root / "data" / "detections") as tmp:
        for set_name in sets:
            mine = sorted((o for o in outputs if o["eval_set"] == set_name), key=lambda o: (o["detector"], o["id"]))
            write_parquet(mine, DETECTOR_OUTPUT, tmp / f"{set_name}.parquet")
    write_json(stats, root / "metrics" / "detect.json")


if __name__ == "__main__":
    run_flow(lambda: on_configured_runner(detect)(**flow_params(detect)), name="detect")
