"""Flow `hallucigen_paraphrase`: the HalluciGen paraphrase dataset (DVC stage `hallucigen_paraphrase`), one
shard per language on the configured task runner: one at a time in this process, side by side on a Dask
cluster when one is named (tasks/runners.py; workers read the raw files at this checkout's absolute path).
The bytes do not depend on the runner."""
from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.hallucigen_tasks import RAW, finish_dataset
from flows.main import run_flow
from tasks.hallucigen.paraphrase import build_language
from tasks.hallucigen.sources import load_models, model_ids
from tasks.params_schema import HallucigenParaphrase, as_dict, flow_params
from tasks.runners import on_configured_runner


@task(name="build-language", cache_policy=NO_CACHE)
def language_task(lang: str, raw_root: str, params: dict) -> tuple[tuple[list[dict], dict, set], dict]:
    models = load_models(["en"]) if lang == "en" else {}
    return build_language(lang, Path(raw_root), params, models.get("en")), model_ids(models)


def build(params: dict) -> tuple[list[dict], dict, dict[str, set]]:
    """Every language's shard, submitted to the task runner, merged in params order."""
    futures = [language_task.with_options(task_run_name=f"build-{lang}").submit(lang, str(RAW.resolve()), params)
               for lang in params["languages"]]
    rows, stats, exhausted, models = [], {}, {}, {}
    for lang, future in zip(params["languages"], futures):
        (shard_rows, stats[lang], exhausted[lang]), ids = future.result()
        rows += shard_rows
        models |= ids
    return rows, {**stats, "spacy_models": models}, exhausted


@flow(name="hallucigen-paraphrase")
def hallucigen_paraphrase(params: HallucigenParaphrase) -> None:
    """pool -> filters -> perturb -> select per language (``build``), then gates -> write (``finish_dataset``)."""
    params = as_dict(params)
    rows, stats, exhausted = build(params)
    finish_dataset("paraphrase", rows, stats, exhausted, params, params["languages"],
                   ["shroom", "sweparaphrase", "turku-paraphrase-sv", "hallucigen"],
                   [params[k] for k in ("encoder", "encoder_sv", "entity_encoder", "confirm_encoder")])


if __name__ == "__main__":
    run_flow(lambda: on_configured_runner(hallucigen_paraphrase, local_workers=1)(
        **flow_params(hallucigen_paraphrase)), name="hallucigen_paraphrase")
