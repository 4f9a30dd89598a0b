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
    """Parse a PAWS-X file. Bad rows (bytes that are not UTF-8, wrong field count, empty or NaN text in a
    ``required`` column, duplicate id, label not 0/1) are rejected with their line; a missing file or
    header is an InputError naming the file."""
    path = Path(path)
    name = name or str(path)
    if not path.is_file():
        raise InputError(f"{name}: file not found")
    rows, rejects, tally, seen = [], [], Tally(), set()
    with open(path, "rb") as fh:
        header = _decode(fh.readline())
        if header is None or header.rstrip("\r\n").split("\t") != HEADER:
            shown = header.rstrip("\r\n").split("\t") if header is not None else "(not UTF-8)"
            raise InputError(f"{name}: line 1: header {shown} is not {HEADER}")
        for line_no, raw in enumerate(fh, start=2):
            line = _decode(raw)
            if line is None:
                row_id = _decode(raw.split(b"\t", 1)[0]) or ""
                tally.reject("non_utf8")
                rejects.append(RowReject(name, line_no, row_id, "non_utf8"))
                continue
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


def file_accounting(tally: Tally, rejects: list[RowReject]) -> dict:
    """A file's counts plus the lines of its rejected rows by reason, for the metrics."""
    lines: dict[str, list[int]] = {}
    for r in rejects:
        lines.setdefault(r.reason, []).append(r.line)
    return {**tally.as_dict(), "rejected_lines": dict(sorted(lines.items()))}


def _decode(raw: bytes) -> str | None:
    """The UTF-8 text of one line, or None when its bytes are not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
