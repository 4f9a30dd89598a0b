"""Shared params of the scoring tests: the bootstrap and the calibrated ensemble."""
from __future__ import annotations

BOOT = {"resamples": 200, "seed": 13}
ENSEMBLE = {"enabled": True, "members": ["a", "b", "c"], "split_set": "val", "tuning_fraction": 0.5, "c": 1.0,
            "seed": 13}
