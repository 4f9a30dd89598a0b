"""The trained cross-encoder detector: a pair classifier fine-tuned on (source, hypothesis) pairs with
label 1 = hallucinated (training: tasks/detectors/train.py). Score: P(hallucinated)."""
from __future__ import annotations

from tasks.detectors.base import ScoringDetector
from tasks.detectors.pair_classifier import PairClassifier

HALLUCINATED = 1


class CrossEncoderDetector(ScoringDetector):
    def __init__(self, name: str, model: str, batch_size: int = 32, max_length: int = 256, int8: bool = False):
        self.name = name
        self.classifier = PairClassifier(model, batch_size, max_length, int8=int8)

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        return self.classifier.probabilities(sources, hyps, desc=self.name)[:, HALLUCINATED].tolist()
