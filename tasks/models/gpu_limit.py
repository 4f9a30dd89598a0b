"""The Prefect global concurrency limit on the `gpu` tag: at most N model tasks (tag `gpu`) at once.

Every model flow sets it at its start; by hand: python -m tasks.models.gpu_limit [N] (default: params
detect.gpu_concurrency)
"""
from __future__ import annotations

import sys

from tasks.errors import PipelineError
from tasks.params import load_params

GPU_TAG = "gpu"


def ensure_gpu_limit(limit: int) -> int:
    """Create or update the limit Prefect applies to task runs tagged `gpu` (a global concurrency limit named
    tag:gpu) with ``limit`` slots (params detect.gpu_concurrency); every model flow calls this at its start.
    Returns the limit set."""
    from prefect.client.orchestration import get_client

    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise PipelineError(f"params detect.gpu_concurrency: {limit!r} is not a positive integer")
    with get_client(sync_client=True) as client:
        client.upsert_global_concurrency_limit_by_name(f"tag:{GPU_TAG}", limit)
    return limit


if __name__ == "__main__":
    n = ensure_gpu_limit(int(sys.argv[1]) if len(sys.argv) > 1 else load_params("detect")["gpu_concurrency"])
    print(f"Prefect concurrency limit tag:{GPU_TAG} = {n}")
