"""Typed checks of raw input fields, shared by every reader: a field of the wrong type or with no content
is a counted reject with a reason naming the field, never a traceback and never a silent keep.

Each check returns the clean value or raises ``BadField(reason)``; a reader catches it and counts the
reason with the row's file and index, e.g. ``text(123, "response")`` raises ``BadField("response_not_a_string")``.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

from tasks.errors import InputError

# Text that stands for a missing value in the raw files (compared after strip and lower-casing).
MISSING_TEXT = frozenset({"", "nan", "none", "null"})


class BadField(Exception):
    """A raw field that cannot be used; ``reason`` is the counted reject reason."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def is_missing(value) -> bool:
    """None, NaN, or a string such as '', ' nan ' or 'None' that holds no content."""
    return value is None or (isinstance(value, float) and math.isnan(value)) or (
        isinstance(value, str) and value.strip().lower() in MISSING_TEXT)


def text(value, field: str) -> str:
    """The stripped string ``value``; 'empty_<field>' when missing, '<field>_not_a_string' when not a string."""
    if is_missing(value):
        raise BadField(f"empty_{field}")
    if not isinstance(value, str):
        raise BadField(f"{field}_not_a_string")
    return value.strip()


def optional_text(value, field: str) -> str | None:
    """Like ``text``, but a missing value is None."""
    return None if is_missing(value) else text(value, field)


def boolean(value, field: str) -> bool:
    """A JSON true/false; anything else ('false' as a string, 0, null) is '<field>_not_a_boolean'."""
    if not isinstance(value, bool):
        raise BadField(f"{field}_not_a_boolean")
    return value


def mapping(value, field: str) -> dict:
    """A JSON object; anything else (null, a list) is '<field>_not_an_object'."""
    if not isinstance(value, dict):
        raise BadField(f"{field}_not_an_object")
    return value


def sequence(value, field: str) -> list:
    """A JSON list; anything else is '<field>_not_a_list'."""
    if not isinstance(value, list):
        raise BadField(f"{field}_not_a_list")
    return value


def integer_text(value: str, field: str) -> int:
    """The integer a text field spells ('6' -> 6); 'x6' is '<field>_not_a_number'."""
    stripped = value.strip()
    if not stripped.isascii() or not stripped.isdigit():
        raise BadField(f"{field}_not_a_number")
    return int(stripped)


def decoded_lines(path: str | Path, name: str) -> Iterator[tuple[int, bytes, str | None]]:
    """(1-based line number, the line's bytes, its text or None when the bytes are not UTF-8) of a text
    file, so that a reader counts a bad line as a reject instead of failing on the whole file; a missing file
    is an InputError naming it."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{name}: file not found")
    with open(path, "rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            try:
                yield line_no, raw, raw.decode("utf-8")
            except UnicodeDecodeError:
                yield line_no, raw, None
