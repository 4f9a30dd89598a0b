"""Flow `hallucigen_translation`: the HalluciGen translation dataset (DVC stage `hallucigen_translation`)."""
from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.hallucigen.outputs import write_hallucigen_task
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.review import review_stats
from tasks.hallucigen.source_blind import source_blind_task
from tasks.hallucigen.sources import load_models, model_ids, source_lines
from tasks.hallucigen.translation import build_translation
from tasks.params import ROOT
from tasks.params_schema import HallucigenTranslation, as_dict, flow_params

RAW = ROOT / "data" / "raw"


@task(name="build-translation", cache_policy=NO_CACHE)
def build_task(params: dict):
    models = load_models(["en", "fr"])
    rows, stats, exhausted = build_translation(RAW, params, models, ROOT / "data" / "pawsx_edits" / "examples.parquet")
    return rows, {**stats, "spacy_models": model_ids(models)}, exhausted


@flow(name="hallucigen-translation")
def hallucigen_translation(params: HallucigenTranslation) -> None:
    params = as_dict(params)
    rows, stats, exhausted = build_task(params)
    published, stats["published_files"] = ingest_published(RAW / "hallucigen", "translation", params["directions"])
    stats["sources"] = source_lines(["pawsx", "hallucigen"] + (["aces"] if params["use_aces"] else []))
    stats["source_blind"] = source_blind_task(rows, params)
    stats["review"] = review_stats(params["review_sheets"], "translation")
    write_hallucigen_task("translation", rows, published, stats, params, exhausted,
                          ROOT / "data" / "hallucigen" / "translation",
                          ROOT / "metrics" / "hallucigen_translation.json")


if __name__ == "__main__":
    run_flow(lambda: hallucigen_translation(**flow_params(hallucigen_translation)), name="hallucigen_translation")
