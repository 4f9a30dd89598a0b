"""tasks/fetch/registry.py: the registry covers every source and the mirror manifest."""
from __future__ import annotations

from tasks.fetch.registry import (
    load_registry,
)


def test_registry_covers_every_source_and_the_mirror_manifest(mirror):
    registry = load_registry()
    assert set(registry) == {"pawsx", "shroom", "sweparaphrase", "turku-paraphrase-sv", "hallucigen", "begin",
                             "begin-2021", "dstc11-track5", "aces", "faithdial", "charp"}
    manifest = {}
    for line in (mirror / "MANIFEST.tsv").read_text().splitlines():
        path, _, sha = line.split("\t")
        manifest[path] = sha
    for source in registry.values():
        for f in source.files:
            if source.mirror:
                assert manifest[f"{source.mirror}/{f.path}"] == f.sha256
            else:
                assert f.sha256 is None and source.upstream["kind"] == "hf"
