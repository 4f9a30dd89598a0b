"""tasks/detectors/vote.py: the majority vote."""
from __future__ import annotations

from tasks.detectors.vote import majority, vote


def test_majority_vote():
    assert majority(["hyp1", "hyp1", "hyp2"]) == "hyp1"
    assert majority(["hyp1", "hyp2"]) is None  # a tie: no answer
    assert majority([None, "hyp2", None]) == "hyp2"
    assert majority([None, None]) is None
    assert vote([["hyp1", "hyp2"], ["hyp1", None], ["hyp2", "hyp2"]]) == ["hyp1", "hyp2"]
