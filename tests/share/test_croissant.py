"""tasks/share/croissant.py: Croissant is byte-identical when rewritten and records a changed file hash."""
from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from tasks.share.hub_card import write_hub_files
from tests.share.helpers import card_metadata


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
