"""tasks/scoring/report.py: F1 bars carry the bootstrap interval."""
from __future__ import annotations

import pytest

from tasks.scoring.report import f1_bars


def test_f1_bars_carry_the_bootstrap_interval():
    dets = {"x": {"en": {"f1": 0.6, "ci": {"f1": [0.4, 0.7]}}}, "y": {"en": {"f1": 0.5, "ci": {"f1": None}}}, "z": {}}
    vals, (below, above) = f1_bars(dets, "en")
    assert vals == [0.6, 0.5, 0.0]
    assert below == pytest.approx([0.2, 0.0, 0.0]) and above == pytest.approx([0.1, 0.0, 0.0])
