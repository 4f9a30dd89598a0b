"""tasks/charp/metrics.py: BERTScore loads its model once per process and scores as bert_score.score does."""
from __future__ import annotations


def test_bertscore_loads_its_model_once_and_scores_as_bert_score(monkeypatch):
    import bert_score
    import bert_score.scorer

    from tasks.charp import metrics
    from tasks.models.device import best_device
    from tasks.models.registry import model_path

    loads, real = [], bert_score.scorer.get_model

    def counted(*args, **kwargs):
        loads.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(bert_score.scorer, "get_model", counted)
    metrics.bertscorer.cache_clear()
    preds = ["The hotel is cheap and near the station.", "It has a pool.", ""]
    gold = ["The hotel is cheap.", "The hotel has an outdoor pool.", "It opens at nine."]
    first = [metrics.bertscore_items(preds, gold, "minilm", 6) for _ in range(3)]
    assert len(loads) == 1 and first[0] == first[1] == first[2]
    _, _, f1 = bert_score.score(preds[:2], gold[:2], model_type=model_path("minilm"), num_layers=6,
                                device=best_device(), verbose=False)
    assert first[0] == [*f1.tolist(), 0.0]
    metrics.bertscorer.cache_clear()
