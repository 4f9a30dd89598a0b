"""Ranking metrics and bootstrap statistics. AUROC (positive class: hallucinated) and SHROOM's Spearman rho
between a detector's score and the annotators' p(Hallucination); 95% percentile bootstrap intervals of every
reported metric, computed for all resamples at once from 2x2 confusion counts and ranks; and a paired
bootstrap test between two detectors on the same examples (the same resamples for both)."""
from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

RESAMPLES = 1000
LEVEL = 0.95


def resample_indices(n: int, seed: int, resamples: int = RESAMPLES) -> np.ndarray:
    """(resamples, n) row indices drawn with replacement from a seeded generator."""
    return np.random.default_rng(seed).integers(0, n, size=(resamples, n))


def _safe_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b, out=np.zeros_like(a, dtype=float), where=b != 0)


def confusion_metrics(gold: np.ndarray, pred: np.ndarray, macro: bool) -> dict[str, np.ndarray]:
    """accuracy, precision, recall, f1, mcc, kappa per row of boolean (resamples, n) arrays (True: the
    positive class). macro: precision/recall/F1 averaged over both classes, a class absent from gold and
    predictions left out (as ``classification`` does); else for the positive class. A constant side gives
    MCC and kappa 0 (1 when gold equals the predictions)."""
    gold, pred = np.atleast_2d(gold).astype(bool), np.atleast_2d(pred).astype(bool)
    n = gold.shape[1]
    tp = (gold & pred).sum(1).astype(float)
    fp = (~gold & pred).sum(1).astype(float)
    fn = (gold & ~pred).sum(1).astype(float)
    tn = n - tp - fp - fn

    def prf(tp_, fp_, fn_):
        p, r = _safe_div(tp_, tp_ + fp_), _safe_div(tp_, tp_ + fn_)
        return p, r, _safe_div(2 * p * r, p + r)

    p1, r1, f1 = prf(tp, fp, fn)
    if macro:
        p0, r0, f0 = prf(tn, fn, fp)
        present1, present0 = (tp + fp + fn) > 0, (tn + fn + fp) > 0
        k = present1.astype(float) + present0
        p = _safe_div(p1 * present1 + p0 * present0, k)
        r = _safe_div(r1 * present1 + r0 * present0, k)
        f = _safe_div(f1 * present1 + f0 * present0, k)
    else:
        p, r, f = p1, r1, f1
    accuracy = (tp + tn) / n
    mcc = _safe_div(tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
    expected = ((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp)) / n**2
    kappa = _safe_div(accuracy - expected, 1 - expected)
    identical = (fp + fn) == 0
    constant = ((tp + fn) == 0) | ((tp + fn) == n) | ((tp + fp) == 0) | ((tp + fp) == n)
    mcc = np.where(constant, identical.astype(float), mcc)
    kappa = np.where(constant, identical.astype(float), kappa)
    return {"accuracy": accuracy, "precision": p, "recall": r, "f1": f, "mcc": mcc, "kappa": kappa}


def auroc(gold: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """AUROC per row (Mann-Whitney U with average ranks for ties); NaN where a row has one class only."""
    gold, scores = np.atleast_2d(gold).astype(bool), np.atleast_2d(scores).astype(float)
    ranks = rankdata(scores, axis=1)
    pos = gold.sum(1).astype(float)
    neg = gold.shape[1] - pos
    u = (ranks * gold).sum(1) - pos * (pos + 1) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((pos > 0) & (neg > 0), u / (pos * neg), np.nan)


def spearman(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's rho per row (Pearson of average ranks); NaN where a side is constant."""
    ra, rb = rankdata(np.atleast_2d(a), axis=1), rankdata(np.atleast_2d(b), axis=1)
    ra, rb = ra - ra.mean(1, keepdims=True), rb - rb.mean(1, keepdims=True)
    denom = np.sqrt((ra**2).sum(1) * (rb**2).sum(1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, (ra * rb).sum(1) / denom, np.nan)


def interval(values: np.ndarray) -> list[float] | None:
    """The 95% percentile interval of bootstrap values (NaN resamples left out), rounded to 4 places."""
    values = values[~np.isnan(values)]
    if not len(values):
        return None
    tail = (1 - LEVEL) / 2 * 100
    lo, hi = np.percentile(values, [tail, 100 - tail])
    return [round(float(lo), 4), round(float(hi), 4)]


def paired_test(a: np.ndarray, b: np.ndarray) -> dict:
    """Paired bootstrap test of metric(a) - metric(b) over the same resamples (index 0: the full sample):
    the observed difference, its 95% interval, and the two-sided p-value (twice the share of resamples
    whose difference has the other sign or is zero, at most 1)."""
    diff = a - b
    observed, boot = float(diff[0]), diff[1:][~np.isnan(diff[1:])]
    if not len(boot) or np.isnan(observed):
        return {"diff": None, "ci": None, "p": None}
    other = (boot <= 0).mean() if observed > 0 else (boot >= 0).mean() if observed < 0 else 1.0
    return {"diff": round(observed, 4), "ci": interval(boot), "p": round(float(min(1.0, 2 * other)), 4)}
