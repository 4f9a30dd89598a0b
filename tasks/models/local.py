"""A local chat model through transformers: a registered GGUF model (tasks/models/models.yaml; offline default
`smollm2`, SmolLM2-135M-Instruct), converted once into a transformers checkpoint beside its assembled files, or
any Hub id / folder."""
from __future__ import annotations

from pathlib import Path

from tasks.io import atomic_dir
from tasks.models.batching import cpu_int8, length_sorted_batches, progress
from tasks.models.decoding import Decoding
from tasks.models.device import best_device, warn_if_slow_dtype
from tasks.models.loaded import loader
from tasks.models.registry import file_of, load_registry

SMOLLM2 = "smollm2"


def gguf_checkpoint(name: str) -> Path:
    """The transformers checkpoint of registered GGUF model ``name``, converted (dequantised) on first use."""
    gguf = file_of(name, ".gguf")
    target = gguf.parent / "transformers"
    if (target / "config.json").is_file():
        return target
    from transformers import AutoModelForCausalLM, AutoTokenizer

    with atomic_dir(target) as tmp:
        AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name).save_pretrained(tmp)
        loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        config = loaded.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config  # the weights are dequantised on load: save them as a plain model
        plain = AutoModelForCausalLM.from_config(config)
        plain.load_state_dict(loaded.state_dict())
        plain.save_pretrained(tmp, safe_serialization=True)
    return target


def causal_lm_path(name: str) -> str:
    """A path transformers loads for ``name``: the converted checkpoint of a registered GGUF model, else
    ``name`` (a Hub id or folder)."""
    registry = load_registry()
    if name in registry and registry[name].loader == "gguf_causal_lm":
        return str(gguf_checkpoint(name))
    return name


@loader(maxsize=2)
def load_causal_lm(name: str, device: str | None = None, dtype: str = "float32", int8: bool = False):
    """(tokenizer, model) of a chat model, left-padded for batched generation, in eval mode on ``device``,
    its weights in ``dtype`` (a torch dtype name); with ``int8`` on CPU, its Linear layers quantised
    dynamically (about 2x the throughput)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = causal_lm_path(name)
    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(path, use_safetensors=True)
    device = device or best_device()
    warn_if_slow_dtype(device, dtype)
    model = model.to(device, dtype=getattr(torch, dtype)).eval()
    return tokenizer, cpu_int8(model, device, int8)


class LocalChatClient:
    """Chat completions from a local model, batched, decoded as ``decoding`` says (greedy by default; sampled
    from a generator seeded per batch); an empty completion comes back as None. A ``prefix`` starts the
    assistant's answer (e.g. an opened JSON string), so the model only continues it; ``choose`` scores allowed
    answers by their log-probability instead of parsing free text, which callers use when ``answers`` is
    'logprob' (``scores_answers``); with 'text' they parse the completion as from an endpoint. The tokens every
    prompt of a call starts with (few-shot demonstrations, judge examples) are run once and their key/value
    cache is reused by every batch. Prompts run in batches of similar length (less padding); answers come back
    in prompt order. ``call_failures`` is the per-prompt failure list of the latest ``complete`` (all None: a
    local model always answers, an empty answer is counted as empty_completion in ``failures``)."""

    scores_answers = True

    def __init__(self, model: str = SMOLLM2, max_new_tokens: int = 64, batch_size: int = 8, int8: bool = False,
                 decoding: Decoding | None = None, answers: str = "logprob"):
        self.model_name, self.max_new_tokens, self.batch_size, self.int8 = model, max_new_tokens, batch_size, int8
        self.decoding = decoding or Decoding()
        self.scores_answers = answers == "logprob"
        self.failures: dict[str, int] = {}
        self.call_failures: list[str | None] = []

    def _encode(self, tokenizer, prompts: list[str], prefix: str) -> list[list[int]]:
        texts = [tokenizer.apply_chat_template([{"role": "user", "content": p}], tokenize=False,
                                               add_generation_prompt=True) + prefix for p in prompts]
        return [tokenizer(t, add_special_tokens=False)["input_ids"] for t in texts]

    def complete(self, prompts: list[str], prefix: str = "", until=None) -> list[str | None]:
        """The continuation of each prompt's answer after ``prefix`` (the prefix itself not included). With
        ``until`` (a test on a row's continuation so far), a batch stops once every row's answer is finished."""
        import torch
        from transformers import LogitsProcessorList

        tokenizer, model = load_causal_lm(self.model_name, int8=self.int8)
        seqs = self._encode(tokenizer, prompts, prefix)
        cache = shared_cache(model, seqs)
        out: list[str | None] = [None] * len(seqs)
        for batch, idx in enumerate(progress(length_sorted_batches([len(s) for s in seqs], self.batch_size),
                                             f"{self.model_name} answers")):
            ids, mask = padded([seqs[i] for i in idx], cache, tokenizer.pad_token_id, model.device)
            stop = [finished_rows(tokenizer, ids.shape[1], until)] if until else None
            penalty = self.decoding.logits_processors(ids.shape[1])
            with torch.inference_mode(), self.decoding.seeded(batch, model.device):
                gen = model.generate(input_ids=ids, attention_mask=mask, past_key_values=repeated(cache, len(ids)),
                                     max_new_tokens=self.max_new_tokens, **self.decoding.generate_kwargs(),
                                     logits_processor=LogitsProcessorList(penalty) if penalty else None,
                                     pad_token_id=tokenizer.pad_token_id, stopping_criteria=stop)
            for i, row in zip(idx, gen):
                text = tokenizer.decode(row[ids.shape[1]:], skip_special_tokens=True).strip()
                if not text:
                    self.failures["empty_completion"] = self.failures.get("empty_completion", 0) + 1
                out[i] = text or None
        self.call_failures = [None] * len(out)
        return out

    def choose(self, prompts: list[str], options: list[str], prefix: str = "") -> list[tuple[int, list[float]]]:
        """Per prompt: the index of the most probable option as the answer's next tokens after ``prefix``, and
        every option's log-probability (summed over its tokens). Every prompt gets an answer. One forward pass
        per prompt when every option is one token; else one per (prompt, option)."""
        tokenizer, model = load_causal_lm(self.model_name, int8=self.int8)
        option_ids = [tokenizer(o, add_special_tokens=False)["input_ids"] for o in options]
        encoded = self._encode(tokenizer, prompts, prefix)
        cache = shared_cache(model, encoded)
        out: list = [None] * len(encoded)
        for idx in progress(length_sorted_batches([len(s) for s in encoded], self.batch_size),
                            f"{self.model_name} choices"):
            contexts = [encoded[i] for i in idx]
            if all(len(ids) == 1 for ids in option_ids):
                last = _last_log_probs(model, tokenizer.pad_token_id, contexts, 1, cache)[:, -1]
                scores = [[float(row[ids[0]]) for ids in option_ids] for row in last]
            else:
                seqs = [ctx + ids for ctx in contexts for ids in option_ids]
                keep = max(len(ids) for ids in option_ids) + 1
                logp = _last_log_probs(model, tokenizer.pad_token_id, seqs, keep, cache)
                flat = [sum(float(logp[r, keep - len(ids) - 1 + j, t]) for j, t in enumerate(ids))
                        for r, ids in enumerate(option_ids * len(contexts))]
                scores = [flat[i * len(options):(i + 1) * len(options)] for i in range(len(contexts))]
            for i, row in zip(idx, scores):
                out[i] = (max(range(len(options)), key=row.__getitem__), [round(v, 4) for v in row])
        return out


def finished_rows(tokenizer, start: int, until):
    """A stopping criterion: per row, whether ``until`` holds for the text generated after position ``start``
    (a row that stops is padded until the batch ends)."""
    import torch
    from transformers import StoppingCriteria

    class Finished(StoppingCriteria):
        def __call__(self, input_ids, scores, **kwargs):
            texts = tokenizer.batch_decode(input_ids[:, start:], skip_special_tokens=True)
            return torch.tensor([bool(until(t)) for t in texts], device=input_ids.device)

    return Finished()


def shared_length(seqs: list[list[int]]) -> int:
    """How many first tokens every sequence has in common, leaving each at least one of its own."""
    if not seqs:
        return 0
    most = min(len(s) for s in seqs) - 1
    return next((i for i in range(most) if len({s[i] for s in seqs}) > 1), max(most, 0))


def shared_cache(model, seqs: list[list[int]]):
    """The key/value cache of the tokens every sequence starts with (None when they share none)."""
    import torch
    from transformers import DynamicCache

    length = shared_length(seqs)
    if length == 0:
        return None
    cache = DynamicCache()
    with torch.inference_mode():
        model(input_ids=torch.tensor([seqs[0][:length]], device=model.device), past_key_values=cache, use_cache=True)
    return cache


def repeated(cache, rows: int):
    """A copy of ``cache`` for a batch of ``rows`` (generation extends the cache it is given)."""
    import copy

    if cache is None:
        return None
    batch = copy.deepcopy(cache)
    batch.batch_repeat_interleave(rows)
    return batch


def padded(seqs: list[list[int]], cache, pad_id: int, device):
    """(ids, attention mask) of ``seqs``: the cached shared tokens first, then padding, then each sequence's
    own tokens (plain left padding without a cache), so every row's last token is at the end."""
    import torch

    shared = cache.get_seq_length() if cache is not None else 0
    width = max(len(s) for s in seqs) - shared
    ids = [s[:shared] + [pad_id] * (width + shared - len(s)) + s[shared:] for s in seqs]
    mask = [[1] * shared + [0] * (width + shared - len(s)) + [1] * (len(s) - shared) for s in seqs]
    return torch.tensor(ids, device=device), torch.tensor(mask, device=device)


def _last_log_probs(model, pad_id: int, seqs: list[list[int]], keep: int, cache=None):
    """Log-softmax over the vocabulary at the last ``keep`` positions of ``seqs`` (after the tokens in
    ``cache``, run once): (n, keep, vocab); position p predicts the token after it."""
    import torch

    shared = cache.get_seq_length() if cache is not None else 0
    ids, mask = padded(seqs, cache, pad_id, model.device)
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    with torch.inference_mode():
        logits = model(input_ids=ids[:, shared:], attention_mask=mask, position_ids=positions[:, shared:],
                       past_key_values=repeated(cache, len(seqs)), logits_to_keep=keep).logits
    return torch.log_softmax(logits.float(), dim=-1)
