"""Pin the sha256 of fetched files that have no registry hash (Hub-only sources) in the lock file.

The `fetch` stage only reads the lock; it records every file's sha256 in data/raw/SOURCES.json. This
explicit command copies the unpinned ones into tasks/fetch/sources.lock.tsv, to commit.

Usage: python -m tasks.fetch.pin   (or: make pin-sources)
"""
from __future__ import annotations

import json
from pathlib import Path

from tasks.errors import InputError
from tasks.fetch.registry import LOCK_FILE, load_registry, read_lock, write_lock
from tasks.params import ROOT

MANIFEST = ROOT / "data" / "raw" / "SOURCES.json"


def unpinned(manifest: dict, registry: dict, lock: dict) -> dict[tuple[str, str], str]:
    """{(source, file): sha256} of fetched files that neither the registry nor the lock pins."""
    out = {}
    for name, entry in manifest.items():
        hashed = {f.path for f in registry[name].files if f.sha256} if name in registry else set()
        for f in entry["files"]:
            if f["path"] not in hashed and (name, f["path"]) not in lock:
                out[(name, f["path"])] = f["sha256"]
    return out


def pin(manifest_file: Path = MANIFEST, lock_file: Path = LOCK_FILE) -> dict[tuple[str, str], str]:
    """Add the unpinned files of the last fetch to the lock file; returns what was added."""
    if not manifest_file.is_file():
        raise InputError(f"{manifest_file}: not found; run `dvc repro fetch` first")
    lock = read_lock(lock_file)
    new = unpinned(json.loads(manifest_file.read_text(encoding="utf-8")), load_registry(), lock)
    if new:
        write_lock({**lock, **new}, lock_file)
    return new


if __name__ == "__main__":
    added = pin()
    print(f"{LOCK_FILE.relative_to(ROOT)}: {len(added)} file(s) pinned" +
          "".join(f"\n  {s}/{p} {h}" for (s, p), h in sorted(added.items())))
