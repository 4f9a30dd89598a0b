"""The Prefect concurrency limit on the `gpu` tag, on a real (temporary) Prefect server: with limit 1, two
gpu-tagged tasks submitted at once run one after the other; untagged tasks still overlap."""
from __future__ import annotations

import time

from prefect import flow, task

from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit


@task(tags=[GPU_TAG])
def gpu_work(k: int) -> tuple[float, float]:
    start = time.monotonic()
    time.sleep(1.0)
    return start, time.monotonic()


@task
def cpu_work(k: int) -> tuple[float, float]:
    start = time.monotonic()
    time.sleep(1.0)
    return start, time.monotonic()


@flow
def two_at_once(work) -> list[tuple[float, float]]:
    futures = [work.submit(k) for k in range(2)]
    return [f.result() for f in futures]


def _overlap(spans) -> bool:
    (a0, a1), (b0, b1) = sorted(spans)
    return b0 < a1


def test_gpu_tagged_tasks_run_one_at_a_time():
    from prefect.client.orchestration import get_client

    ensure_gpu_limit(1)
    with get_client(sync_client=True) as client:
        assert client.read_global_concurrency_limit_by_name(f"tag:{GPU_TAG}").limit == 1
    assert not _overlap(two_at_once(gpu_work))
    assert _overlap(two_at_once(cpu_work))
