"""Flow `score`: metrics of every detector on every evaluation set, paper-style markdown tables, PNG
plots, DVC metrics and plots, and a Prefect table artifact (DVC stage `score`)."""
from __future__ import annotations

import pyarrow.parquet as pq
from prefect import flow, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.detectors.registry import active_detectors
from tasks.io import atomic_dir, write_json
from tasks.params import ROOT
from tasks.params_schema import DetectorSpecs, Score, as_dict, flow_params
from tasks.scoring.baselines import f1_levels, set_gold
from tasks.scoring.report import artifact_rows, markdown, plot_confusions, plot_f1
from tasks.scoring.results import headline_metrics, score_all

DATA = ROOT / "data"


@task(name="compute-scores", cache_policy=NO_CACHE)
def scores_task(outputs: dict, params: dict, kinds: dict) -> dict:
    return score_all(outputs, params, kinds)


@task(name="write-reports", cache_policy=NO_CACHE)
def reports_task(res: dict, outputs: dict, params: dict, off: dict[str, str]) -> str:
    text = markdown(res, params, off)
    with atomic_dir(DATA / "reports") as tmp:
        (tmp / "README.md").write_text(text, encoding="utf-8")
        write_json(res, tmp / "results.json")
        for name, dets in {**res["detection"], **res["binary"]}.items():
            plot_f1(name, dets, tmp / f"f1.{name}.png", f1_levels(set_gold(outputs[name]), name in res["detection"]))
            plot_confusions(name, outputs[name], res["thresholds"], tmp / f"confusion.{name}.png")
    return text


@flow(name="score")
def score(params: Score, detect: DetectorSpecs) -> None:
    params, specs = as_dict(params), as_dict(detect)["detectors"]
    detectors = active_detectors(specs)
    off = {n: s["off_because"] for n, s in specs.items() if n not in detectors and s.get("off_because")}
    outputs = {p.stem: pq.read_table(p).to_pylist() for p in sorted((DATA / "detections").glob("*.parquet"))}
    res = scores_task(outputs, params, {n: s["kind"] for n, s in detectors.items()})
    text = reports_task(res, outputs, params, off)
    write_json(headline_metrics(res), ROOT / "metrics" / "score.json")
    plot_rows = [{"eval_set": r["eval_set"], "detector": r["detector"], "f1": r["f1"]} for r in artifact_rows(res)]
    write_json(plot_rows, ROOT / "metrics" / "score_f1.json")
    create_table_artifact(key="detector-scores", table=artifact_rows(res),
                          description="F1/MCC/kappa per set and detector")
    create_markdown_artifact(key="detector-report", markdown=text,
                             description="Detector scores (data/reports/README.md)")


if __name__ == "__main__":
    run_flow(lambda: score(**flow_params(score)), name="score")
