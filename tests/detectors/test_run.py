"""tasks/detectors/run.py: votes join their members on (evaluation set, id)."""
from __future__ import annotations

from tasks.detectors.run import run_vote
from tasks.scoring.eval_sets import EvalSet


def _output(eval_set: str, detector: str, prediction: str) -> dict:
    return {"eval_set": eval_set, "id": "x", "detector": detector, "prediction": prediction}


def test_votes_join_members_on_eval_set_and_id():
    row = {"id": "x", "langpair": "en-fr", "type": "number", "source": "s", "hyp1": "a", "hyp2": "b", "label": "hyp1"}
    sets = [EvalSet(name, "pair", "translation", rows=[row]) for name in ("set-a", "set-b")]
    outputs = [_output("set-a", m, p) for m, p in (("m1", "hyp1"), ("m2", "hyp1"), ("m3", "hyp2"))]
    outputs += [_output("set-b", m, p) for m, p in (("m1", "hyp2"), ("m2", "hyp2"), ("m3", "hyp1"))]
    votes = {s.name: run_vote("vote", ["m1", "m2", "m3"], s, outputs) for s in sets}
    assert [(v["eval_set"], v["id"], v["prediction"]) for s in ("set-a", "set-b") for v in votes[s]] == [
        ("set-a", "x", "hyp1"), ("set-b", "x", "hyp2")]
