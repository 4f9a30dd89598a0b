"""CHARP (eCHARP, hCHARP): rows with row_idx, history, knowledge, response read from the Hub dataset
huawei-noah/CHARP's data files (never its loading script); row_idx indexes FaithDial validation turns,
which gives the matching "FaithDial valid (CHARP subset)" split."""
from __future__ import annotations

from pathlib import Path

from tasks.dialogue.turns import LoadResult, alternating_history, make_turn
from tasks.errors import PipelineError
from tasks.io import read_records

SOURCE = "charp"
SUBSET_SPLIT = "faithdial_valid_charp"


def _history(raw) -> list[dict] | None:
    if isinstance(raw, list) and all(isinstance(t, str) for t in raw):
        return alternating_history(raw)
    if isinstance(raw, list) and all(isinstance(t, dict) and {"speaker", "text"} <= set(t) for t in raw):
        return [{"speaker": t["speaker"], "text": t["text"]} for t in raw]
    return None


def load_charp(raw_dir: Path, files: dict[str, str], valid_rows: list[dict], valid_count: int) -> LoadResult:
    """Read each CHARP file (split name -> file name), resolve row_idx against the FaithDial valid turns
    (``valid_rows``: kept turns; ``valid_count``: turns read), and add the FaithDial valid subset.

    Rejected, with the reason: a row_idx that is not an integer, out of range, repeated, or that points
    to an unusable FaithDial turn. eCHARP and hCHARP must cover the same row_idx set."""
    by_index = {row["provenance"]["index"]: row for row in valid_rows}
    result, seen_by_split = LoadResult(), {}
    for split, file in files.items():
        seen = set()
        for index, item in enumerate(read_records(Path(raw_dir) / file, f"{SOURCE}/{file}")):
            row_idx = item.get("row_idx") if isinstance(item, dict) else None
            reason = None
            if not isinstance(row_idx, int) or isinstance(row_idx, bool):
                reason = "malformed_row_idx"
            elif not 0 <= row_idx < valid_count:
                reason = "row_idx_out_of_range"
            elif row_idx in seen:
                reason = "duplicate_row_idx"
            elif row_idx not in by_index:
                reason = "row_idx_unusable_faithdial_turn"
            elif (history := _history(item.get("history"))) is None:
                reason = "malformed_history"
            if reason:
                result.reject(SOURCE, file, index, reason)
                continue
            seen.add(row_idx)
            row = make_turn(id=f"{split}:{row_idx}", split=split, dialogue_id=by_index[row_idx]["dialogue_id"],
                            history=history, knowledge=item.get("knowledge"), response=item.get("response"),
                            source=SOURCE, file=file, index=index)
            result.add(SOURCE, file, index, row)
        seen_by_split[split] = seen
    sets = list(seen_by_split.values())
    if len(sets) > 1 and any(s != sets[0] for s in sets[1:]):
        names = list(seen_by_split)
        differ = len(set.union(*sets) - set.intersection(*sets))
        raise PipelineError(f"CHARP files {names} do not hold the same row_idx set ({differ} row_idx differ)")
    for row_idx in sorted(set.union(*sets) if sets else set()):
        result.splits[SUBSET_SPLIT].append({**by_index[row_idx], "split": SUBSET_SPLIT})
    return result
