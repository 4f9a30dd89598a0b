"""Flow `hallucigen_translation`: the HalluciGen translation dataset (DVC stage `hallucigen_translation`)."""
from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.hallucigen.outputs import write_hallucigen_task
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.review import review_stats
from tasks.hallucigen.source_blind import source_blind_task
from tasks.hallucigen.sources import load_models, source_lines
from tasks.hallucigen.translation import build_translation
from tasks.params import ROOT, load_params

RAW = ROOT / "data" / "raw"


@task(name="build-translation", cache_policy=NO_CACHE)
def build_task(params: dict):
    return build_translation(RAW, params, load_models(["en", "fr"]), ROOT / "data" / "pawsx_edits" / "examples.parquet")


@flow(name="hallucigen-translation")
def hallucigen_translation() -> None:
    params = load_params("hallucigen_translation")
    rows, stats, exhausted = build_task(params)
    published, stats["published_files"] = ingest_published(RAW / "hallucigen", "translation", params["directions"])
    stats["sources"] = source_lines(["pawsx", "hallucigen"] + (["aces"] if params["use_aces"] else []))
    stats["source_blind"] = source_blind_task(rows, params)
    stats["review"] = review_stats(params["review_sheets"], "translation")
    write_hallucigen_task("translation", rows, published, stats, params, exhausted,
                          ROOT / "data" / "hallucigen" / "translation", ROOT / "metrics" / "hallucigen_translation.json")


if __name__ == "__main__":
    run_flow(hallucigen_translation)
