"""Fixtures of the share tests: a small Hub-ready HalluciGen folder."""
from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tasks.share.hub_card import hallucigen_metadata, write_hub_files


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
