"""The Prefect global concurrency limit on the `gpu` tag: at most N model tasks (tag `gpu`) at once.

Usage: python -m tasks.models.gpu_limit [N]   (make setup runs it with params detect.gpu_concurrency)
"""
from __future__ import annotations

import sys

GPU_TAG = "gpu"


def ensure_gpu_limit(limit: int) -> None:
    """Create or update the limit Prefect applies to task runs tagged `gpu` (a v2 limit named tag:gpu)."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        client.upsert_global_concurrency_limit_by_name(f"tag:{GPU_TAG}", limit)


if __name__ == "__main__":
    from tasks.params import load_params

    n = int(sys.argv[1]) if len(sys.argv) > 1 else load_params("detect")["gpu_concurrency"]
    ensure_gpu_limit(n)
    print(f"Prefect concurrency limit tag:{GPU_TAG} = {n}")
