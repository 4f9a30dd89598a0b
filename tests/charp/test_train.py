"""tasks/charp/train.py: a tiny train + generate + score run with SmolLM2, and training only its last blocks."""
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


def test_only_the_last_blocks_train_and_the_rest_stays_as_loaded(tmp_path):
    """trainable_layers 2 of SmolLM2's 30: the frozen blocks and the embeddings are bit-identical after training,
    the last two blocks changed, and the validation loss still fell."""
    import torch
    from safetensors.torch import load_file

    from tasks.charp.train import load_for_training, train_generator

    turns = [{**TURN, "id": f"t{k}", "response": r} for k, r in enumerate(
        ["Yes, the Alpha hotel is cheap.", "It has free parking.", "The Alpha is cheap.", "Parking is free there."])]
    params = {"seed": 13, "epochs": 1, "batch_size": 2, "max_length": 64, "learning_rate": 1e-4, "patience": 1,
              "trainable_layers": 2}
    stats = train_generator(turns[:3], turns[3:], {"model": "smollm2", "arch": "causal"}, params, tmp_path)
    _, base = load_for_training({"model": "smollm2", "arch": "causal"}, "cpu")
    before, after = base.state_dict(), load_file(tmp_path / "model.safetensors")
    changed = {k for k in after if not torch.equal(after[k], before[k])}
    assert changed and all(k.startswith(("model.layers.28.", "model.layers.29.", "model.norm.")) for k in changed)
    assert any(k.startswith("model.layers.28.") for k in changed) and "model.embed_tokens.weight" not in changed
    per_block = sum(p.numel() for p in base.model.layers[29].parameters())
    assert stats["trainable_parameters"] == 2 * per_block + base.model.norm.weight.numel()
    assert stats["epochs"][0]["valid_loss"] < stats["untrained_valid_loss"]
