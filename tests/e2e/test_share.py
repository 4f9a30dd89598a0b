"""The built copy's Hub-ready folders load per config with the counts their stage metrics report, and
their Croissant validates (end to end, on the shared built copy)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.share.helpers import card_metadata, load_config_counts, validate_croissant


def built_folders(root: Path) -> dict[Path, dict[str, dict[str, int]]]:
    """Each built dataset folder with the rows per config and split that its stage metrics report."""
    folders = {}
    for scenario in ("translation", "paraphrase"):
        counts = json.loads((root / f"metrics/hallucigen_{scenario}.json").read_text())["examples"]
        per_split = {s: sum(n for k, n in counts.items() if k.startswith(f"{s}/")) for s in ("trial", "test")}
        folders[root / "data/hallucigen" / scenario] = {"generation": per_split, "detection": per_split}
    for metrics in sorted((root / "metrics/dialogue").glob("*.json")):
        stats = json.loads(metrics.read_text())
        turns = {split: s["turns"] for split, s in stats["splits"].items()}
        folders[root / "data/dialogue" / metrics.stem] = {v: turns for v in stats["variants"]}
    return folders


@pytest.mark.slow
@pytest.mark.e2e
def test_built_folders_load_per_config_with_the_metrics_counts(built_repo, tmp_path):
    folders = built_folders(built_repo)
    assert {f.relative_to(built_repo).as_posix() for f in folders} == {
        "data/hallucigen/translation", "data/hallucigen/paraphrase", "data/dialogue/dstc11", "data/dialogue/begin",
        "data/dialogue/charp_offline"}
    for folder, expected in folders.items():
        assert [c["config_name"] for c in card_metadata(folder)["configs"]][: len(expected)] == list(expected)
        for config, counts in expected.items():
            assert load_config_counts(folder, config, tmp_path / "cache") == counts, (folder, config)
        records = validate_croissant(folder)
        assert {k: v for k, v in records.items() if k.split(".")[0] in expected} == {
            f"{c}.{s}": n for c, counts in expected.items() for s, n in counts.items()}
