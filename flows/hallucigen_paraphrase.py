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
from tasks.hallucigen.sources import load_models, model_ids, source_lines
from tasks.params import ROOT
from tasks.params_schema import HallucigenParaphrase, as_dict, flow_params

RAW = ROOT / "data" / "raw"


@task(name="build-paraphrase", cache_policy=NO_CACHE)
def build_task(params: dict):
    models = load_models(["en"])
    rows, stats, exhausted = build_paraphrase(RAW, params, models["en"])
    return rows, {**stats, "spacy_models": model_ids(models)}, exhausted


@flow(name="hallucigen-paraphrase")
def hallucigen_paraphrase(params: HallucigenParaphrase) -> None:
    params = as_dict(params)
    rows, stats, exhausted = build_task(params)
    published, stats["published_files"] = ingest_published(RAW / "hallucigen", "paraphrase", params["languages"])
    stats["sources"] = source_lines(["shroom", "sweparaphrase", "turku-paraphrase-sv", "hallucigen"])
    stats["source_blind"] = source_blind_task(rows, params)
    stats["review"] = review_stats(params["review_sheets"], "paraphrase")
    write_hallucigen_task("paraphrase", rows, published, stats, params, exhausted,
                          ROOT / "data" / "hallucigen" / "paraphrase", ROOT / "metrics" / "hallucigen_paraphrase.json")


if __name__ == "__main__":
    run_flow(lambda: hallucigen_paraphrase(**flow_params(hallucigen_paraphrase)), name="hallucigen_paraphrase")
