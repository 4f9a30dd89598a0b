"""Flow `hallucigen_paraphrase`: the HalluciGen paraphrase dataset (DVC stage `hallucigen_paraphrase`)."""
from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.hallucigen.outputs import write_hallucigen_task
from tasks.hallucigen.paraphrase import build_paraphrase
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.review import review_stats
from tasks.hallucigen.source_blind import source_blind_task
from tasks.hallucigen.sources import load_models, source_lines
from tasks.params import ROOT, load_params

RAW = ROOT / "data" / "raw"


@task(name="build-paraphrase", cache_policy=NO_CACHE)
def build_task(params: dict):
    return build_paraphrase(RAW, params, load_models(["en"])["en"])


@flow(name="hallucigen-paraphrase")
def hallucigen_paraphrase() -> None:
    params = load_params("hallucigen_paraphrase")
    rows, stats, exhausted = build_task(params)
    published, stats["published_files"] = ingest_published(RAW / "hallucigen", "paraphrase", params["languages"])
    stats["sources"] = source_lines(["shroom", "sweparaphrase", "turku-paraphrase-sv", "hallucigen"])
    stats["source_blind"] = source_blind_task(rows, params)
    stats["review"] = review_stats(params["review_sheets"], "paraphrase")
    write_hallucigen_task("paraphrase", rows, published, stats, params, exhausted,
                          ROOT / "data" / "hallucigen" / "paraphrase", ROOT / "metrics" / "hallucigen_paraphrase.json")


if __name__ == "__main__":
    run_flow(hallucigen_paraphrase)
