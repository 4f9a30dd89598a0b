"""Flow `charp_generate`: predictions of one grid cell, a trained system (train h) on the evaluation
split with history h, or the few-shot system through the model client (DVC stages
`charp_generate@<system>-<train h>-<eval h>` and `charp_fewshot@<eval h>`), in shards of turns
(charp.generation.shard_rows) on the configured task runner: the thread pool here, or a Dask cluster
(tasks/runners.py). Predictions do not depend on the runner. Turns the few-shot client got no answer for
follow tasks/models/client.py: all of them fail the stage and keep the previous outputs, some of them give one
warning line.

    python -m flows.charp_generate <system> <train h> <eval h>
    python -m flows.charp_generate fewshot <eval h>
"""
from __future__ import annotations

import sys

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.charp.cells import (
    NO_TRAINING,
    Cell,
    checkpoint_path,
    generate_metrics_path,
    prediction_path,
    prediction_rows,
)
from tasks.charp.data import eval_turns, fewshot_demos
from tasks.charp.generate import fewshot_cell, generate_beam, longest_input_first
from tasks.io import write_json, write_parquet
from tasks.models.client import check_client_failures, client_label, lost_in_client, summed_failures
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import CharpGenerate, GpuLimit, as_dict, flow_params
from tasks.runners import on_configured_runner
from tasks.schemas import CHARP_PREDICTION

DATA = ROOT / "data"
STAGE = "charp_generate"


@task(name="generate-beam", cache_policy=NO_CACHE, tags=[GPU_TAG])
def beam_task(rows: list[dict], checkpoint: str, arch: str, generation: dict) -> tuple[list[str], dict]:
    return generate_beam(rows, checkpoint, arch, generation), {}


@task(name="generate-fewshot", cache_policy=NO_CACHE, tags=[GPU_TAG])
def fewshot_task(rows: list[dict], demos: list[dict], client_params: dict) -> tuple[list[str], dict]:
    return fewshot_cell(rows, demos, client_params)


def run_order(cell: Cell, rows: list[dict], params: dict) -> list[int]:
    """The order the turns are sharded in: a trained system's longest input first (the batches of one shard),
    the few-shot system's as they come."""
    if cell.system == "fewshot":
        return list(range(len(rows)))
    return longest_input_first(rows, checkpoint_path(DATA, cell), params["generation"]["max_length"])


def submit_shards(cell: Cell, rows: list[dict], params: dict) -> list:
    """A future per shard of ``rows`` (charp.generation.shard_rows turns; one shard when null). Everything a
    shard needs travels with it (paths absolute), so a Dask worker in another checkout runs it the same."""
    size = params["generation"]["shard_rows"] or max(1, len(rows))
    shards = [rows[k:k + size] for k in range(0, len(rows), size)]
    if cell.system == "fewshot":
        task_, args = fewshot_task, (fewshot_demos(DATA, params), params["client"])
    else:
        task_, args = beam_task, (checkpoint_path(DATA, cell), params["systems"][cell.system]["arch"],
                                  params["generation"])
    return [task_.with_options(task_run_name=f"generate-{cell}-{k}").submit(shard, *args)
            for k, shard in enumerate(shards)]


def merged(results: list[tuple[list[str], dict]]) -> tuple[list[str], dict]:
    """The shards' predictions in turn order; unusable answers and client failures summed."""
    predictions, stats = [], {}
    for preds, figures in results:
        predictions += preds
        if "unusable_answers" in figures:
            stats["unusable_answers"] = stats.get("unusable_answers", 0) + figures["unusable_answers"]
            stats["client_failures"] = summed_failures(stats.get("client_failures", {}), figures["client_failures"])
    return predictions, stats


def check_client(cell: Cell, stats: dict, turns: int, client_params: dict) -> None:
    """The client-failure rule (tasks/models/client.py) on a cell's merged figures, before anything is written;
    a trained system has no client and nothing to check."""
    if "client_failures" in stats:
        check_client_failures(STAGE, lost_in_client(stats["client_failures"]), turns, f"turns of {cell}",
                              client_label(client_params))


@flow(name="charp-generate")
def charp_generate(system: str, train_h: str, eval_h: str, params: CharpGenerate, gpu: GpuLimit) -> None:
    params = as_dict(params)
    ensure_gpu_limit(gpu.gpu_concurrency)
    cell = Cell(system, train_h, eval_h)
    rows = eval_turns(DATA, params, cell.eval_h)
    order = run_order(cell, rows, params)
    predictions, stats = merged([future.result() for future in submit_shards(cell, [rows[i] for i in order], params)])
    check_client(cell, stats, len(rows), params["client"])
    by_row = dict(zip(order, predictions))
    write_parquet(prediction_rows(cell, rows, [by_row[i] for i in range(len(rows))]), CHARP_PREDICTION,
                  prediction_path(DATA, cell))
    write_json({"predictions": len(rows), **stats}, generate_metrics_path(ROOT, cell))


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "fewshot":
        args = ["fewshot", NO_TRAINING, args[1]]
    if len(args) != 3:
        raise SystemExit(__doc__)
    run_flow(lambda: on_configured_runner(charp_generate)(**flow_params(charp_generate, *args)), name=STAGE)
