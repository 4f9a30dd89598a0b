"""The offline eCHARP/hCHARP analogue: DSTC11 turns that annotators rewrote by CHARP's rules (Appendix A.2,
adapted in curation/charp_offline/brief.md) into two forms that share history, knowledge and response: hCHARP,
whose last user turn can only be answered from the history ('Do they allow pets?'), and eCHARP, the same
request made self-contained ('Does the Acorn Guest House allow pets?'). Rows have the schema of the `charp`
loader (splits echarp and hcharp over the same source turns), so the CHARP stages read either alike.

Each annotated line is kept or rejected with the first reason a filter gives (``EXAMPLE_FILTERS``); a line the
second annotator judged invalid (the review sheet) is rejected as judged_invalid."""
from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from pathlib import Path

from tasks.dialogue.dstc11 import load_dstc11
from tasks.dialogue.turns import SEEKER, WIZARD, LoadResult, make_turn
from tasks.errors import InputError

SOURCE = "charp_offline"
SPLITS = ("echarp", "hcharp")
FIELDS = ("history", "reasoning", "hcharp_last_turn", "echarp_last_turn", "knowledge", "response")
REASONING = ("coreference", "temporal", "geospatial", "taxonomic")  # what the hCHARP turn needs the history for (§4.1)
SPEAKER_OF = {"User": SEEKER, "Bot": WIZARD}


def words(text: str) -> int:
    return len(text.split())


def norm(text: str) -> str:
    """Lower case, letters and digits only, single spaces: 'The Acorn Guest-House!' -> 'the acorn guest house'."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def place_names(knowledge: str) -> set[str]:
    """The normalised place names a DSTC11 knowledge text is about, without a leading 'the' (each line opens
    with one: 'HOBSONS HOUSE (review): ...' -> {'hobsons house'})."""
    names = {norm(line.split(" (", 1)[0]) for line in knowledge.split("\n") if " (" in line}
    return {re.sub(r"^the ", "", n) for n in names if n}


def parsed_history(lines) -> list[dict] | None:
    """'User: ...' / 'Bot: ...' lines as history turns, or None for any other line."""
    if not isinstance(lines, list) or not lines:
        return None
    turns = []
    for line in lines:
        speaker, _, said = line.partition(": ") if isinstance(line, str) else ("", "", "")
        if speaker not in SPEAKER_OF or not said.strip():
            return None
        turns.append({"speaker": SPEAKER_OF[speaker], "text": said.strip()})
    return turns


# --- Filters: each returns the reason an annotated line gives no example, or None --------------------------

Check = Callable[[dict, dict | None, int], "str | None"]


def skipped(item: dict, source: dict | None, max_words: int) -> str | None:
    """The annotator skipped the source turn (its knowledge supports no single answer)."""
    return "skipped_by_annotator" if "skip" in item else None


def missing_field(item: dict, source: dict | None, max_words: int) -> str | None:
    """A field of FIELDS is missing, empty or malformed (a history line that is not 'User: ...'/'Bot: ...')."""
    texts_ok = all(isinstance(item.get(f), str) and item[f].strip() for f in FIELDS if f != "history")
    return None if texts_ok and parsed_history(item.get("history")) is not None else "missing_field"


def unknown_reasoning(item: dict, source: dict | None, max_words: int) -> str | None:
    """``reasoning`` is not one of CHARP's four kinds (REASONING): 'coreference', not 'coreference: it refers...'."""
    return None if item["reasoning"] in REASONING else "unknown_reasoning"


def unknown_source_turn(item: dict, source: dict | None, max_words: int) -> str | None:
    """``source_id`` names no DSTC11 turn that the dstc11 loader keeps."""
    return "unknown_source_turn" if source is None else None


def knowledge_too_long(item: dict, source: dict | None, max_words: int) -> str | None:
    """The knowledge is over ``max_words`` words (CHARP: 1-2 sentences, at most 30 words)."""
    return "knowledge_over_max_words" if words(item["knowledge"]) > max_words else None


def hard_turn_names_place(item: dict, source: dict | None, max_words: int) -> str | None:
    """The hCHARP turn names the place it asks about ('Does Hobsons House ...'): it no longer needs the history."""
    turn = f" {norm(item['hcharp_last_turn'])} "
    return "hcharp_names_place" if any(f" {name} " in turn for name in place_names(source["knowledge"])) else None


def same_last_turn(item: dict, source: dict | None, max_words: int) -> str | None:
    """The two forms ask in the same words: nothing was made self-contained."""
    return "same_last_turn" if norm(item["hcharp_last_turn"]) == norm(item["echarp_last_turn"]) else None


EXAMPLE_FILTERS: tuple[Check, ...] = (skipped, missing_field, unknown_reasoning, unknown_source_turn,
                                      knowledge_too_long, hard_turn_names_place, same_last_turn)


def judged_invalid(path: Path | None) -> set[str]:
    """The source ids the second annotator judged invalid (review sheet column verdict: valid | invalid)."""
    if path is None:
        return set()
    if not path.is_file():
        raise InputError(f"{path}: the charp_offline review sheet is missing")
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    bad = [i for i, r in enumerate(rows, 2) if r.get("verdict") not in ("valid", "invalid")]
    if bad:
        raise InputError(f"{path}: row {bad[0]}: verdict must be 'valid' or 'invalid'")
    return {r["source_id"] for r in rows if r["verdict"] == "invalid"}


def load_charp_offline(raw_root: Path, root: Path, options: dict, seed: int) -> LoadResult:
    """Both forms of every annotated example that passes the filters and the review (``options``: examples, the
    JSON-lines file; review, the judged sheet or null; max_knowledge_words), relative to ``root``."""
    turns = {row["id"]: row for rows in load_dstc11(Path(raw_root) / "dstc11-track5", {"all": 1.0}, seed)
             .splits.values() for row in rows}
    path = Path(root) / options["examples"]
    invalid = judged_invalid(Path(root) / options["review"] if options.get("review") else None)
    result, seen, file = LoadResult(), set(), path.name
    for index, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            item = None
        if not isinstance(item, dict) or not isinstance(item.get("source_id"), str):
            result.reject(SOURCE, file, index, "malformed_line")
            continue
        sid, source = item["source_id"], turns.get(item["source_id"])
        reason = next((r for check in EXAMPLE_FILTERS if (r := check(item, source, options["max_knowledge_words"]))),
                      None)
        if reason is None and sid in seen:
            reason = "duplicate_source_id"
        if reason is None and sid in invalid:
            reason = "judged_invalid"
        if reason:
            result.reject(SOURCE, file, index, reason)
            continue
        seen.add(sid)
        for split in SPLITS:
            history = [*parsed_history(item["history"]), {"speaker": SEEKER, "text": item[f"{split}_last_turn"]}]
            row = make_turn(id=f"{split}:{sid}", split=split, dialogue_id=source["dialogue_id"], history=history,
                            knowledge=item["knowledge"], response=item["response"], source=SOURCE, file=file,
                            index=index)
            result.splits[split].append(row)
        result.tallies[file].keep()
    return result
