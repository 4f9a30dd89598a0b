"""tasks/scoring/report.py: F1 bars carry the bootstrap interval; the card says why a detector is off."""
from __future__ import annotations

import pytest

from tasks.params import load_params
from tasks.scoring.report import f1_bars, off_section


def test_f1_bars_carry_the_bootstrap_interval():
    dets = {"x": {"en": {"f1": 0.6, "ci": {"f1": [0.4, 0.7]}}}, "y": {"en": {"f1": 0.5, "ci": {"f1": None}}}, "z": {}}
    vals, (below, above) = f1_bars(dets, "en")
    assert vals == [0.6, 0.5, 0.0]
    assert below == pytest.approx([0.2, 0.0, 0.0]) and above == pytest.approx([0.1, 0.0, 0.0])


def test_the_card_says_why_each_detector_is_off():
    assert off_section({"cross-encoder": "its base reads English only"}) == (
        "## Detectors off in this profile\n\n- `cross-encoder`: its base reads English only\n")
    assert off_section({}) == ""
    specs = load_params("detect")["detectors"]
    assert specs["cross-encoder"]["enabled"] is False and "English only" in specs["cross-encoder"]["off_because"]
