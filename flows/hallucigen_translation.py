"""Flow `hallucigen_translation`: the HalluciGen translation dataset (DVC stage `hallucigen_translation`), one
shard per direction on the configured task runner: one at a time in this process (the shards share spaCy
pipelines), side by side on a Dask cluster when one is named (tasks/runners.py). The bytes do not depend on
the runner."""
from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.hallucigen_tasks import RAW, finish_dataset
from flows.main import run_flow
from tasks.hallucigen.sources import load_models, model_ids
from tasks.hallucigen.translation import build_direction, merge_directions, translation_pool
from tasks.params import ROOT
from tasks.params_schema import HallucigenTranslation, as_dict, flow_params
from tasks.runners import on_configured_runner


@task(name="build-direction", cache_policy=NO_CACHE)
def direction_task(direction: str, pool: dict, params: dict) -> tuple[tuple[list[dict], dict, set], dict]:
    models = load_models(["en", "fr"])
    return build_direction(direction, pool, models, params), model_ids(models)


def build(params: dict) -> tuple[list[dict], dict, dict[str, set]]:
    """Every direction's shard, submitted to the task runner, merged in params order."""
    pool = translation_pool(RAW, params, ROOT / "data" / "pawsx_edits" / "examples.parquet")
    futures = [direction_task.with_options(task_run_name=f"build-{d}").submit(d, pool, params)
               for d in params["directions"]]
    shards, models = zip(*[future.result() for future in futures])
    rows, stats, exhausted = merge_directions(pool, params, list(shards))
    return rows, {**stats, "spacy_models": models[0]}, exhausted


@flow(name="hallucigen-translation")
def hallucigen_translation(params: HallucigenTranslation) -> None:
    """pool -> filters -> perturb -> select per direction (``build``), then gates -> write (``finish_dataset``)."""
    params = as_dict(params)
    rows, stats, exhausted = build(params)
    finish_dataset("translation", rows, stats, exhausted, params, params["directions"],
                   ["pawsx", "hallucigen"] + (["aces"] if params["source"] == "aces" else []),
                   [params["entity_encoder"], params["confirm_encoder"]])


if __name__ == "__main__":
    run_flow(lambda: on_configured_runner(hallucigen_translation, local_workers=1)(
        **flow_params(hallucigen_translation)), name="hallucigen_translation")
