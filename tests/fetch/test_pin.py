"""The fetch stage never writes the lock file; `python -m tasks.fetch.pin` (make pin-sources) pins the hashes
of fetched files that neither the registry nor the lock pins, from data/raw/SOURCES.json."""
from __future__ import annotations

import json

import pytest

from tasks.errors import InputError
from tasks.fetch.pin import pin, unpinned
from tasks.fetch.registry import Source, SourceFile, read_lock, write_lock


def _registry() -> dict:
    files = (SourceFile("a.json", "a.json", "11" * 32), SourceFile("b.json", "b.json", None),
             SourceFile("c.json", "c.json", None))
    return {"toy": Source("toy", "toy", "none", None, {"kind": "url", "base": "http://127.0.0.1:9/"}, files)}


def _manifest() -> dict:
    return {"toy": {"files": [{"path": p, "sha256": h, "bytes": 1} for p, h in
                              (("a.json", "11" * 32), ("b.json", "22" * 32), ("c.json", "33" * 32))]}}


def test_only_files_without_registry_hash_or_lock_entry_are_unpinned():
    lock = {("toy", "b.json"): "22" * 32}
    assert unpinned(_manifest(), _registry(), lock) == {("toy", "c.json"): "33" * 32}
    assert unpinned(_manifest(), _registry(), {}) == {("toy", "b.json"): "22" * 32, ("toy", "c.json"): "33" * 32}


def test_pin_adds_to_the_lock_and_keeps_what_is_there(tmp_path, monkeypatch):
    monkeypatch.setattr("tasks.fetch.pin.load_registry", _registry)
    manifest, lock_file = tmp_path / "SOURCES.json", tmp_path / "lock.tsv"
    manifest.write_text(json.dumps(_manifest()), encoding="utf-8")
    write_lock({("other", "x"): "44" * 32}, lock_file)
    assert pin(manifest, lock_file) == {("toy", "b.json"): "22" * 32, ("toy", "c.json"): "33" * 32}
    assert read_lock(lock_file) == {("other", "x"): "44" * 32, ("toy", "b.json"): "22" * 32,
                                    ("toy", "c.json"): "33" * 32}
    assert pin(manifest, lock_file) == {}


def test_pin_without_a_fetch_is_one_clear_error(tmp_path):
    with pytest.raises(InputError, match=r"SOURCES.json: not found; run `dvc repro fetch` first$"):
        pin(tmp_path / "SOURCES.json", tmp_path / "lock.tsv")
