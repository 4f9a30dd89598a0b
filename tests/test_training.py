"""The shared training loop and its truncation rule: exact token expectations (plain ids, then the real
SmolLM2 tokenizer on a CHARP turn, in training and generation), early stopping with patience and the best
epoch's weights restored, on a real torch model."""
from __future__ import annotations

import pytest
import torch

from tasks.charp.formatting import input_ids, model_input
from tasks.charp.train import encode
from tasks.models.training import TrainingConfig, fit, truncate

TURN = {"knowledge": "The Alpha hotel is cheap.", "response": "Yes, it is cheap.",
        "history": [{"speaker": "seeker", "text": "Hello there."}, {"speaker": "wizard", "text": "Hi, how can I help?"},
                    {"speaker": "seeker", "text": "Is the Alpha cheap?"}]}


@pytest.mark.parametrize("head, body, tail, n, kept", [
    ([1, 2], [3, 4, 5, 6], [9], 10, [1, 2, 3, 4, 5, 6, 9]),  # fits: nothing cut
    ([1, 2], [3, 4, 5, 6], [9], 5, [1, 2, 5, 6, 9]),  # the body loses its oldest tokens
    ([1, 2], [3, 4, 5, 6], [9], 3, [1, 2, 9]),  # no room left for the body
    ([1, 2, 3, 4], [5, 6], [8, 9], 3, [1, 8, 9]),  # the head alone is too long: it loses its end, the tail stays
])
def test_truncation_rule(head, body, tail, n, kept):
    assert truncate(head, body, tail, n) == kept


def test_truncation_rule_refuses_to_cut_the_tail():
    with pytest.raises(ValueError, match="max_length 1"):
        truncate([1], [2], [8, 9], 1)


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import AutoTokenizer

    from tasks.models.local import SMOLLM2, causal_lm_path

    tok = AutoTokenizer.from_pretrained(causal_lm_path(SMOLLM2))
    tok.pad_token = tok.pad_token or tok.eos_token
    return tok


def _ids(tokenizer, text: str) -> list[int]:
    return tokenizer(text, add_special_tokens=False)["input_ids"]


def test_charp_input_keeps_knowledge_recent_turns_and_cue(tokenizer):
    full = input_ids(tokenizer, TURN, 1000)
    assert tokenizer.decode(full) == model_input(TURN)
    head, cue = _ids(tokenizer, "knowledge: The Alpha hotel is cheap.\n"), _ids(tokenizer, "Bot:")
    last = _ids(tokenizer, "User: Is the Alpha cheap?\n")
    budget = len(head) + len(last) + len(cue)
    assert input_ids(tokenizer, TURN, budget) == head + last + cue
    assert tokenizer.decode(input_ids(tokenizer, TURN, budget)) == (
        "knowledge: The Alpha hotel is cheap.\nUser: Is the Alpha cheap?\nBot:")
    assert input_ids(tokenizer, TURN, budget - 2) == head + last[2:] + cue


def test_causal_training_and_generation_truncate_alike(tokenizer):
    response = _ids(tokenizer, " Yes, it is cheap." + tokenizer.eos_token)
    head, cue = _ids(tokenizer, "knowledge: The Alpha hotel is cheap.\n"), _ids(tokenizer, "Bot:")
    last = _ids(tokenizer, "User: Is the Alpha cheap?\n")
    max_length = len(head) + len(last) + len(cue) + len(response)
    batch = encode(tokenizer, [TURN], "causal", max_length, "cpu")
    prompt = head + last + cue
    assert batch["input_ids"][0].tolist() == prompt + response
    assert batch["labels"][0].tolist() == [-100] * len(prompt) + response
    # generation with the prompt's budget sees exactly the prompt the model was trained on
    assert input_ids(tokenizer, TURN, max_length - len(response)) == prompt


class Line(torch.nn.Module):
    """y = w x, w starting at 0: a real model whose validation loss is known in closed form."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Linear(1, 1, bias=False)
        torch.nn.init.zeros_(self.w.weight)

    def forward(self, x, y):
        return type("Out", (), {"loss": torch.nn.functional.mse_loss(self.w(x), y)})()


def _batch(rows):
    return {"x": torch.tensor([[r[0]] for r in rows]), "y": torch.tensor([[r[1]] for r in rows])}


TRAIN, VALID = [(1.0, 1.0)] * 4, [(1.0, 0.1)]  # training pulls w to 1; validation wants 0.1


def _fit(epochs: int, patience):
    model = Line()
    config = TrainingConfig(seed=13, epochs=epochs, batch_size=2, learning_rate=0.3, weight_decay=0.0,
                            patience=patience)
    return model, fit(model, _batch, TRAIN, VALID, config, "cpu")


def test_early_stopping_restores_the_best_epoch():
    model, history = _fit(epochs=5, patience=1)
    assert [h["epoch"] for h in history] == [1, 2] and [h["best"] for h in history] == [True, False]
    assert history[1]["valid_loss"] > history[0]["valid_loss"]
    restored = (model.w.weight.item() - 0.1) ** 2
    assert round(restored, 4) == history[0]["valid_loss"]


def test_no_patience_runs_every_epoch_and_is_seeded():
    (a, ha), (b, hb) = _fit(epochs=3, patience=None), _fit(epochs=3, patience=None)
    assert len(ha) == 3 and ha == hb and torch.equal(a.w.weight, b.w.weight)


def test_cross_encoder_training_is_byte_identical(tmp_path):
    """The detector trainer on the shared loop: same rows, params and seed give the same safetensors bytes."""
    from tasks.detectors.train import train_cross_encoder

    rows = [{"source": f"The museum opened in {1900 + k}.", "hypothesis": f"The museum opened in {1900 + k + k % 2}.",
             "label": k % 2} for k in range(10)]
    params = {"seed": 13, "base_model": "minilm", "epochs": 2, "batch_size": 4, "learning_rate": 1e-4,
              "max_length": 32, "valid_fraction": 0.2}
    stats = [train_cross_encoder(rows[:8], rows[8:], params, tmp_path / name) for name in ("a", "b")]
    assert stats[0] == stats[1] and stats[0]["train_pairs"] == 8 and stats[0]["valid_pairs"] == 2
    assert [e["epoch"] for e in stats[0]["epochs"]] == [1, 2] and sum(e["best"] for e in stats[0]["epochs"]) == 1
    assert (tmp_path / "a" / "model.safetensors").read_bytes() == (tmp_path / "b" / "model.safetensors").read_bytes()
