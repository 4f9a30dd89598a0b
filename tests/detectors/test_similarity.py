"""tasks/detectors/similarity.py: the MiniLM, e5 and EmbeddingGemma similarity detectors, and batched
inference that does not depend on the batch size."""
from __future__ import annotations

import pytest


def test_similarity_detector_with_embeddinggemma_across_languages_in_int8():
    """The registry's EmbeddingGemma: a French translation is closer to its English source than a French
    sentence that changes the date and adds a place, and int8 on CPU ranks as float32 does. The int8 scores
    depend on the CPU's kernels: within 0.05 of float32 on an AVX2 machine; on an AVX-512/AMX machine torch's x86
    engine moves the faithful translation's score from 0.037 to 0.095 (0.058), the ranking unchanged."""
    from tasks.detectors.similarity import SimilarityDetector

    source = "The museum opened in 1998 and has three floors of modern art."
    hyps = ["Le musée a ouvert en 1998 et compte trois étages d'art moderne.",
            "Le musée a ouvert en 1968 à Lyon et compte trois étages d'art moderne.",
            "Les bananes sont riches en potassium."]
    fp32 = SimilarityDetector("g", "embeddinggemma", batch_size=2).scores([source] * 3, hyps)
    int8 = SimilarityDetector("g8", "embeddinggemma", batch_size=2, int8=True).scores([source] * 3, hyps)
    assert fp32[0] < fp32[1] < fp32[2] and int8[0] < int8[1] < int8[2]
    assert int8 == pytest.approx(fp32, abs=0.07) and int8 != fp32


def test_similarity_detector_with_the_packaged_minilm():
    from tasks.detectors.similarity import SimilarityDetector

    detector = SimilarityDetector("similarity", "minilm", batch_size=2)
    source = "The museum opened in 1998 and has three floors of modern art."
    scores = detector.scores([source] * 3, [source, "The museum opened in 1998 and shows modern art on three floors.",
                                            "Bananas are rich in potassium."])
    assert scores[0] == pytest.approx(0.0, abs=1e-5) and scores[0] < scores[1] < scores[2]
    decisions = detector.decide([source], ["Bananas are rich in potassium."], [source])
    assert list(decisions) == ["hyp1"]


def test_similarity_with_e5_ranks_across_languages():
    """multilingual-e5-small from the registry: a French source is closer to its English translation than to
    the same sentence with another year, and closer to that than to an unrelated sentence."""
    from tasks.detectors.similarity import SimilarityDetector

    detector = SimilarityDetector("similarity-e5", "e5", batch_size=2)
    source = "Le musée a ouvert ses portes en 1998 et compte trois étages d'art moderne."
    hyps = ["The museum opened in 1998 and has three floors of modern art.",
            "The museum opened in 1998 and has three floors of medieval weapons.",
            "Bananas are rich in potassium."]
    scores = detector.scores([source] * 3, hyps)
    assert scores[0] < scores[1] < scores[2]
    assert detector.scores([hyps[0]], [hyps[0]]) == pytest.approx([0.0], abs=1e-5)
    assert list(detector.decide([source], [hyps[2]], [hyps[0]], "translation")) == ["hyp1"]


def test_batched_similarity_does_not_depend_on_batch_size():
    from tasks.detectors.similarity import SimilarityDetector

    texts = ["A short one.", "A much longer sentence about the history of the town and its river.", "Mid length text."]
    small = SimilarityDetector("s", "minilm", batch_size=1).scores(texts, texts[::-1])
    large = SimilarityDetector("s", "minilm", batch_size=64).scores(texts, texts[::-1])
    assert small == pytest.approx(large, abs=1e-5)
