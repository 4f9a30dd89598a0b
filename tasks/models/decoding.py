"""How a model client decodes (params: a client block's ``decoding``), one setting per model use. Temperature 0
is greedy; above it each token is sampled (within ``top_k`` / ``top_p`` where set) from a random generator seeded
per batch, so a rebuild gives the same text. ``frequency_penalty`` lowers a token's logit by that much for each
time it already occurs in the answer (OpenAI's definition). E.g. the overview's generation settings:
``Decoding(temperature=0.9, top_k=10)``."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Decoding:
    temperature: float = 0.0
    top_k: int | None = None
    top_p: float | None = None
    frequency_penalty: float = 0.0
    seed: int = 13

    @property
    def sampled(self) -> bool:
        return self.temperature > 0

    def generate_kwargs(self) -> dict:
        """transformers ``generate`` arguments: greedy, or sampling with the set temperature, top-k and top-p
        (top-k 0 and top-p 1 switch those filters off)."""
        if not self.sampled:
            return {"do_sample": False}
        return {"do_sample": True, "temperature": self.temperature, "top_k": self.top_k or 0,
                "top_p": 1.0 if self.top_p is None else self.top_p}

    def request_fields(self) -> dict:
        """The chat-completions body fields: temperature always, the rest when set (top_k is no OpenAI field:
        vLLM, llama.cpp and TGI servers read it); the seed when sampling."""
        fields: dict = {"temperature": self.temperature}
        if self.top_p is not None:
            fields["top_p"] = self.top_p
        if self.top_k is not None:
            fields["top_k"] = self.top_k
        if self.frequency_penalty:
            fields["frequency_penalty"] = self.frequency_penalty
        if self.sampled:
            fields["seed"] = self.seed
        return fields

    @contextlib.contextmanager
    def seeded(self, batch: int, device):
        """Within the block, torch's random generators seeded by the seed and the batch's position (the
        caller's own random state is put back after); nothing when decoding is greedy."""
        if not self.sampled:
            yield
            return
        import torch

        devices = [device.index or 0] if getattr(device, "type", "cpu") == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            torch.manual_seed(self.seed * 1_000_003 + batch)
            yield

    def logits_processors(self, start: int) -> list:
        """The frequency penalty as a transformers logits processor over the tokens after position ``start``
        (none when the penalty is 0)."""
        if not self.frequency_penalty:
            return []
        import torch
        from transformers import LogitsProcessor

        penalty = self.frequency_penalty

        class FrequencyPenalty(LogitsProcessor):
            def __call__(self, input_ids, scores):
                counts = torch.zeros_like(scores)
                counts.scatter_add_(1, input_ids[:, start:], torch.ones_like(input_ids[:, start:], dtype=scores.dtype))
                return scores - penalty * counts

        return [FrequencyPenalty()]
