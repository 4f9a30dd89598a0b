"""Flow `detect`: every configured detector on every evaluation set (DVC stage `detect`). Detectors are
submitted side by side to a thread-pool task runner: CPU detectors run beside model detectors, which are
`gpu`-tagged tasks, at most detect.gpu_concurrency at once. Outputs do not depend on completion order."""
from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.task_runners import ThreadPoolTaskRunner

from flows.main import run_flow
from tasks.detectors.registry import MODEL_KINDS, active_detectors, build_detector, check_detectors
from tasks.detectors.run import applicable_rows, run_detector, run_vote
from tasks.io import atomic_dir, write_json, write_parquet
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import Detect, as_dict, flow_params
from tasks.schemas import DETECTOR_OUTPUT
from tasks.scoring.eval_sets import load_eval_sets


@task(name="load-eval-sets", cache_policy=NO_CACHE)
def load_task(params: dict, data: Path):
    return load_eval_sets(params["eval_sets"], data, params["seed"])


@task(cache_policy=NO_CACHE)
def detector_task(name: str, spec: dict, params: dict, sets: dict) -> tuple[list[dict], dict]:
    detector = build_detector(name, spec, params["llm"])
    rows, figures = [], {}
    for set_name, eval_set in sets.items():
        out, figures[set_name] = run_detector(detector, eval_set, applicable_rows(eval_set, spec, params["seed"]))
        rows += out
    client = getattr(detector, "client", None)
    if client is not None:
        figures["unparsable_answers"] = detector.unparsable
        figures["client_failures"] = dict(sorted(client.failures.items()))
    return rows, figures


def submit_detector(name: str, spec: dict, params: dict, sets: dict):
    """A future of detector_task; model detectors carry the gpu tag."""
    tags = [GPU_TAG] if spec["kind"] in MODEL_KINDS else []
    return detector_task.with_options(name=f"detect-{name}", tags=tags).submit(name, spec, params, sets)


def drop_timings(stats: dict) -> None:
    """Timings vary run to run: keep them out of the DVC metrics."""
    for figures in stats.values():
        for f in figures.values():
            if isinstance(f, dict):
                f.pop("seconds", None), f.pop("pairs_per_s", None)


@flow(name="detect", task_runner=ThreadPoolTaskRunner())
def detect(params: Detect, root: Path = ROOT) -> None:
    """params: the validated detect section; root: where data/ and metrics/ are."""
    params = as_dict(params)
    detectors = active_detectors(params["detectors"])
    check_detectors(detectors)
    ensure_gpu_limit(params["gpu_concurrency"])
    sets = load_task(params, root / "data")
    futures = {name: submit_detector(name, spec, params, sets)
               for name, spec in detectors.items() if spec["kind"] != "vote"}
    results = {name: futures[name].result() for name in sorted(futures)}
    outputs = [row for rows, _ in results.values() for row in rows]
    for name, spec in detectors.items():
        if spec["kind"] == "vote":
            outputs += [row for s in sets.values() for row in run_vote(name, spec["members"], s, outputs)]
    stats = {"eval_sets": {n: {"kind": s.kind, **s.tally.as_dict()} for n, s in sets.items()},
             "detectors": {name: figures for name, (_, figures) in results.items()}}
    with atomic_dir(root / "data" / "detections") as tmp:
        for set_name in sets:
            mine = sorted((o for o in outputs if o["eval_set"] == set_name), key=lambda o: (o["detector"], o["id"]))
            write_parquet(mine, DETECTOR_OUTPUT, tmp / f"{set_name}.parquet")
    drop_timings(stats["detectors"])
    write_json(stats, root / "metrics" / "detect.json")


if __name__ == "__main__":
    run_flow(lambda: detect(**flow_params(detect)), name="detect")
