"""The published HalluciGen trial and test-detection files in the detection schema (test: no gold label)."""
from __future__ import annotations

import csv
from pathlib import Path

from tasks.errors import InputError
from tasks.io import is_blank, read_records
from tasks.stats import Tally


def _csv_rows(path: Path) -> list[dict]:
    if not path.is_file():
        raise InputError(f"{path}: file not found")
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def published_files(scenario: str, settings: list[str]) -> list[tuple[str, str, str]]:
    """(file under data/raw/hallucigen, split, langpair) of the published files of a scenario."""
    if scenario == "translation":
        return [(f"translation/{stem}.{d}.jsonl", split, d) for d in settings
                for stem, split in (("trial", "trial"), ("test_detection", "test"))]
    return [(f"pg/{stem}_{lang}.csv", split, lang) for lang in settings
            for stem, split in (("trial", "trial"), ("test_detection", "test"))]


def ingest_published(raw_dir: Path, scenario: str, settings: list[str]) -> tuple[list[dict], dict]:
    """Rows of every published file; a row with empty text or a label other than hyp1/hyp2 is rejected."""
    rows, tallies = [], {}
    for file, split, langpair in published_files(scenario, settings):
        path = Path(raw_dir) / file
        records = read_records(path, f"hallucigen/{file}") if file.endswith(".jsonl") else _csv_rows(path)
        tally = Tally()
        for item in records:
            label = item.get("label") if split == "trial" else None
            if any(is_blank(item.get(k)) for k in ("source", "hyp1", "hyp2")):
                tally.reject("empty_text")
            elif split == "trial" and label not in ("hyp1", "hyp2"):
                tally.reject("bad_label")
            else:
                tally.keep()
                rows.append({"id": f"published:{langpair}:{split}:{item.get('id')}", "scenario": scenario,
                             "langpair": langpair, "split": split, "source": item["source"].strip(),
                             "hyp1": item["hyp1"].strip(), "hyp2": item["hyp2"].strip(),
                             "type": item.get("type") or None, "label": label})
        tallies[file] = tally.as_dict()
    return rows, tallies
