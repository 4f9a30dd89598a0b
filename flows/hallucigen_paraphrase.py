"""Flow `hallucigen_paraphrase`: the HalluciGen paraphrase dataset (DVC stage `hallucigen_paraphrase`), one
shard per language on the configured task runner: one at a time in this process, side by side on a Dask
cluster when one is named (tasks/runners.py; workers read the raw files at this checkout's absolute path).
The bytes do not depend on the runner."""
from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.hallucigen.fingerprint import encoder_fingerprints
from tasks.hallucigen.outputs import write_hallucigen_task
from tasks.hallucigen.paraphrase import build_language
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.review import published_review_stats, review_stats
from tasks.hallucigen.source_blind import source_blind_task
from tasks.hallucigen.sources import load_models, model_ids, source_lines
from tasks.params import ROOT
from tasks.params_schema import HallucigenParaphrase, as_dict, flow_params
from tasks.runners import on_configured_runner

RAW = ROOT / "data" / "raw"


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
    params = as_dict(params)
    rows, stats, exhausted = build(params)
    published, stats["published_files"] = ingest_published(RAW / "hallucigen", "paraphrase", params["languages"])
    stats["sources"] = source_lines(["shroom", "sweparaphrase", "turku-paraphrase-sv", "hallucigen"])
    stats["encoder_fingerprints"] = encoder_fingerprints([params[k] for k in ("encoder", "encoder_sv",
                                                                              "entity_encoder", "confirm_encoder")])
    if params["source_blind"]["enabled"]:
        stats["source_blind"] = source_blind_task(rows, params)
    stats["review"] = review_stats(params["review_sheets"], "paraphrase", rows)
    stats["published_review"] = published_review_stats(params["published_review"], published)
    write_hallucigen_task("paraphrase", rows, published, stats, params, exhausted,
                          ROOT / "data" / "hallucigen" / "paraphrase", ROOT / "metrics" / "hallucigen_paraphrase.json")


if __name__ == "__main__":
    run_flow(lambda: on_configured_runner(hallucigen_paraphrase, local_workers=1)(
        **flow_params(hallucigen_paraphrase)), name="hallucigen_paraphrase")
