"""Flow `charp_probe`: the history probe (DVC stage `charp_probe`, CHARP §4-5). The few-shot system and every
trained system of the grid answer both forms of each charp.probe example (eCHARP/hCHARP, or the offline analogue);
the metrics, the judge and each hard - easy difference go to data/charp/probe/ and metrics/charp_probe.json.

    python -m flows.charp_probe
"""
from __future__ import annotations

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows.charp_generate import check_client, merged, run_order, submit_shards
from flows.main import run_flow
from tasks.charp.cells import NO_TRAINING, Cell, prediction_rows
from tasks.charp.probe import HISTORY, probe_forms, score_probe
from tasks.charp.probe_report import plot_forms, probe_json, probe_metrics, probe_text
from tasks.io import atomic_dir, write_json, write_parquet
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import Charp, GpuLimit, as_dict, flow_params
from tasks.schemas import CHARP_PREDICTION

DATA = ROOT / "data"
OUT = DATA / "charp" / "probe"


@task(name="score-probe", cache_policy=NO_CACHE, tags=[GPU_TAG])
def score_task(forms: dict, predictions: dict, params: dict) -> dict:
    return score_probe(forms, predictions, params, ROOT)


def probe_systems(params: dict) -> list[Cell]:
    """The few-shot system, then every trained system of the grid at each training history."""
    grid = params["grid"]
    return [Cell("fewshot", NO_TRAINING, HISTORY)] + [Cell(s, str(h), HISTORY) for s in grid["systems"]
                                                      for h in grid["train_h"]]


def answer_forms(forms: dict[str, list[dict]], params: dict) -> dict[Cell, dict[str, list[str]]]:
    """Each system's predictions per form, one system after the other (its shards side by side): two model
    families imported at once in threads can fail in transformers' lazy import."""
    rows = [t for turns in forms.values() for t in turns]
    out = {}
    for cell in probe_systems(params):
        order = run_order(cell, rows, params)
        predictions, stats = merged([f.result() for f in submit_shards(cell, [rows[i] for i in order], params)])
        check_client(cell, stats, len(rows), params["client"])
        by_row = dict(zip(order, predictions))
        start, out[cell] = 0, {}
        for split, turns in forms.items():
            out[cell][split] = [by_row[i] for i in range(start, start + len(turns))]
            start += len(turns)
    return out


@flow(name="charp-probe")
def charp_probe(params: Charp, gpu: GpuLimit) -> None:
    params = as_dict(params)
    ensure_gpu_limit(gpu.gpu_concurrency)
    forms, counts = probe_forms(DATA, params)
    predictions = answer_forms(forms, params)
    probe = score_task(forms, predictions, params)
    with atomic_dir(OUT) as tmp:
        write_parquet([row for cell, by_form in predictions.items() for split, preds in by_form.items()
                       for row in prediction_rows(cell, forms[split], preds)], CHARP_PREDICTION,
                      tmp / "predictions.parquet")
        plot_forms(probe["forms"], tmp / "probe.png", params["seed"])
        text = probe_text(params, probe, counts)
        (tmp / "README.md").write_text(text, encoding="utf-8")
        write_json(probe_json(probe, counts), tmp / "results.json")
    write_json(probe_metrics(probe, counts), ROOT / "metrics" / "charp_probe.json")
    create_markdown_artifact(key="charp-probe", markdown=text, description="CHARP history probe")


if __name__ == "__main__":
    run_flow(lambda: charp_probe(**flow_params(charp_probe)), name="charp_probe")
