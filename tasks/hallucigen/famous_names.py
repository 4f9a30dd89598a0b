"""Named-entity swaps that touch a famous name. A full name a language model completes from its first name
('A biography of Marvin' -> 'Gaye') is one readers know: a swapped first name there ('Bob Gaye', 'William Jackson,
Prince und Madonna', 'Kevin Grimes' for Britten's opera) is spotted without the source, and a swap that makes a
famous name ('Victor Fleming' -> 'Alexander Fleming') names the wrong kind of person. Both are detectable
without the source (rule 5 of the brief); such candidates give no example (decision 0014)."""
from __future__ import annotations

import re

from tasks.detectors.hypothesis_only import continuation_nll
from tasks.edits.context import PERSON_LABELS
from tasks.hallucigen.select import Candidate
from tasks.stats import Tally

FRAME = "A biography of"
# A famous pair: the family name costs at most MAX_NLL nats after the first name, which saves at least MIN_SAVING
# nats on it (Marvin Gaye 6.9/7.8 is one; Alan Wilkinson 7.0/4.9 is not). Calibration: decision 0014.
MAX_NLL = 7.5
MIN_SAVING = 5.5
NEXT_NAME = re.compile(r"\s+([A-ZÀ-ÖØ-Þ][\w'’-]+)")


def first_name_swap(row: dict) -> tuple[str, str, str] | None:
    """(old first name, new first name, the name word after it) of a named-entity row that swapped a person's
    first name; None for any other row."""
    label = row["edit_detail"].split(":", 1)[0]
    if row["type"] != "named-entity" or label not in PERSON_LABELS | {"NAME"} or " " in row["edit_from"]:
        return None
    follows = NEXT_NAME.match(row["hyp_good"], row["edit_start"] + len(row["edit_from"]))
    return (row["edit_from"], row["edit_to"], follows.group(1)) if follows else None


def famous(names: list[tuple[str, str]], model: str) -> set[tuple[str, str]]:
    """The (first name, family name) pairs of ``names`` that causal LM ``model`` knows as one person's name."""
    names = sorted(set(names))
    families = sorted({family for _, family in names})
    alone = dict(zip(families, continuation_nll([(FRAME, f" {family}") for family in families], model)))
    after = continuation_nll([(f"{FRAME} {first}", f" {family}") for first, family in names], model)
    return {(first, family) for (first, family), nll in zip(names, after)
            if nll <= MAX_NLL and alone[family] - nll >= MIN_SAVING}


def drop_famous_swaps(candidates: dict[str, list[Candidate]], tally: Tally, model: str | None) -> None:
    """Remove from ``candidates`` (by type) the first-name swaps that leave or make a famous name, each a reject
    'famous_name' of ``tally`` (the named-entity tally); none when ``model`` is None (params: name_lm null)."""
    swaps = [first_name_swap(c.row) for c in candidates.get("named-entity", [])]
    if model is None or not any(swaps):
        return
    known = famous([(first, family) for swap in swaps if swap for first in swap[:2] for family in swap[2:]], model)
    kept = []
    for cand, swap in zip(candidates["named-entity"], swaps):
        if swap and ((swap[0], swap[2]) in known or (swap[1], swap[2]) in known):
            tally.revoke("famous_name")
        else:
            kept.append(cand)
    candidates["named-entity"] = kept
