"""The calibrated ensemble of the binary sets: a logistic-regression stack over the member detectors'
scores, fitted on tuning data only (the threshold-tuning set plus a seeded part of SHROOM val, split by
item), then scored beside every member on what it never saw (the rest of SHROOM val, and other binary sets
whole). Its score is the stack's p(hallucinated); its threshold is tuned on the tuning rows like the
members'."""
from __future__ import annotations

import hashlib

import numpy as np

from tasks.scoring.metrics import tune_threshold

STACK = "stack"


def score_table(rows: list[dict], members: list[str]) -> dict[str, dict]:
    """{item id: {"gold", "p_hallucination", member: score}} of the items every member scored."""
    table: dict[str, dict] = {}
    for r in rows:
        if r["detector"] in members and r["score_1"] is not None and not np.isnan(r["score_1"]):
            item = table.setdefault(r["id"], {"gold": r["gold"], "langpair": r["langpair"],
                                              "p_hallucination": r.get("p_hallucination")})
            item[r["detector"]] = float(r["score_1"])
    return {i: t for i, t in sorted(table.items()) if all(m in t for m in members)}


def in_tuning_part(item: str, fraction: float, seed: int) -> bool:
    """A seeded split by item id: True for about ``fraction`` of the items."""
    digest = hashlib.sha256(f"{seed}:{item}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64 < fraction


def fit_stack(items: list[dict], members: list[str], c: float) -> dict:
    """Standardised member scores -> logistic regression (L2, ``c``): the means, scales and coefficients."""
    from sklearn.linear_model import LogisticRegression

    x = np.array([[it[m] for m in members] for it in items])
    y = np.array([it["gold"] == "hallucinated" for it in items])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=1000).fit((x - mean) / scale, y)
    return {"members": members, "mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(),
            "coef": model.coef_[0].round(6).tolist(), "intercept": round(float(model.intercept_[0]), 6)}


def stack_scores(stack: dict, items: list[dict]) -> np.ndarray:
    """The stack's p(hallucinated) of each item."""
    x = np.array([[it[m] for m in stack["members"]] for it in items], dtype=float)
    z = ((x - np.array(stack["mean"])) / np.array(stack["scale"])) @ np.array(stack["coef"]) + stack["intercept"]
    return np.round(1.0 / (1.0 + np.exp(-z)), 6)


def as_rows(items: dict[str, dict], detector: str, scores) -> list[dict]:
    """Score rows (the detector output's fields the binary metrics read) of one detector."""
    return [{"id": i, "detector": detector, "gold": it["gold"], "langpair": it["langpair"],
             "p_hallucination": it["p_hallucination"], "score_1": float(s)}
            for (i, it), s in zip(items.items(), scores)]


def ensemble(outputs: dict[str, list[dict]], params: dict, tuned: dict[str, float], binary_sets: list[str],
             metric) -> dict:
    """The stack fitted on the tuning rows, and ``metric(rows, threshold)`` of every member and the stack on the
    held-out items of each binary set; {"skipped": why} without members or without both classes to fit on."""
    cfg, members = params["ensemble"], [m for m in params["ensemble"]["members"] if m in tuned]
    val, seed = cfg["split_set"], cfg["seed"]
    tables = {name: score_table(outputs.get(name, []), members) for name in binary_sets}
    tuning = list(score_table(outputs.get(params["threshold_tuning_set"], []), members).values())
    tuning += [it for i, it in tables.get(val, {}).items() if in_tuning_part(i, cfg["tuning_fraction"], seed)]
    if not members or len({it["gold"] for it in tuning}) < 2:
        return {"skipped": f"{len(members)} members with a tuned threshold, {len(tuning)} tuning items "
                           f"({len({it['gold'] for it in tuning})} classes)"}
    stack = fit_stack(tuning, members, cfg["c"])
    threshold = tune_threshold(stack_scores(stack, tuning).tolist(), [it["gold"] == "hallucinated" for it in tuning])
    held_out = {}
    for name, table in tables.items():
        kept = {i: it for i, it in table.items()
                if name != val or not in_tuning_part(i, cfg["tuning_fraction"], seed)}
        if not kept:
            continue
        held_out[name] = {m: metric(as_rows(kept, m, [it[m] for it in kept.values()]), tuned[m]) for m in members}
        held_out[name][STACK] = metric(as_rows(kept, STACK, stack_scores(stack, list(kept.values()))), threshold)
    return {**stack, "threshold": threshold, "tuning_items": len(tuning), "held_out": held_out}
