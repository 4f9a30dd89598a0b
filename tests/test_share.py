"""Hub-ready dataset folders: card front matter, Croissant (validated by mlcroissant), loading each config with
`datasets.load_dataset(<folder>, <config>)`, and `publish` against a local Hub server on 127.0.0.1."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from tasks.share.hub_card import dialogue_metadata, hallucigen_metadata, size_category, write_hub_files
from tests.hub_upload_server import hub_server as upload_server

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.fixture
def hallucigen_folder(tmp_path) -> Path:
    rows = [{"id": f"{s}-{i}", "split": s, "langpair": lp, "type": "number", "source": "s", "hyp_good": "g",
             "hyp_bad": "b"} for s, n in (("trial", 2), ("test", 5)) for i, lp in zip(range(n), ["en-fr", "de-en"] * 5)]
    folder = tmp_path / "translation"
    folder.mkdir()
    for split in ("trial", "test"):
        for view in ("generation", "detection"):
            pq.write_table(pa.Table.from_pylist([r for r in rows if r["split"] == split]),
                           folder / f"{split}.{view}.parquet")
    pq.write_table(pa.Table.from_pylist(rows[:3]), folder / "published.detection.parquet")
    meta = hallucigen_metadata("translation", rows, ["pawsx", "hallucigen"])
    write_hub_files(folder, meta, "# body\n", "test folder", "a citation")
    return folder


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


def test_croissant_is_byte_identical_when_rewritten(hallucigen_folder):
    first = (hallucigen_folder / "croissant.json").read_bytes()
    meta = card_metadata(hallucigen_folder)
    write_hub_files(hallucigen_folder, meta, "# body\n", "test folder", "a citation")
    assert (hallucigen_folder / "croissant.json").read_bytes() == first


def test_croissant_records_a_changed_file_hash(hallucigen_folder):
    before = json.loads((hallucigen_folder / "croissant.json").read_text())["distribution"]
    pq.write_table(pa.Table.from_pylist([{"id": "x", "split": "trial"}]), hallucigen_folder / "trial.detection.parquet")
    write_hub_files(hallucigen_folder, card_metadata(hallucigen_folder), "# body\n", "test folder", "a citation")
    after = json.loads((hallucigen_folder / "croissant.json").read_text())["distribution"]
    changed = [b["contentUrl"] for b, a in zip(before, after) if b["sha256"] != a["sha256"]]
    assert changed == ["trial.detection.parquet"]


def _publish(args: list[str], env: dict, home: Path) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("HF_")}, "HF_HOME": str(home), **env}
    return subprocess.run([sys.executable, "-m", "tasks.share.publish", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_publish_uploads_the_folder_to_the_hub_endpoint(hallucigen_folder, tmp_path):
    with upload_server() as (endpoint, hub):
        proc = _publish(["alice/halluci-translation", str(hallucigen_folder)],
                        {"HF_ENDPOINT": endpoint, "HF_TOKEN": "hf_test_secret_123"}, tmp_path / "hf")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"{endpoint}/datasets/alice/halluci-translation/commit/{'0' * 40}"
    assert hub.created == [{"name": "halluci-translation", "organization": "alice", "visibility": "public",
                            "type": "dataset"}]
    [commit] = hub.commits
    assert commit["repo"] == "alice/halluci-translation" and commit["revision"] == "main"
    assert commit["files"] == {p.name: p.read_bytes() for p in hallucigen_folder.iterdir()}
    assert hub.validated[0]["metadata"]["configs"][0]["config_name"] == "generation"
    assert set(hub.auth) == {"Bearer hf_test_secret_123"}
    assert not [u for u in hub.unknown if u.startswith("POST")]
    assert "hf_test_secret_123" not in proc.stdout + proc.stderr


def test_publish_needs_a_token_and_a_built_folder(hallucigen_folder, tmp_path):
    with upload_server() as (endpoint, hub):
        no_token = _publish(["alice/x", str(hallucigen_folder)], {"HF_ENDPOINT": endpoint}, tmp_path / "hf")
        (hallucigen_folder / "croissant.json").unlink()
        unbuilt = _publish(["alice/x", str(hallucigen_folder)], {"HF_ENDPOINT": endpoint, "HF_TOKEN": "t"},
                           tmp_path / "hf")
        bad_repo = _publish(["x", str(hallucigen_folder)], {"HF_ENDPOINT": endpoint, "HF_TOKEN": "t"}, tmp_path / "hf")
    assert no_token.returncode == 1 and no_token.stderr.strip() == (
        "ERROR publish: set the environment variable HF_TOKEN to a Hub token with write access")
    assert unbuilt.stderr.strip() == (f"ERROR publish: {hallucigen_folder}: croissant.json is missing "
                                      "(rebuild the folder with dvc repro)")
    assert bad_repo.stderr.strip() == "ERROR publish: REPO must be <user>/<name> (got 'x')"
    assert hub.commits == [] and hub.created == []


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
        "data/hallucigen/translation", "data/hallucigen/paraphrase", "data/dialogue/dstc11", "data/dialogue/begin"}
    for folder, expected in folders.items():
        assert [c["config_name"] for c in card_metadata(folder)["configs"]][: len(expected)] == list(expected)
        for config, counts in expected.items():
            assert load_config_counts(folder, config, tmp_path / "cache") == counts, (folder, config)
        records = validate_croissant(folder)
        assert {k: v for k, v in records.items() if k.split(".")[0] in expected} == {
            f"{c}.{s}": n for c, counts in expected.items() for s, n in counts.items()}
