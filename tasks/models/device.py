"""Accelerator choice: cuda when present, else cpu."""
from __future__ import annotations


def best_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"
