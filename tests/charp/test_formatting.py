"""tasks/charp/formatting.py: the CHARP model input with the real SmolLM2 tokenizer, truncated alike in
training and generation."""
from __future__ import annotations

import pytest

from tasks.charp.formatting import input_ids, model_input
from tasks.charp.train import encode

TURN = {"knowledge": "The Alpha hotel is cheap.", "response": "Yes, it is cheap.",
        "history": [{"speaker": "seeker", "text": "Hello there."}, {"speaker": "wizard", "text": "Hi, how can I help?"},
                    {"speaker": "seeker", "text": "Is the Alpha cheap?"}]}


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
