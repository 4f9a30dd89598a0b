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
from tasks.charp.data import eval_turns, load_turns
from tasks.charp.generate import generate_beam, generate_fewshot
from tasks.io import write_json, write_parquet
from tasks.models.client import make_client
from tasks.models.gpu_limit import GPU_TAG
from tasks.params import ROOT
from tasks.params_schema import CharpGenerate, as_dict, flow_params
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
def charp_generate(system: str, train_h: str, eval_h: str, params: CharpGenerate) -> None:
    params = as_dict(params)
    rows = eval_turns(DATA, params, eval_h)
    predictions, stats = generate_task(rows, system, train_h, params)
    cell = f"train-h-{train_h}.eval-h-{eval_h}"
    out = [{"id": r["id"], "system": system, "train_h": train_h, "eval_h": eval_h, "prediction": p}
           for r, p in zip(rows, predictions)]
    write_parquet(out, CHARP_PREDICTION, DATA / "charp" / "predictions" / system / f"{cell}.parquet")
    write_json({"predictions": len(out), **stats}, ROOT / "metrics" / "charp" / f"generate.{system}.{cell}.json")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "fewshot":
        args = ["fewshot", "none", args[1]]
    if len(args) != 3:
        raise SystemExit(__doc__)
    run_flow(lambda: charp_generate(**flow_params(charp_generate, *args)), name="charp_generate")
