"""Running detectors over evaluation sets: one output row per (detector, example), in the DETECTOR_OUTPUT
schema; votes combine their members' rows."""
from __future__ import annotations

import random
import time
from collections import defaultdict

from tasks.detectors.vote import vote
from tasks.scoring.eval_sets import EvalSet

NO_SCORE = "gives no per-hypothesis score"


def applicable_rows(eval_set: EvalSet, spec: dict, seed: int) -> list[dict]:
    """The set's rows this detector runs on: its langpairs only, at most max_per_langpair of each (seeded)."""
    rows = [r for r in eval_set.rows if not spec.get("langpairs") or r["langpair"] in spec["langpairs"]]
    cap = spec.get("max_per_langpair")
    if cap is None:
        return rows
    by_pair = defaultdict(list)
    for r in rows:
        by_pair[r["langpair"]].append(r)
    keep = set()
    for pair, members in by_pair.items():
        ids = sorted(r["id"] for r in members)
        keep |= set(random.Random(f"{seed}:{eval_set.name}:{pair}").sample(ids, min(cap, len(ids))))
    return [r for r in rows if r["id"] in keep]


def _gold(eval_set: EvalSet, row: dict) -> str:
    return row["label"] if eval_set.kind == "pair" else ("hallucinated" if row["label"] else "faithful")


def _row(eval_set: EvalSet, detector: str, r: dict, prediction=None, s1=None, s2=None, answer=None) -> dict:
    return {"eval_set": eval_set.name, "id": r["id"], "langpair": r["langpair"], "type": r["type"],
            "detector": detector, "gold": _gold(eval_set, r), "prediction": prediction, "score_1": s1, "score_2": s2,
            "answer": answer, "p_hallucination": r.get("p_hallucination")}


def idle_figures(pair_only: bool, eval_set: EvalSet, rows: list[dict]) -> dict | None:
    """The run figures of a detector that has nothing to run on ``rows`` of a set (no rows, or a binary set for
    a ``pair_only`` detector, which only compares two hypotheses), known before its model loads; None when it
    has work."""
    if not rows:
        return {"examples": 0}
    if eval_set.kind != "pair" and pair_only:
        return {"skipped": NO_SCORE}
    return None


def run_detector(detector, eval_set: EvalSet, rows: list[dict]) -> tuple[list[dict], dict]:
    """Output rows of one detector on ``rows`` of a set, and its run figures (time, no answers). Shards with
    nothing to run never get here (`idle_figures`)."""
    start = time.perf_counter()
    sources = [r["source"] for r in rows]
    if eval_set.kind == "pair":
        d = detector.decide(sources, [r["hyp1"] for r in rows], [r["hyp2"] for r in rows], scenario=eval_set.scenario)
        out = [_row(eval_set, detector.name, r, d[i], d.scores1[i], d.scores2[i], d.answers[i])
               for i, r in enumerate(rows)]
        hyps = 2 * len(rows)
    elif detector.can_score:
        scores = detector.scores(sources, [r["hyp"] for r in rows])
        out = [_row(eval_set, detector.name, r, None, s) for r, s in zip(rows, scores)]
        hyps = len(rows)
    else:
        raise ValueError(f"detector {detector.name} {NO_SCORE}: registry.pair_only must say so")
    seconds = time.perf_counter() - start
    no_answer = sum(o["prediction"] is None for o in out) if eval_set.kind == "pair" else 0
    return out, {"examples": len(out), "no_answer": no_answer, "seconds": round(seconds, 2),
                 "pairs_per_s": round(hyps / seconds, 1) if seconds > 0 else None}


def run_vote(name: str, members: list[str], eval_set: EvalSet, outputs: list[dict]) -> list[dict]:
    """The majority of the members' decisions on the examples of this set every member decided on (pair sets
    only); members' rows join on (evaluation set, id), so sets sharing an id never mix."""
    if eval_set.kind != "pair":
        return []
    by_member = {m: {o["id"]: o["prediction"] for o in outputs if o["detector"] == m and o["eval_set"] == eval_set.name}
                 for m in members}
    common = set.intersection(*(set(v) for v in by_member.values()))
    rows = [r for r in eval_set.rows if r["id"] in common]
    decisions = vote([[by_member[m][r["id"]] for r in rows] for m in members])
    return [_row(eval_set, name, r, d) for r, d in zip(rows, decisions)]
