"""tasks/share/hub_card.py: card front matter, Croissant validated by mlcroissant, loading each config with
`datasets.load_dataset(<folder>, <config>)`."""
from __future__ import annotations

import json

from tasks.share.hub_card import dialogue_metadata, size_category
from tests.share.helpers import card_metadata, load_config_counts, validate_croissant


def test_card_front_matter_names_configs_licences_and_sizes(hallucigen_folder):
    meta = card_metadata(hallucigen_folder)
    assert meta["pretty_name"] == "HalluciGen translation"
    assert meta["language"] == ["de", "en", "fr"] and meta["license"] == ["other", "unknown"]
    assert meta["task_categories"] == ["text-classification", "translation"]
    assert meta["size_categories"] == ["n<1K"]
    assert meta["source_datasets"] == ["extended|google-research-datasets/paws-x", "extended|hallucigen"]
    assert [c["config_name"] for c in meta["configs"]] == ["generation", "detection", "published"]
    assert meta["configs"][0]["default"] is True and "default" not in meta["configs"][1]
    assert meta["configs"][1]["data_files"] == [{"split": "trial", "path": "trial.detection.parquet"},
                                                {"split": "test", "path": "test.detection.parquet"}]
    assert (hallucigen_folder / "README.md").read_text().endswith("---\n\n# body\n")
    assert [size_category(n) for n in (999, 1000, 9999, 10_000, 2_000_000)] == [
        "n<1K", "1K<n<10K", "1K<n<10K", "10K<n<100K", "n>1M"]


def test_dialogue_configs_are_history_variants_with_every_split():
    meta = dialogue_metadata("dstc11", ["dstc11-track5"], {"train": 1699, "valid": 200, "test": 230}, ["h-full", "h-0"])
    assert meta["license"] == ["cdla-sharing-1.0"] and meta["size_categories"] == ["1K<n<10K"]
    assert meta["configs"][1] == {"config_name": "h-0", "data_files": [
        {"split": "train", "path": "train/h-0.parquet"}, {"split": "valid", "path": "valid/h-0.parquet"},
        {"split": "test", "path": "test/h-0.parquet"}]}


def test_folder_loads_per_config_and_croissant_validates(hallucigen_folder, tmp_path):
    assert load_config_counts(hallucigen_folder, "generation", tmp_path / "cache") == {"trial": 2, "test": 5}
    assert load_config_counts(hallucigen_folder, "published", tmp_path / "cache") == {"published": 3}
    assert validate_croissant(hallucigen_folder) == {"generation.trial": 2, "generation.test": 5,
                                                     "detection.trial": 2, "detection.test": 5,
                                                     "published.published": 3}
    croissant = json.loads((hallucigen_folder / "croissant.json").read_text())
    assert croissant["citeAs"] == "a citation" and croissant["license"] == ["other", "unknown"]
