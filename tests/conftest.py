"""Shared fixtures: the real spaCy English pipeline, and the raw-data mirror."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MIRROR = Path(os.environ.get("HALLUCI_RAW_MIRROR") or ROOT.parent / "shared" / "data" / "raw")


@pytest.fixture(scope="session")
def nlp():
    from tasks.edits.spacy_model import load_english

    return load_english()


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "MANIFEST.tsv").is_file():
        pytest.fail(f"raw-data mirror not found at {MIRROR}; set HALLUCI_RAW_MIRROR")
    return MIRROR


pytest_plugins = ["tests.s3_remote"]
