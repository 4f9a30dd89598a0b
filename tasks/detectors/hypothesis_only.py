"""A source-blind (hypothesis-only) detector: the annotation-artifact check of a benchmark. It never reads
the source: each hypothesis is scored by its mean token surprisal under a causal language model, and the
less probable of hyp1/hyp2 is called hallucinated. On a valid benchmark it stays near chance."""
from __future__ import annotations

from tasks.detectors.base import ScoringDetector
from tasks.models.local import load_causal_lm


class FluencyDetector(ScoringDetector):
    """Mean negative log-likelihood per token of the hypothesis alone (higher: less fluent)."""

    def __init__(self, name: str, model: str = "smollm2", batch_size: int = 16, dtype: str = "float32"):
        self.name, self.model_name, self.batch_size, self.dtype = name, model, batch_size, dtype

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        """``sources`` is ignored: the detector is source-blind by construction."""
        return surprisal(hyps, self.model_name, self.batch_size, self.dtype)


def surprisal(texts: list[str], model_name: str = "smollm2", batch_size: int = 16,
              dtype: str = "float32") -> list[float]:
    """Mean token NLL of each text (see ``token_logprobs``)."""
    tokenizer, _ = load_causal_lm(model_name, dtype=dtype)
    encoded = [_bos(tokenizer) + tokenizer(t, add_special_tokens=False)["input_ids"] for t in texts]
    return [round(float(-lp.sum() / max(1, lp.numel())), 6)
            for lp in token_logprobs(encoded, model_name, batch_size, dtype)]


def continuation_nll(pairs: list[tuple[str, str]], model_name: str = "smollm2", batch_size: int = 64,
                     dtype: str = "float32") -> list[float]:
    """Total NLL of each continuation after its prefix ((prefix, continuation) pairs, each side tokenized on its
    own): how strongly the model expects 'Gaye' after 'A biography of Marvin'."""
    tokenizer, _ = load_causal_lm(model_name, dtype=dtype)
    prefixes = [_bos(tokenizer) + tokenizer(p, add_special_tokens=False)["input_ids"] for p, _ in pairs]
    tails = [tokenizer(c, add_special_tokens=False)["input_ids"] for _, c in pairs]
    logprobs = token_logprobs([p + t for p, t in zip(prefixes, tails)], model_name, batch_size, dtype)
    return [round(float(-lp[lp.numel() - len(t):].sum()), 6) for lp, t in zip(logprobs, tails)]


def _bos(tokenizer) -> list[int]:
    return [tokenizer.bos_token_id] if tokenizer.bos_token_id is not None else [tokenizer.eos_token_id]


def token_logprobs(encoded: list[list[int]], model_name: str, batch_size: int, dtype: str) -> list:
    """The log-probabilities (a float32 tensor per sequence) of every token of each id sequence after the first,
    batched by length; position ids follow the left padding, so a sequence scores the same whatever batch it is in
    (up to float rounding). The model runs in ``dtype``; the log softmax is taken in float32."""
    import torch

    tokenizer, model = load_causal_lm(model_name, dtype=dtype)
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
    out: list = [None] * len(encoded)
    for k in range(0, len(order), batch_size):
        idx = order[k:k + batch_size]
        width = max(len(encoded[i]) for i in idx)
        ids = torch.full((len(idx), width), tokenizer.pad_token_id, dtype=torch.long)
        mask = torch.zeros((len(idx), width), dtype=torch.long)
        for row, i in enumerate(idx):
            ids[row, width - len(encoded[i]):] = torch.tensor(encoded[i])
            mask[row, width - len(encoded[i]):] = 1
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        with torch.inference_mode():
            logits = model(input_ids=ids.to(model.device), attention_mask=mask.to(model.device),
                           position_ids=positions.to(model.device)).logits.float().cpu()
        logp = torch.log_softmax(logits[:, :-1], dim=-1).gather(-1, ids[:, 1:, None])[..., 0]
        for row, i in enumerate(idx):
            out[i] = logp[row, width - len(encoded[i]):]
    return out
