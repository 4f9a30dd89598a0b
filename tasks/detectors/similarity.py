"""Semantic-similarity detector: score = 1 - cosine(source, hypothesis) of sentence embeddings, so the
hypothesis less similar to the source is hallucinated. The multilingual encoders (e5, EmbeddingGemma) compare
across languages (translation sources with their targets); a transformers encoder (MiniLM) is mean-pooled."""
from __future__ import annotations

import numpy as np

from tasks.detectors.base import ScoringDetector
from tasks.models.sentence import sentence_encoder


class SimilarityDetector(ScoringDetector):
    def __init__(self, name: str, model: str, batch_size: int = 64, max_length: int = 256, int8: bool = False):
        self.name = name
        self.encoder = sentence_encoder(model, batch_size, max_length, int8)

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        unique = sorted(set(sources) | set(hyps))
        vectors = dict(zip(unique, self.encoder.embed(unique, desc=self.name)))
        return [round(1.0 - float(np.dot(vectors[s], vectors[h])), 6) for s, h in zip(sources, hyps)]
