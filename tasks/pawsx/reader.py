"""Reading one PAWS-X TSV file (id, sentence1, sentence2, label) with counted rejects."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tasks.errors import InputError
from tasks.rows import MISSING_TEXT as NO_TEXT
from tasks.rows import BadField, decoded_lines, integer_text
from tasks.stats import Tally

HEADER = ["id", "sentence1", "sentence2", "label"]
MISSING_TEXT = NO_TEXT | {"ns"}  # PAWS-X also writes 'NS' for a missing sentence


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
    """Parse a PAWS-X file. Bad rows (bytes that are not UTF-8, wrong field count, an id that is not a
    number, empty or NaN text in a ``required`` column, duplicate id, label not 0/1) are rejected with their
    line; a missing file or header is an InputError naming the file."""
    name = name or str(path)
    rows, rejects, tally, seen = [], [], Tally(), set()
    lines = decoded_lines(path, name)
    header = next(lines, (1, b"", ""))[2]
    if header is None or header.rstrip("\r\n").split("\t") != HEADER:
        shown = header.rstrip("\r\n").split("\t") if header is not None else "(not UTF-8)"
        raise InputError(f"{name}: line 1: header {shown} is not {HEADER}")
    for line_no, raw, line in lines:
        if line is None:
            tally.reject("non_utf8")
            row_id = raw.split(b"\t", 1)[0].decode("utf-8", "replace")
            rejects.append(RowReject(name, line_no, row_id, "non_utf8"))
            continue
        fields = line.rstrip("\r\n").split("\t")
        reason, row_id = _row_problem(fields, required, seen), fields[0]
        if reason:
            tally.reject(reason)
            rejects.append(RowReject(name, line_no, row_id, reason))
            continue
        seen.add(row_id)
        tally.keep()
        rows.append(PawsRow(row_id, fields[1].strip(), fields[2].strip(), int(fields[3]), line_no))
    return rows, rejects, tally


def _row_problem(fields: list[str], required: tuple[str, ...], seen: set[str]) -> str | None:
    """Why a row cannot be used (a PAWS-X id is a decimal number: '6', never 'x6'), or None."""
    if len(fields) != len(HEADER):
        return "malformed_row"
    if not fields[0].strip():
        return "missing_id"
    try:
        integer_text(fields[0], "id")
    except BadField as bad:
        return bad.reason
    if any(fields[HEADER.index(col)].strip().lower() in MISSING_TEXT for col in required):
        return "empty_sentence"
    if fields[0] in seen:
        return "duplicate_id"
    if fields[3].strip() not in ("0", "1"):
        return "bad_label"
    return None


def file_accounting(tally: Tally, rejects: list[RowReject]) -> dict:
    """A file's counts plus the lines of its rejected rows by reason, for the metrics."""
    lines: dict[str, list[int]] = {}
    for r in rejects:
        lines.setdefault(r.reason, []).append(r.line)
    return {**tally.as_dict(), "rejected_lines": dict(sorted(lines.items()))}
