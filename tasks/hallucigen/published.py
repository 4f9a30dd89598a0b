"""The published HalluciGen trial and test-detection files in the detection schema (test: no gold label)."""
from __future__ import annotations

import csv
from pathlib import Path

from tasks.errors import InputError
from tasks.io import read_records
from tasks.rows import BadField, mapping, text
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
            parsed = _published_row(item, split)
            if isinstance(parsed, str):
                tally.reject(parsed)
                continue
            tally.keep()
            rows.append({"id": f"published:{langpair}:{split}:{item.get('id')}", "scenario": scenario,
                         "langpair": langpair, "split": split, **parsed, "type": item.get("type") or None,
                         "label": item.get("label") if split == "trial" else None})
        tallies[file] = tally.as_dict()
    return rows, tallies


def _published_row(item, split: str) -> dict | str:
    """The stripped source, hyp1 and hyp2 of a published row, or why it is unusable: 'empty_text' or
    'text_not_a_string' for any of them, 'bad_label' for a trial row not labelled hyp1/hyp2."""
    try:
        item = mapping(item, "row")
        parsed = {k: text(item.get(k), "text") for k in ("source", "hyp1", "hyp2")}
    except BadField as bad:
        return bad.reason
    if split == "trial" and item.get("label") not in ("hyp1", "hyp2"):
        return "bad_label"
    return parsed
