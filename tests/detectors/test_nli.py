"""tasks/detectors/nli.py: the overview's NLI rule and label mapping, on a tiny model the test builds (random
weights, the real MiniLM tokenizer, controlled logits)."""
from __future__ import annotations

import math

import pytest

from tasks.detectors.nli import NLIDetector, entailment_columns, nli_decide
from tasks.errors import PipelineError


@pytest.mark.parametrize("scores, expected", [
    ((0.7, 0.3, 0.2, 0.8), "hyp2"),  # (1) hyp1 leans entailment, hyp2 not: the higher not_entailment
    ((0.1, 0.9, 0.6, 0.4), "hyp1"),  # (1) the other way round
    ((0.9, 0.1, 0.6, 0.4), "hyp2"),  # (2) both lean entailment: the lower entailment
    ((0.55, 0.05, 0.8, 0.1), "hyp1"),  # (2) with three-way scores (not summing to one)
    ((0.3, 0.7, 0.1, 0.9), "hyp2"),  # (3) both lean not_entailment: the higher not_entailment
    ((0.2, 0.5, 0.3, 0.4), "hyp1"),  # (3) where the lower entailment would say hyp1 too
    ((0.45, 0.35, 0.4, 0.6), "hyp2"),  # (1) with three-way scores
    ((0.8, 0.2, 0.8, 0.2), None),  # a tie: no answer
])
def test_nli_three_condition_rule(scores, expected):
    assert nli_decide(*scores) == expected


def test_nli_rule_differs_from_comparing_entailment_alone():
    # both lean not_entailment: hyp1 has the lower entailment but hyp2 the higher not_entailment (3-way)
    assert nli_decide(0.10, 0.50, 0.20, 0.70) == "hyp2"


def test_label_mapping_of_two_and_three_way_models():
    assert entailment_columns({0: "entailment", 1: "not_entailment"}) == (0, [1])
    assert entailment_columns({0: "not_entailment", 1: "entailment"}) == (1, [0])
    assert entailment_columns({0: "contradiction", 1: "Entailment", 2: "neutral"}) == (1, [0, 2])
    with pytest.raises(PipelineError, match="no single 'entailment'"):
        entailment_columns({0: "LABEL_0", 1: "LABEL_1"})


def _tiny_nli(path, id2label: dict[int, str], logits: list[float]):
    """A 2-layer BERT classifier with random weights and the real MiniLM tokenizer whose logits are
    ``logits`` for every input (classifier weights zero, bias set)."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    from tasks.models.registry import model_path

    tokenizer = AutoTokenizer.from_pretrained(model_path("minilm"))
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, num_labels=len(id2label), id2label=id2label,
                        label2id={v: k for k, v in id2label.items()})
    torch.manual_seed(0)
    model = BertForSequenceClassification(config)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.copy_(torch.tensor(logits))
    model.save_pretrained(path, safe_serialization=True)
    tokenizer.save_pretrained(path)
    return str(path)


@pytest.mark.parametrize("id2label, logits, not_entailment", [
    ({0: "entailment", 1: "not_entailment"}, [2.0, 0.0], 1 / (1 + math.e ** 2)),
    ({0: "not_entailment", 1: "entailment"}, [2.0, 0.0], 1 / (1 + math.e ** -2)),
    ({0: "entailment", 1: "neutral", 2: "contradiction"}, [0.0, 0.0, math.log(2)], 3 / 4),
])
def test_nli_detector_loads_a_model_and_maps_its_labels(tmp_path, id2label, logits, not_entailment):
    path = _tiny_nli(tmp_path / "nli", id2label, logits)
    detector = NLIDetector("nli", path, batch_size=2)
    scores = detector.scores(["A cat sat on the mat.", "It rained."], ["A cat sat.", "The sun was out all day long."])
    assert scores == pytest.approx([not_entailment] * 2, abs=1e-5)
    decisions = detector.decide(["A cat sat."], ["A cat sat."], ["A dog sat."])
    assert list(decisions) == [None]  # equal logits for both: a tie, no answer
    assert decisions.scores1 == pytest.approx([not_entailment], abs=1e-5)


def test_nli_detector_refuses_a_model_without_entailment_class(tmp_path):
    path = _tiny_nli(tmp_path / "bad", {0: "positive", 1: "negative"}, [0.0, 0.0])
    with pytest.raises(PipelineError, match="entailment"):
        NLIDetector("nli", path)
