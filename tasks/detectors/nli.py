"""NLI zero-shot detector (overview §3.1): entailment and not_entailment scores of source -> hypothesis,
and the overview's three-condition rule for which hypothesis is hallucinated."""
from __future__ import annotations

import numpy as np

from tasks.detectors.base import Decisions
from tasks.detectors.pair_classifier import PairClassifier
from tasks.errors import PipelineError


def entailment_columns(id2label: dict[int, str]) -> tuple[int, list[int]]:
    """The entailment class index and the indices that together are not_entailment (not_entailment, or
    neutral + contradiction for three-way models)."""
    names = {i: str(label).lower().replace("-", "_") for i, label in id2label.items()}
    entail = [i for i, label in names.items() if label == "entailment"]
    if len(entail) != 1:
        raise PipelineError(f"NLI model labels {sorted(id2label.values())} have no single 'entailment' class")
    return entail[0], sorted(i for i in names if i != entail[0])


def entailment_scores(probs: np.ndarray, id2label: dict[int, str]) -> tuple[np.ndarray, np.ndarray]:
    """(entailment, not_entailment) per row of class probabilities."""
    e, rest = entailment_columns(id2label)
    return probs[:, e], probs[:, rest].sum(axis=1)


def nli_decide(e1: float, n1: float, e2: float, n2: float) -> str | None:
    """The overview's rule: (1) one hypothesis leans entailment and the other not: the one with the higher
    not_entailment; (2) both lean entailment: the one with the lower entailment; (3) both lean
    not_entailment: the one with the higher not_entailment. None on an exact tie."""
    lean1, lean2 = e1 > n1, e2 > n2
    if lean1 and lean2:
        return None if e1 == e2 else ("hyp1" if e1 < e2 else "hyp2")
    if n1 == n2:
        return None
    return "hyp1" if n1 > n2 else "hyp2"


class NLIDetector:
    """Score: the not_entailment probability of source -> hypothesis; decision: the three-condition rule."""

    can_score = True

    def __init__(self, name: str, model: str, batch_size: int = 32, max_length: int = 256, int8: bool = False):
        self.name = name
        self.classifier = PairClassifier(model, batch_size, max_length, int8=int8)
        entailment_columns(self.classifier.id2label)  # fail early on a model without an entailment class

    def entailment(self, sources: list[str], hyps: list[str]) -> tuple[np.ndarray, np.ndarray]:
        probs = self.classifier.probabilities(sources, hyps, desc=self.name)
        return entailment_scores(probs, self.classifier.id2label)

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        return self.entailment(sources, hyps)[1].tolist()

    def decide(self, sources: list[str], hyp1s: list[str], hyp2s: list[str], scenario: str = "paraphrase") -> Decisions:
        e, n = self.entailment(sources + sources, hyp1s + hyp2s)
        k = len(sources)
        labels = [nli_decide(e[i], n[i], e[k + i], n[k + i]) for i in range(k)]
        return Decisions(labels, n[:k].tolist(), n[k:].tolist())
