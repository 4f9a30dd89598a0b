"""A local chat model through transformers: a registered GGUF model (tasks/models/models.yaml; offline default
`smollm2`, SmolLM2-135M-Instruct), converted once into a transformers checkpoint beside its assembled files, or
any Hub id / folder."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from tasks.models.device import best_device
from tasks.models.registry import file_of, load_registry

SMOLLM2 = "smollm2"


def gguf_checkpoint(name: str) -> Path:
    """The transformers checkpoint of registered GGUF model ``name``, converted (dequantised) on first use."""
    gguf = file_of(name, ".gguf")
    target = gguf.parent / "transformers"
    if (target / "config.json").is_file():
        return target
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from tasks.io import atomic_dir

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


@lru_cache(maxsize=2)
def load_causal_lm(name: str, device: str | None = None):
    """(tokenizer, model) of a chat model, left-padded for batched generation, in eval mode on ``device``."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = causal_lm_path(name)
    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(path, use_safetensors=True).to(device or best_device()).eval()
    return tokenizer, model


class LocalChatClient:
    """Greedy chat completions from a local model, batched; an empty completion comes back as None."""

    def __init__(self, model: str = SMOLLM2, max_new_tokens: int = 64, batch_size: int = 8):
        self.model_name, self.max_new_tokens, self.batch_size = model, max_new_tokens, batch_size
        self.failures: dict[str, int] = {}

    def complete(self, prompts: list[str]) -> list[str | None]:
        import torch

        tokenizer, model = load_causal_lm(self.model_name)
        out: list[str | None] = []
        for k in range(0, len(prompts), self.batch_size):
            batch = prompts[k:k + self.batch_size]
            texts = [tokenizer.apply_chat_template([{"role": "user", "content": p}], tokenize=False,
                                                   add_generation_prompt=True) for p in batch]
            enc = tokenizer(texts, return_tensors="pt", padding=True).to(model.device)
            with torch.inference_mode():
                gen = model.generate(**enc, max_new_tokens=self.max_new_tokens, do_sample=False,
                                     pad_token_id=tokenizer.pad_token_id)
            for row in gen:
                text = tokenizer.decode(row[enc["input_ids"].shape[1]:], skip_special_tokens=True).strip()
                if not text:
                    self.failures["empty_completion"] = self.failures.get("empty_completion", 0) + 1
                out.append(text or None)
        return out
