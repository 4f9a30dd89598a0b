"""Shared checks of Hub-ready folders: rows per config as a Hub user loads them, mlcroissant's records, the
card's front matter."""
from __future__ import annotations

from pathlib import Path

import yaml


def load_config_counts(folder: Path, config: str, cache: Path) -> dict[str, int]:
    """Rows per split of one config, loaded offline the way a Hub user loads the folder."""
    from datasets import load_dataset

    ds = load_dataset(str(folder), config, cache_dir=str(cache))
    return {split: d.num_rows for split, d in ds.items()}


def validate_croissant(folder: Path) -> dict[str, int]:
    """mlcroissant reads croissant.json without errors; returns the records per record set."""
    import mlcroissant as mlc

    ds = mlc.Dataset(jsonld=str(folder / "croissant.json"))
    assert not ds.metadata.issues.errors
    return {rs.id: sum(1 for _ in ds.records(rs.id)) for rs in ds.metadata.record_sets}


def card_metadata(folder: Path) -> dict:
    text = (folder / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])
