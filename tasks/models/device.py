"""Accelerator choice: cuda when present, else cpu; and whether the CPU computes bfloat16 natively."""
from __future__ import annotations

import warnings


def best_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def warn_if_slow_dtype(device: str, dtype: str) -> None:
    """One warning when bfloat16 runs on a CPU without native bf16 (AVX2 only): there it is emulated, about 5x
    slower than float32."""
    import torch

    if dtype == "bfloat16" and device == "cpu" and not torch.ops.mkldnn._is_mkldnn_bf16_supported():
        warnings.warn(f"dtype bfloat16 on a CPU without native bf16 ({torch.backends.cpu.get_cpu_capability()}) "
                      "is emulated and about 5x slower than float32; set dtype: float32", stacklevel=3)
