"""Reading one PAWS-X TSV file (id, sentence1, sentence2, label) with counted rejects."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tasks.errors import InputError
from tasks.stats import Tally

HEADER = ["id", "sentence1", "sentence2", "label"]
MISSING_TEXT = {"", "nan", "none", "null", "ns"}


@dataclass(frozen=True)
class PawsRow:
    id: str
    sentence1: str
    sentence2: str
    label: int
    line: int


@dataclass(frozen=True)
class RowReject:
    file: str
    line: int
    id: str
    reason: str


def read_pawsx(path: str | Path, name: str | None = None,
               required: tuple[str, ...] = ("sentence1", "sentence2")) -> tuple[list[PawsRow], list[RowReject], Tally]:
    """Parse a PAWS-X file. Bad rows (wrong field count, empty or NaN text in a ``required`` column,
    duplicate id, label not 0/1) are rejected with their line; a missing file or header is an
    InputError naming the file."""
    path = Path(path)
    name = name or str(path)
    if not path.is_file():
        raise InputError(f"{name}: file not found")
    rows, rejects, tally, seen = [], [], Tally(), set()
    with open(path, encoding="utf-8", newline="") as fh:
        header = fh.readline().rstrip("\r\n").split("\t")
        if header != HEADER:
            raise InputError(f"{name}: line 1: header {header} is not {HEADER}")
        for line_no, line in enumerate(fh, start=2):
            fields = line.rstrip("\r\n").split("\t")
            reason, row_id = None, fields[0] if fields else ""
            if len(fields) != len(HEADER):
                reason = "malformed_row"
            elif not row_id.strip():
                reason = "missing_id"
            elif any(fields[HEADER.index(col)].strip().lower() in MISSING_TEXT for col in required):
                reason = "empty_sentence"
            elif row_id in seen:
                reason = "duplicate_id"
            elif fields[3].strip() not in ("0", "1"):
                reason = "bad_label"
            if reason:
                tally.reject(reason)
                rejects.append(RowReject(name, line_no, row_id, reason))
                continue
            seen.add(row_id)
            tally.keep()
            rows.append(PawsRow(row_id, fields[1].strip(), fields[2].strip(), int(fields[3]), line_no))
    return rows, rejects, tally
