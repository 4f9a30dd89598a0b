"""tasks/scoring/metrics.py: metrics against hand-computed values and threshold tuning."""
from __future__ import annotations

import pytest

from tasks.scoring.metrics import binary_metrics, pair_metrics, pairwise_agreement, tune_threshold


def test_pair_metrics_count_no_answer_as_wrong():
    m = pair_metrics(["hyp1", "hyp1", "hyp2", "hyp2", "hyp2"], ["hyp1", None, "hyp2", "hyp1", "hyp2"])
    # None -> hyp2 (wrong). hyp1: TP 1, FP 1, FN 1; hyp2: TP 2, FP 1, FN 1
    assert m["accuracy"] == 0.6 and m["no_answer"] == 1 and m["n"] == 5
    assert m["precision"] == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-4)
    assert m["recall"] == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-4)
    assert m["f1"] == pytest.approx((0.5 + 2 / 3) / 2, abs=1e-4)
    assert m["kappa"] == pytest.approx((0.6 - 0.52) / 0.48, abs=1e-4)  # po .6; pe .4*.4 + .6*.6


def test_binary_metrics_positive_class_is_hallucinated():
    m = binary_metrics([True, True, False, False], [True, False, True, False])
    assert (m["precision"], m["recall"], m["f1"], m["kappa"], m["mcc"]) == (0.5, 0.5, 0.5, 0.0, 0.0)
    m = binary_metrics([True, True, True, False], [True, True, False, False])
    assert (m["precision"], m["recall"]) == (1.0, pytest.approx(0.6667, abs=1e-4))


def test_pairwise_kappa_matches_hand_computation():
    a = dict(zip("abcde", ["hyp1", "hyp1", "hyp2", "hyp2", "hyp1"]))
    b = dict(zip("abcde", ["hyp1", "hyp2", "hyp2", "hyp2", "hyp1"]))
    out = pairwise_agreement({"x": a, "y": b})
    assert out["x"]["y"]["kappa"] == pytest.approx((0.8 - 0.48) / 0.52, abs=1e-4)  # po .8, pe .6*.4 + .4*.6
    assert out["x"]["y"]["n"] == 5 and out["y"]["x"] == out["x"]["y"]


def test_threshold_tuned_for_accuracy_lowest_first():
    assert tune_threshold([0.1, 0.4, 0.35, 0.8], [False, False, True, True]) == pytest.approx(0.225)
