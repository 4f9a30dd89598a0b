"""Majority vote over other detectors' decisions: the label most members chose; no answer on a tie or
when no member answered."""
from __future__ import annotations

from collections import Counter


def majority(votes: list[str | None]) -> str | None:
    counts = Counter(v for v in votes if v is not None).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def vote(member_decisions: list[list[str | None]]) -> list[str | None]:
    """Per example, the majority over the members' decisions (lists of equal length)."""
    return [majority(list(votes)) for votes in zip(*member_decisions)]
