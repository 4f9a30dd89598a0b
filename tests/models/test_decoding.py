"""tasks/models/decoding.py: greedy by default, seeded sampling that repeats itself, and the frequency penalty, on
the real SmolLM2 where a model is needed."""
from __future__ import annotations

import random

from tasks.models.decoding import Decoding

PROMPTS = ["Write one sentence about the sea.", "Name three fruits.", "Describe a city at night."]


def test_greedy_is_the_default_and_sampling_names_its_filters():
    assert Decoding().generate_kwargs() == {"do_sample": False}
    assert Decoding(temperature=0.9, top_k=10).generate_kwargs() == {"do_sample": True, "temperature": 0.9,
                                                                      "top_k": 10, "top_p": 1.0}
    assert Decoding(temperature=1.0, top_p=0.5).generate_kwargs()["top_k"] == 0  # 0: no top-k filter


def test_frequency_penalty_lowers_each_token_by_its_count_in_the_answer():
    """Prompt tokens (before ``start``) are not counted; a token generated twice loses twice the penalty."""
    import torch

    (penalty,) = Decoding(frequency_penalty=0.5).logits_processors(start=2)
    ids = torch.tensor([[3, 3, 1, 1, 2]])  # prompt: 3 3; answer: 1 1 2
    out = penalty(ids, torch.zeros((1, 5)))
    assert out.tolist() == [[0.0, -1.0, -0.5, 0.0, 0.0]]
    assert Decoding().logits_processors(start=2) == []


def test_seeded_sampling_repeats_itself_and_leaves_the_callers_random_state():
    """The same seed gives the same sampled answers, run after run and batch by batch; another seed other
    answers; greedy ones differ from both. torch's and Python's random states are as before the call."""
    import torch

    from tasks.models.local import LocalChatClient

    def answers(decoding: Decoding | None) -> list[str | None]:
        return LocalChatClient("smollm2", max_new_tokens=16, batch_size=2, decoding=decoding).complete(PROMPTS)

    torch.manual_seed(5)
    before = torch.get_rng_state()
    state = random.getstate()
    sampled = answers(Decoding(temperature=0.9, top_k=10, seed=13))
    assert torch.equal(torch.get_rng_state(), before) and random.getstate() == state
    assert sampled == answers(Decoding(temperature=0.9, top_k=10, seed=13))
    assert sampled != answers(Decoding(temperature=0.9, top_k=10, seed=14))
    assert answers(None) == answers(Decoding()) != sampled
    assert answers(Decoding(temperature=0.1, top_k=1)) == answers(None)  # top-k 1 is greedy at any temperature
