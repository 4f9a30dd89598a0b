"""Flow `charp_generate`: predictions of one grid cell, a trained system (train h) on the evaluation
split with history h, or the few-shot system through the model client (DVC stages
`charp_generate@<system>-<train h>-<eval h>` and `charp_fewshot@<eval h>`).

    python -m flows.charp_generate <system> <train h> <eval h>
    python -m flows.charp_generate fewshot <eval h>
"""
from __future__ import annotations

import sys

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.charp.cells import NO_TRAINING, Cell, prediction_path
from tasks.charp.data import eval_turns, load_turns
from tasks.charp.generate import generate_beam, generate_fewshot
from tasks.io import write_json, write_parquet
from tasks.models.client import make_client
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import CharpGenerate, GpuLimit, as_dict, flow_params
from tasks.schemas import CHARP_PREDICTION

DATA = ROOT / "data"


@task(name="generate", cache_policy=NO_CACHE, tags=[GPU_TAG])
def generate_task(rows: list[dict], system: str, train_h: str, params: dict) -> tuple[list[str], dict]:
    if system == "fewshot":
        demos = load_turns(DATA, params["dataset"], params["splits"]["train"], "full", params["fewshot"]["examples"],
                           params["seed"])
        client = make_client(params["client"])
        predictions, unusable = generate_fewshot(rows, demos, client)
        return predictions, {"unusable_answers": unusable, "client_failures": dict(sorted(client.failures.items()))}
    checkpoint = DATA / "charp" / "models" / system / f"h-{train_h}"
    return generate_beam(rows, str(checkpoint), params["systems"][system]["arch"], params["generation"]), {}


@flow(name="charp-generate")
def charp_generate(system: str, train_h: str, eval_h: str, params: CharpGenerate, gpu: GpuLimit) -> None:
    params = as_dict(params)
    ensure_gpu_limit(gpu.gpu_concurrency)
    cell = Cell(system, train_h, eval_h)
    rows = eval_turns(DATA, params, cell.eval_h)
    predictions, stats = generate_task(rows, cell.system, cell.train_h, params)
    out = [{"id": r["id"], "system": cell.system, "train_h": cell.train_h, "eval_h": cell.eval_h, "prediction": p}
           for r, p in zip(rows, predictions)]
    write_parquet(out, CHARP_PREDICTION, prediction_path(DATA, cell))
    write_json({"predictions": len(out), **stats}, ROOT / "metrics" / "charp" / f"generate.{cell}.json")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "fewshot":
        args = ["fewshot", NO_TRAINING, args[1]]
    if len(args) != 3:
        raise SystemExit(__doc__)
    run_flow(lambda: charp_generate(**flow_params(charp_generate, *args)), name="charp_generate")
