"""The history effect, CHARP's finding: each metric of a cell with its 95% bootstrap interval, and per system
and training history the difference eval h=0 - h=full over the same turns (paired bootstrap, 95% interval).
The metrics are resampled per turn: BLEU from each turn's n-gram statistics (the corpus BLEU of a resample),
BERTScore F1 and the critic's flag as means; the judge's verdict where it judged the turn."""
from __future__ import annotations

import warnings

import numpy as np

from tasks.charp.cells import CONTROL, GOLD, Cell
from tasks.scoring.intervals import interval, paired_test, resample_indices

PER_TURN = ("bertscore_gold", "bertscore_knowledge", "critic")
# Judge categories whose content is absent from, or contradicts, the knowledge (Appendix C.3: 2 adds extra
# information, 6 mixes on- and off-topic knowledge into wrong content, 7 includes extra or contradicting
# information); 1, 3, 4 and 5 hold only knowledge content, so they are not hallucinations.
HALLUCINATION_CATEGORIES = frozenset({2, 6, 7})
LOW, HIGH = "0", "full"


def bleu_statistics(predictions: list[str], references: list[str]) -> np.ndarray:
    """sacreBLEU's sufficient statistics of each turn (lengths, n-gram matches and totals), one row per turn."""
    from sacrebleu.metrics import BLEU

    return np.array(BLEU()._extract_corpus_statistics(predictions, [references]), dtype=np.int64)


def bleu_from_statistics(rows: np.ndarray) -> np.ndarray:
    """Corpus BLEU of each row of summed statistics."""
    from sacrebleu.metrics import BLEU

    metric = BLEU()
    return np.array([metric._compute_score_from_stats(r.tolist()).score for r in np.atleast_2d(rows)])


def judge_flags(judged: list[list[int] | None], turns: int) -> list[float]:
    """Per turn of a cell: 1 where the judge put the prediction in a hallucination category, 0 where not, NaN
    where its answer was unparsable or the turn was not judged (the judge asks the first of each cell)."""
    flags = [np.nan if j is None else float(bool(HALLUCINATION_CATEGORIES & set(j))) for j in judged]
    return flags + [np.nan] * (turns - len(flags))


def resampled(turns: dict, idx: np.ndarray) -> dict[str, np.ndarray]:
    """Each metric of ``turns`` ({metric: per-turn values, "bleu": statistics}) on every row of ``idx``."""
    out = {}
    if turns.get("bleu") is not None:
        out["bleu"] = bleu_from_statistics(turns["bleu"][idx].sum(1))
    for metric in (*PER_TURN, "judge"):
        if turns.get(metric) is not None:
            with warnings.catch_warnings():  # a resample of unjudged turns only is NaN
                warnings.simplefilter("ignore", RuntimeWarning)
                out[metric] = np.nanmean(np.asarray(turns[metric], dtype=float)[idx], axis=1)
    return out


def cell_intervals(per_turn: dict[Cell, dict], seed: int) -> dict[Cell, dict[str, list[float] | None]]:
    """{cell: {"<metric>_ci": [low, high]}}: the 95% percentile interval of each metric over resampled turns."""
    out = {}
    for cell, turns in per_turn.items():
        idx = resample_indices(len(turns["ids"]), seed)
        out[cell] = {f"{m}_ci": interval(v) for m, v in resampled(turns, idx).items() if m != "judge"}
    return out


def _aligned(turns: dict, ids: list[str]) -> dict:
    """``turns`` reordered to ``ids``."""
    pos = {i: k for k, i in enumerate(turns["ids"])}
    order = [pos[i] for i in ids]
    return {m: (None if v is None else np.asarray(v, dtype=None if m == "bleu" else float)[order])
            for m, v in turns.items() if m != "ids"}


def history_deltas(per_turn: dict[Cell, dict], seed: int) -> list[dict]:
    """Per system and training history with both eval h=0 and h=full cells: each metric at both, and the
    paired bootstrap difference h=0 - h=full over their common turns (the same resamples for both)."""
    rows = []
    series = sorted({(c.system, c.train_h) for c in per_turn if c.system not in (GOLD, CONTROL)})
    for system, train_h in series:
        low, high = per_turn.get(Cell(system, train_h, LOW)), per_turn.get(Cell(system, train_h, HIGH))
        if low is None or high is None:
            continue
        ids = [i for i in high["ids"] if i in set(low["ids"])]
        if not ids:
            continue
        low, high = _aligned(low, ids), _aligned(high, ids)
        judged = _judged_at_both(low, high)
        idx = np.vstack([np.arange(len(ids)), resample_indices(len(ids), seed)])
        at_low, at_high = resampled(low, idx), resampled(high, idx)
        for metric in at_low.keys() & at_high.keys():
            test = paired_test(at_low[metric], at_high[metric])
            rows.append({"system": system, "train_h": train_h, "metric": metric,
                         "turns": judged if metric == "judge" else len(ids), HIGH: _round(at_high[metric][0]),
                         LOW: _round(at_low[metric][0]), **test})
    order = ["bleu", *PER_TURN, "judge"]
    return sorted(rows, key=lambda r: (r["system"], r["train_h"], order.index(r["metric"])))


def _judged_at_both(low: dict, high: dict) -> int:
    """Keep the judge's verdicts only on turns it judged at both histories (it asks the first turns of each
    cell); how many those are."""
    if low.get("judge") is None or high.get("judge") is None:
        return 0
    both = ~np.isnan(low["judge"]) & ~np.isnan(high["judge"])
    for turns in (low, high):
        turns["judge"] = np.where(both, turns["judge"], np.nan)
    return int(both.sum())


def _round(value: float) -> float | None:
    return None if np.isnan(value) else round(float(value), 4)


def judge_critic_kappa(per_turn: dict[Cell, dict]) -> dict:
    """Cohen's kappa between the judge's verdict (a hallucination category or not) and the critic's flag over
    every judged prediction of the systems; None when both are constant and equal (kappa is 0/0)."""
    pairs = [(j, c) for cell, t in per_turn.items() if t.get("judge") is not None
             for j, c in zip(t["judge"], t["critic"]) if not np.isnan(j)]
    if not pairs:
        return {"n": 0, "kappa": None, "judge_flags": 0, "critic_flags": 0}
    judge, critic = (np.array(v, dtype=float) for v in zip(*pairs))
    observed = float((judge == critic).mean())
    expected = float(judge.mean() * critic.mean() + (1 - judge.mean()) * (1 - critic.mean()))
    kappa = None if expected == 1 else round((observed - expected) / (1 - expected), 4)
    return {"n": len(pairs), "kappa": kappa, "judge_flags": int(judge.sum()), "critic_flags": int(critic.sum())}
