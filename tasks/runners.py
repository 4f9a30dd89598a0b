"""The task runner of the stages that fan out (detect, CHARP generation): Prefect's thread pool in this
process by default, or a Dask cluster (prefect-dask) when params `cluster.dask_scheduler` or
$HALLUCI_DASK_SCHEDULER names a scheduler address. No stage has `cluster` as a DVC param: the outputs are the
same bytes on either runner."""
from __future__ import annotations

import os

from tasks.errors import PipelineError
from tasks.params_schema import Cluster, load_stage_params

ENV = "HALLUCI_DASK_SCHEDULER"


def dask_scheduler() -> str | None:
    """The scheduler address: the environment variable wins over params.yaml; None: run locally."""
    return os.environ.get(ENV) or load_stage_params(Cluster).dask_scheduler or None


def task_runner(address: str | None, local_workers: int | None = None):
    """ThreadPoolTaskRunner (``local_workers`` threads; None: Prefect's default) without an address; else a
    DaskTaskRunner on that scheduler. Dask workers run the
    tasks' Prefect engine, so flow and workers must share one Prefect server (PREFECT_API_URL): the `gpu`
    concurrency limit is held there."""
    from prefect.task_runners import ThreadPoolTaskRunner

    if address is None:
        return ThreadPoolTaskRunner(max_workers=local_workers)
    if not os.environ.get("PREFECT_API_URL"):
        raise PipelineError(f"Dask scheduler {address} ({ENV} / params cluster.dask_scheduler) needs a Prefect "
                            "server shared with the workers: set PREFECT_API_URL here and on every worker")
    from prefect_dask import DaskTaskRunner

    return DaskTaskRunner(address=address)


def on_configured_runner(flow_, local_workers: int | None = None):
    """``flow_`` on the configured runner: a Dask cluster when one is named, else the thread pool
    (``local_workers`` threads)."""
    return flow_.with_options(task_runner=task_runner(dask_scheduler(), local_workers))
