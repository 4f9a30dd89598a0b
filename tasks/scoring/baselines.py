"""Reference levels of an evaluation set's F1, marked on the detector plots: chance (a uniform random guess,
each class's F1 from its expected precision and recall) and majority (always answering the most frequent gold
label, scored by the project's own metrics)."""
from __future__ import annotations

from collections import Counter

from tasks.scoring.metrics import binary_metrics, pair_metrics


def set_gold(outputs: list[dict]) -> list[str]:
    """One gold label per example of a set (the detector outputs repeat it per detector)."""
    return [g for _, g in sorted({(o["id"], o["gold"]) for o in outputs})]


def f1_levels(gold: list[str], pair: bool) -> dict[str, float]:
    """{"chance": ..., "majority": ...} of pair macro F1 (classes hyp1/hyp2) or binary F1 (hallucinated)."""
    if not gold:
        return {}
    counts = Counter(gold)
    majority = sorted(counts, key=lambda g: (-counts[g], g))[0]
    shares = {g: n / len(gold) for g, n in counts.items()}
    if pair:
        chance = sum(s / (s + 0.5) for s in shares.values()) / len(shares)
        return {"chance": round(chance, 4), "majority": pair_metrics(gold, [majority] * len(gold))["f1"]}
    p = shares.get("hallucinated", 0.0)
    truth = [g == "hallucinated" for g in gold]
    return {"chance": round(p / (p + 0.5), 4),
            "majority": binary_metrics(truth, [majority == "hallucinated"] * len(gold))["f1"]}
