"""tasks/charp/train.py: a tiny train + generate + score run with SmolLM2."""
from __future__ import annotations

import pytest

from tests.charp.helpers import TURN


def test_tiny_train_generate_and_score(tmp_path):
    """A few SmolLM2 training steps on four turns, beam-search generation, then every automatic metric."""
    from tasks.charp.generate import generate_beam
    from tasks.charp.metrics import bertscore_f1, bleu, critic_rate
    from tasks.charp.train import train_generator

    turns = [{**TURN, "id": f"t{k}", "response": r} for k, r in enumerate(
        ["Yes, the Alpha hotel is cheap.", "It has free parking.", "The Alpha is cheap.", "Parking is free there."])]
    params = {"seed": 13, "epochs": 1, "batch_size": 2, "max_length": 64, "learning_rate": 5e-5, "patience": 1}
    stats = train_generator(turns[:3], turns[3:], {"model": "smollm2", "arch": "causal"}, params, tmp_path)
    assert stats["train_turns"] == 3 and len(stats["epochs"]) == 1
    assert stats["epochs"][0]["valid_loss"] < stats["untrained_valid_loss"]  # it learned from three turns
    assert (tmp_path / "model.safetensors").is_file()
    preds = generate_beam(turns[:2], str(tmp_path), "causal",
                          {"batch_size": 2, "max_length": 128, "beam_size": 2, "max_new_tokens": 8})
    assert len(preds) == 2 and all(isinstance(p, str) for p in preds)
    gold = [t["response"] for t in turns[:2]]
    assert bleu(gold, gold) == 100.0 and bleu(["x y z"], ["a b c"]) < 5
    assert bertscore_f1(gold, gold, "minilm", 6) == pytest.approx(1.0, abs=1e-4)
    assert bertscore_f1(["Bananas."], ["The hotel is cheap."], "minilm", 6) < 0.9
    assert bertscore_f1(["", gold[1]], gold, "minilm", 6) == pytest.approx(0.5, abs=1e-4)  # empty scores 0
    rate = critic_rate([t["knowledge"] for t in turns[:2]], preds, {"model": "minilm", "hallucinated_label": 1})
    assert 0.0 <= rate <= 1.0
