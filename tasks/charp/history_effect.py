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
JUDGED = ("judge", "judge_correct")  # per-turn judge figures: known only where the judge answered
ORDER = ("bleu", *PER_TURN, *JUDGED)


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


def judge_correct(judged: list[list[int] | None], turns: int) -> list[float]:
    """Per turn: 1 where the judge called the prediction correct (category 1: it answers the last turn from the
    relevant knowledge), 0 where it gave another category, NaN where not judged; e.g. [[1], [5], None] -> 1, 0, NaN."""
    flags = [np.nan if j is None else float(1 in j) for j in judged]
    return flags + [np.nan] * (turns - len(flags))


def resampled(turns: dict, idx: np.ndarray) -> dict[str, np.ndarray]:
    """Each metric of ``turns`` ({metric: per-turn values, "bleu": statistics}) on every row of ``idx``."""
    out = {}
    if turns.get("bleu") is not None:
        out["bleu"] = bleu_from_statistics(turns["bleu"][idx].sum(1))
    for metric in (*PER_TURN, *JUDGED):
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
        out[cell] = {f"{m}_ci": interval(v) for m, v in resampled(turns, idx).items() if m not in JUDGED}
    return out


def _aligned(turns: dict, ids: list[str]) -> dict:
    """``turns`` reordered to ``ids``."""
    pos = {i: k for k, i in enumerate(turns["ids"])}
    order = [pos[i] for i in ids]
    return {m: (None if v is None else np.asarray(v, dtype=None if m == "bleu" else float)[order])
            for m, v in turns.items() if m != "ids"}


def paired_rows(first: dict, second: dict, seed: int) -> list[dict]:
    """Each metric two per-turn series share, over their common turn ids (in ``first``'s order): its value on
    each ("first", "second") and the paired bootstrap difference second - first (the same resamples for both);
    judge figures only over turns judged in both. Empty when no turn is common."""
    ids = [i for i in first["ids"] if i in set(second["ids"])]
    if not ids:
        return []
    first, second = _aligned(first, ids), _aligned(second, ids)
    judged = _judged_at_both(first, second)
    idx = np.vstack([np.arange(len(ids)), resample_indices(len(ids), seed)])
    at_first, at_second = resampled(first, idx), resampled(second, idx)
    return [{"metric": m, "turns": judged if m in JUDGED else len(ids), "first": _round(at_first[m][0]),
             "second": _round(at_second[m][0]), **paired_test(at_second[m], at_first[m])}
            for m in ORDER if m in at_first and m in at_second]


def history_deltas(per_turn: dict[Cell, dict], seed: int) -> list[dict]:
    """Per system and training history with both eval h=0 and h=full cells: each metric at both, and the
    paired bootstrap difference h=0 - h=full over their common turns (the same resamples for both)."""
    rows = []
    series = sorted({(c.system, c.train_h) for c in per_turn if c.system not in (GOLD, CONTROL)})
    for system, train_h in series:
        low, high = per_turn.get(Cell(system, train_h, LOW)), per_turn.get(Cell(system, train_h, HIGH))
        if low is None or high is None:
            continue
        for r in paired_rows(high, low, seed):
            rows.append({"system": system, "train_h": train_h, "metric": r["metric"], "turns": r["turns"],
                         HIGH: r["first"], LOW: r["second"], "diff": r["diff"], "ci": r["ci"], "p": r["p"]})
    return rows


def _judged_at_both(low: dict, high: dict) -> int:
    """Keep the judge's figures only on turns it judged in both series (it asks the first turns of each
    cell); how many those are."""
    present = [m for m in JUDGED if low.get(m) is not None and high.get(m) is not None]
    if not present:
        return 0
    both = ~np.isnan(low[present[0]]) & ~np.isnan(high[present[0]])
    for turns in (low, high):
        for m in present:
            turns[m] = np.where(both, turns[m], np.nan)
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
