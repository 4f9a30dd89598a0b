"""ACES (Amrhein et al. 2022) challenge-set rows as HalluciGen translation candidates.

Upstream raw file data/challenge_set.jsonl of Hub dataset nikitam/ACES (fields include source,
good-translation, incorrect-translation, reference, phenomena, langpair). Phenomena map to HalluciGen
types by PHENOMENA below; unmapped phenomena and other language pairs are counted rejects."""
from __future__ import annotations

from pathlib import Path

from tasks.hallucigen.build import candidate
from tasks.hallucigen.select import Candidate
from tasks.io import read_records
from tasks.rows import BadField, mapping, text
from tasks.stats import Tally

# ACES phenomenon -> HalluciGen type (overview §2: the types other than tense and negation come from ACES).
PHENOMENA = {
    "addition": "addition",
    "named-entity": "named-entity", "hallucination-named-entity-level-1": "named-entity",
    "hallucination-named-entity-level-2": "named-entity", "hallucination-named-entity-level-3": "named-entity",
    "hallucination-number-level-1": "number", "hallucination-number-level-2": "number",
    "hallucination-number-level-3": "number", "number": "number",
    "hallucination-unit-conversion-amount-matches-ref": "conversion",
    "hallucination-unit-conversion-unit-matches-ref": "conversion", "conversion": "conversion",
    "hallucination-date-time": "date", "date-time": "date",
    "wrong-gender": "gender", "coreference-based-on-commonsense": "pronoun",
    "antonym-replacement": "antonym", "antonym": "antonym",
    "pronoun": "pronoun",
}
ACES_TYPES = frozenset(PHENOMENA.values())  # the nine types ACES supplies (all but tense and negation)


def aces_candidates(path: Path, directions: list[str]) -> tuple[dict[str, list[Candidate]], Tally]:
    """Candidates per type for the given directions, and the read/kept/rejected tally."""
    out: dict[str, list[Candidate]] = {}
    tally = Tally()
    for index, row in enumerate(read_records(path, "aces/challenge_set.jsonl")):
        parsed = _aces_row(row, directions)
        if isinstance(parsed, str):
            tally.reject(parsed)
            continue
        tally.keep()
        type_, (source, good, bad) = parsed
        out.setdefault(row["langpair"], []).append(candidate(
            "translation", row["langpair"], source, good, "aces", type_, bad, f"aces:{index}",
            detail=f"aces:{row['phenomena']}"))
    return out, tally


def _aces_row(row, directions: list[str]) -> tuple[str, tuple[str, str, str]] | str:
    """(type, (source, good, incorrect)) of a usable row, or why it is not: another language pair, an unmapped
    phenomenon, a text that is missing or not a string, a good translation equal to the incorrect one."""
    try:
        row = mapping(row, "row")
    except BadField as bad:
        return bad.reason
    type_ = PHENOMENA.get(row["phenomena"]) if isinstance(row.get("phenomena"), str) else None
    if row.get("langpair") not in directions:
        return "other_langpair"
    if type_ is None:
        return "unmapped_phenomenon"
    try:
        texts = tuple(text(row.get(k), "text") for k in ("source", "good-translation", "incorrect-translation"))
    except BadField as bad:
        return bad.reason
    return "good_equals_incorrect" if texts[1] == texts[2] else (type_, texts)
