"""A sequence-pair classifier (NLI model, trained cross-encoder) loaded with transformers: safetensors
only, no remote code; class probabilities for (premise, hypothesis) pairs in length-sorted batches."""
from __future__ import annotations

import os

import numpy as np

from tasks.models.batching import batched_forward, cpu_int8
from tasks.models.device import best_device
from tasks.models.loaded import loader
from tasks.models.registry import model_path


@loader(maxsize=4)
def load_pair_classifier(name: str, device: str | None = None, int8: bool = False, allow_pickle: bool = False):
    """(tokenizer, model, device) for a Hub id, a folder, or `minilm`; int8: quantised on CPU. Weights load
    from safetensors only, unless allow_pickle opts in to pickle checkpoints (pytorch_model.bin). transformers'
    safetensors auto-conversion is off: it would post a pickle-only Hub repo to an outside conversion service
    and, without allow_pickle, load the weights of a bot's pull request instead of failing."""
    os.environ["DISABLE_SAFETENSORS_CONVERSION"] = "1"
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    device = device or best_device()
    path = model_path(name)
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(path, use_safetensors=not allow_pickle,
                                                               trust_remote_code=False)
    return tokenizer, cpu_int8(model.to(device).eval(), device, int8), device


class PairClassifier:
    """Softmax class probabilities for (premise, hypothesis) pairs."""

    def __init__(self, model: str, batch_size: int = 32, max_length: int = 256, device: str | None = None,
                 int8: bool = False, allow_pickle: bool = False):
        self.tokenizer, self.model, self.device = load_pair_classifier(model, device, int8, allow_pickle)
        self.batch_size, self.max_length = batch_size, max_length
        self.id2label = {int(k): v for k, v in self.model.config.id2label.items()}

    def probabilities(self, premises: list[str], hypotheses: list[str], desc: str | None = None) -> np.ndarray:
        import torch

        if not premises:
            return np.zeros((0, len(self.id2label)))
        enc = self.tokenizer(premises, hypotheses, truncation=True, max_length=self.max_length)
        return batched_forward(self.tokenizer, dict(enc),
                               lambda batch: torch.softmax(self.model(**batch).logits, dim=-1),
                               self.batch_size, self.device, desc)
