"""Blind annotation sheets shared by the CHARP human evaluation and the HalluciGen review kit: a CSV of
items under opaque ids, shuffled by a seed, with the key (what the annotator must not see) in a separate
file; filled sheets are read back with one clear error per bad row."""
from __future__ import annotations

import csv
import hashlib
import random
from pathlib import Path

from tasks.errors import InputError
from tasks.io import atomic_path


def item_id(*parts: str) -> str:
    """A stable opaque id: the first 12 hex digits of sha256 over the parts joined by '|'."""
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


def write_blind_sheet(items: list[dict], sheet_fields: list[str], key_fields: list[str], seed: int | str,
                      sheet: Path, key: Path) -> None:
    """``items``: dicts with an ``item`` id and every field; the sheet gets ``sheet_fields`` (blank where an
    item has no value: the columns to fill), the key ``key_fields``; same seeded order in both."""
    rows = sorted(items, key=lambda it: it["item"])
    random.Random(f"{seed}:sheet").shuffle(rows)
    for path, fields in ((sheet, sheet_fields), (key, key_fields)):
        write_csv(path, fields, rows)


def write_csv(path: Path, fields: list[str], rows: list[dict], lineterminator: str = "\r\n") -> None:
    """``rows`` as CSV at ``path``, atomically: ``fields`` in order, blank where a row has no value."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fields, lineterminator=lineterminator)
        w.writeheader()
        w.writerows({f: r.get(f, "") for f in fields} for r in rows)


def read_filled_sheet(path: Path, required: list[str]) -> list[tuple[int, dict]]:
    """(CSV line number, row) of a filled sheet; a missing file, a missing column or a duplicate item is an
    InputError naming the file and row."""
    if not Path(path).is_file():
        raise InputError(f"{path}: annotation sheet not found")
    out, seen = [], set()
    with open(path, encoding="utf-8", newline="") as fh:
        for n, row in enumerate(csv.DictReader(fh), 2):
            if not row.get("item") or any(c not in row or row[c] is None for c in required):
                raise InputError(f"{path}: row {n}: missing item id or one of the columns {required}")
            if row["item"] in seen:
                raise InputError(f"{path}: row {n}: duplicate item {row['item']}")
            seen.add(row["item"])
            out.append((n, row))
    return out
