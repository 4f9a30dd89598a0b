"""tasks/charp/metrics.py: BERTScore shares the process's one copy of its model (with the rubric judge and
similarity), cuts its own copy for fewer layers, and scores exactly as bert_score.score does."""
from __future__ import annotations

import pytest

PREDS = ["The hotel is cheap and near the station.", "It has a pool.", ""]
GOLD = ["The hotel is cheap.", "The hotel has an outdoor pool.", "It opens at nine."]


@pytest.mark.parametrize("layers", [6, 3])
def test_bertscore_loads_its_model_once_and_scores_as_bert_score(layers):
    import bert_score

    from tasks.charp import metrics
    from tasks.models.device import best_device
    from tasks.models.loaded import LOADS, forget_all
    from tasks.models.registry import model_path
    from tasks.models.sentence import SentenceEncoder

    forget_all()
    before = LOADS.copy()
    SentenceEncoder("minilm").embed(["warm up the shared copy"])
    first = [metrics.bertscore_items(PREDS, GOLD, "minilm", layers) for _ in range(3)]
    loads = {k: v for k, v in (LOADS - before).items() if k[0] != "bertscore_tokenizer"}
    cut = {("cut_model", model_path("minilm")): 1} if layers < 6 else {}
    assert loads == {("load_encoder", "minilm"): 1, **cut} and first[0] == first[1] == first[2]
    _, _, f1 = bert_score.score(PREDS[:2], GOLD[:2], model_type=model_path("minilm"), num_layers=layers,
                                device=best_device(), verbose=False)
    assert first[0] == [*f1.tolist(), 0.0]
    forget_all()
