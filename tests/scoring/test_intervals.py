"""tasks/scoring/intervals.py: AUROC, Spearman, intervals and paired tests against hand-computed values."""
from __future__ import annotations

import math

import pytest

from tasks.scoring.metrics import binary_metrics, pair_metrics


def test_auroc_and_spearman_match_hand_computation():
    from sklearn.metrics import roc_auc_score

    from tasks.scoring.intervals import auroc, spearman

    gold, scores = [True, False, True, False], [0.9, 0.8, 0.4, 0.1]
    assert auroc(gold, scores)[0] == pytest.approx(0.75)  # pos > neg in 3 of the 4 pairs
    assert auroc([True, False, False], [0.5, 0.5, 0.1])[0] == pytest.approx(0.75)  # a tie counts one half
    assert auroc(gold, scores)[0] == pytest.approx(roc_auc_score(gold, scores))
    assert math.isnan(auroc([True, True], [0.1, 0.2])[0])
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4])[0] == pytest.approx(0.8)  # 1 - 6 * 2 / (4 * 15)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1])[0] == pytest.approx(-1.0)


def test_confusion_metrics_for_all_resamples_match_hand_computation_and_sklearn():
    from tasks.scoring.intervals import confusion_metrics

    gold = [True, True, False, False, False]
    pred = [True, False, True, False, False]  # tp 1, fn 1, fp 1, tn 2
    m = {k: float(v[0]) for k, v in confusion_metrics(gold, pred, macro=False).items()}
    assert m == pytest.approx({"accuracy": 0.6, "precision": 0.5, "recall": 0.5, "f1": 0.5, "mcc": 1 / 6,
                               "kappa": 1 / 6})
    macro = {k: float(v[0]) for k, v in confusion_metrics(gold, pred, macro=True).items()}
    assert macro["f1"] == pytest.approx((0.5 + 2 / 3) / 2) and macro["precision"] == pytest.approx((0.5 + 2 / 3) / 2)
    g = ["hyp1" if x else "hyp2" for x in gold]
    p = ["hyp1" if x else "hyp2" for x in pred]
    assert macro["f1"] == pytest.approx(pair_metrics(g, p)["f1"], abs=1e-4)
    assert m["kappa"] == pytest.approx(binary_metrics(gold, pred)["kappa"], abs=1e-4)
    assert float(confusion_metrics([True, False], [True, False], macro=False)["mcc"][0]) == 1.0  # identical
    assert float(confusion_metrics([True, True], [True, False], macro=False)["mcc"][0]) == 0.0  # constant gold


def test_interval_and_paired_test_match_hand_computation():
    import numpy as np

    from tasks.scoring.intervals import interval, paired_test

    assert interval(np.arange(1, 101, dtype=float)) == [3.475, 97.525]  # numpy's linear percentiles
    assert interval(np.array([np.nan, np.nan])) is None
    a = np.array([0.8, 0.7, 0.9, 0.6, 0.8])  # index 0: the full sample, then four resamples
    b = np.array([0.6, 0.6, 0.6, 0.7, 0.6])
    # differences 0.2 | 0.1, 0.3, -0.1, 0.2: one resample of four has the other sign, p = 2 * 1/4
    assert paired_test(a, b) == {"diff": 0.2, "ci": [-0.085, 0.2925], "p": 0.5}
    assert paired_test(b, a)["p"] == 0.5 and paired_test(b, a)["diff"] == -0.2
