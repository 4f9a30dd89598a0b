"""The detector interface: score source/hypothesis pairs, and decide which of hyp1/hyp2 is hallucinated."""
from __future__ import annotations

from typing import Protocol


class Detector(Protocol):
    """``scores``: a hallucination score per pair (higher: more likely hallucinated); only where
    ``can_score`` (an LLM prompt detector can only compare two hypotheses). ``decide``: "hyp1", "hyp2" or
    None (no usable answer) per example; ``scenario`` (paraphrase | translation) picks prompt wording."""

    name: str
    can_score: bool

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]: ...

    def decide(self, sources: list[str], hyp1s: list[str], hyp2s: list[str],
               scenario: str = "paraphrase") -> "Decisions": ...


class Decisions(list):
    """Per-example decisions with the scores of both hypotheses (None where the detector has none) and
    the raw answers (None where there are none)."""

    def __init__(self, labels, scores1=None, scores2=None, answers=None):
        super().__init__(labels)
        n = len(self)
        self.scores1 = list(scores1) if scores1 is not None else [None] * n
        self.scores2 = list(scores2) if scores2 is not None else [None] * n
        self.answers = list(answers) if answers is not None else [None] * n


def higher_is_hallucinated(s1: float, s2: float) -> str | None:
    """The hypothesis with the higher hallucination score; None on a tie (no evidence either way)."""
    if s1 == s2:
        return None
    return "hyp1" if s1 > s2 else "hyp2"


class ScoringDetector:
    """A detector that scores each hypothesis on its own and calls the higher-scoring one hallucinated."""

    name = "scoring"
    can_score = True

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        raise NotImplementedError

    def decide(self, sources: list[str], hyp1s: list[str], hyp2s: list[str], scenario: str = "paraphrase") -> Decisions:
        both = self.scores(sources + sources, hyp1s + hyp2s)
        s1, s2 = both[: len(sources)], both[len(sources):]
        return Decisions([higher_is_hallucinated(a, b) for a, b in zip(s1, s2)], s1, s2)
