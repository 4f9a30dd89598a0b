"""Metrics with scikit-learn. Pair sets (which of hyp1/hyp2 is hallucinated): accuracy, and precision,
recall and F1 macro-averaged over the two classes hyp1 and hyp2; a missing or unusable answer is
classified as the wrong hypothesis (as in the overview). Binary sets: the positive class is "hallucinated"
(binary average). (classes absent from both gold and predictions, as in a small per-direction subset, are left
out of the average). MCC and Cohen's kappa against the gold labels, and pairwise between detectors."""
from __future__ import annotations

import math

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    matthews_corrcoef,
    precision_recall_fscore_support,
)

PAIR_LABELS = ["hyp1", "hyp2"]
NO_ANSWER = "none"


def _r(x: float) -> float:
    return round(float(x), 4) if not math.isnan(x) else 0.0


def _agreement(a: list, b: list) -> tuple[float, float]:
    """(kappa, mcc); 0 when one side is constant (both undefined there)."""
    if len(set(a)) < 2 or len(set(b)) < 2:
        return (1.0, 1.0) if a == b else (0.0, 0.0)
    return _r(cohen_kappa_score(a, b)), _r(matthews_corrcoef(a, b))


def classification(gold: list[str], pred: list[str], labels: list[str], average: str, pos_label=None) -> dict:
    """accuracy, precision, recall, f1, mcc, kappa and n for string labels."""
    if not gold:
        return {"n": 0}
    kwargs = {"pos_label": pos_label} if average == "binary" else {"labels": labels}
    p, r, f, _ = precision_recall_fscore_support(gold, pred, average=average, zero_division=0, **kwargs)
    kappa, mcc = _agreement(gold, pred)
    return {"n": len(gold), "accuracy": _r(accuracy_score(gold, pred)), "precision": _r(p), "recall": _r(r),
            "f1": _r(f), "mcc": mcc, "kappa": kappa}


def pair_metrics(gold: list[str], pred: list[str | None]) -> dict:
    """Metrics of hyp1/hyp2 decisions; no answer (None) is classified as the wrong hypothesis (the
    overview: "classified as incorrect"), and is counted."""
    wrong = {"hyp1": "hyp2", "hyp2": "hyp1"}
    scored = [p if p in PAIR_LABELS else wrong[g] for g, p in zip(gold, pred)]
    present = [label for label in PAIR_LABELS if label in gold or label in scored]  # a class absent from both: no 0
    return {**classification(gold, scored, present, "macro"), "no_answer": sum(p not in PAIR_LABELS for p in pred)}


def binary_metrics(gold: list[bool], pred: list[bool]) -> dict:
    g = ["hallucinated" if x else "faithful" for x in gold]
    p = ["hallucinated" if x else "faithful" for x in pred]
    return classification(g, p, ["faithful", "hallucinated"], "binary", pos_label="hallucinated")


def tune_threshold(scores: list[float], gold: list[bool]) -> float:
    """The threshold (score >= t: hallucinated) with the best accuracy on a tuning set; the lowest such t."""
    values = sorted(set(scores))
    candidates = [values[0] - 1.0] + [(a + b) / 2 for a, b in zip(values, values[1:])] + [values[-1] + 1.0]
    s, g = np.asarray(scores), np.asarray(gold, dtype=bool)
    accuracy = [float(((s >= t) == g).mean()) for t in candidates]
    return round(candidates[int(np.argmax(accuracy))], 6)


def pairwise_agreement(decisions: dict[str, dict[str, str | None]]) -> dict[str, dict[str, dict]]:
    """Cohen's kappa and MCC between every two detectors, on the examples both ran on."""
    names = sorted(decisions)
    out: dict[str, dict[str, dict]] = {n: {} for n in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            common = sorted(set(decisions[a]) & set(decisions[b]))
            if not common:
                continue
            da = [decisions[a][k] or NO_ANSWER for k in common]
            db = [decisions[b][k] or NO_ANSWER for k in common]
            kappa, mcc = _agreement(da, db)
            out[a][b] = out[b][a] = {"n": len(common), "kappa": kappa, "mcc": mcc}
    return out


def confusion(gold: list[str], pred: list[str], labels: list[str]) -> list[list[int]]:
    return confusion_matrix(gold, pred, labels=labels).tolist()
