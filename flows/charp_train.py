"""Flow `charp_train`: fine-tune one generator of charp.systems on the training split with history
truncated to h turns (DVC stage `charp_train@<system>-<h>`).

    python -m flows.charp_train <system> <h>
"""
from __future__ import annotations

import sys

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.charp.cells import train_metrics_path
from tasks.charp.train import train_cell
from tasks.io import write_json
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import CharpTrain, GpuLimit, as_dict, flow_params

DATA = ROOT / "data"


@task(name="train-generator", cache_policy=NO_CACHE, tags=[GPU_TAG])
def train_task(system: str, h: str, params: dict) -> dict:
    return train_cell(DATA, system, h, params)


@flow(name="charp-train")
def charp_train(system: str, h: str, params: CharpTrain, gpu: GpuLimit) -> None:
    ensure_gpu_limit(gpu.gpu_concurrency)
    write_json(train_task(system, h, as_dict(params)), train_metrics_path(ROOT, system, h))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    run_flow(lambda: charp_train(**flow_params(charp_train, *sys.argv[1:])), name="charp_train")
