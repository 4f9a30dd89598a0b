"""History truncation (CHARP §3.5, Table 2): keep the h most recent turns, the seeker's last included."""
from __future__ import annotations

from pathlib import Path


def variant_name(h) -> str:
    return f"h-{h}"


def variant_file(data: Path, dataset: str, split: str, h) -> Path:
    """The turns of one history variant: ('data', 'begin', 'test', 0) -> data/dialogue/begin/test/h-0.parquet."""
    return Path(data) / "dialogue" / dataset / split / f"{variant_name(h)}.parquet"


def parse_variant(h) -> int | None:
    """'full' -> None (keep everything); an int >= 0 -> that many turns."""
    if h == "full":
        return None
    if isinstance(h, int) and not isinstance(h, bool) and h >= 0:
        return h
    raise ValueError(f"history variant must be 'full' or an integer >= 0, not {h!r}")


def truncate_history(history: list, h) -> list:
    """The last ``h`` turns of ``history`` (all of it for 'full'; none for 0)."""
    keep = parse_variant(h)
    if keep is None:
        return list(history)
    return list(history[max(0, len(history) - keep):]) if keep else []


def truncated_rows(rows: list[dict], h) -> list[dict]:
    """Copies of ``rows`` with their history truncated to ``h`` turns."""
    return [{**row, "history": truncate_history(row["history"], h)} for row in rows]
