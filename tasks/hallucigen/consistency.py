"""Consistency checks of a paraphrase against its source: no number or name the source lacks (a
paraphrase may drop one: that omits, it does not hallucinate), negation parity preserved, and a lexical
similarity above a threshold. A SHROOM paraphrase that fails them is a natural hallucination."""
from __future__ import annotations

import re
from collections import Counter

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
NAME = re.compile(r"(?<=\s)[A-Z][a-zA-Z]+")
NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor)\b|n't\b", re.IGNORECASE)
WORD = re.compile(r"\w+")


def token_f1(a: str, b: str) -> float:
    """F1 of the lower-cased word multisets of a and b."""
    ca, cb = Counter(WORD.findall(a.lower())), Counter(WORD.findall(b.lower()))
    common = sum((ca & cb).values())
    if not common:
        return 0.0
    p, r = common / sum(cb.values()), common / sum(ca.values())
    return 2 * p * r / (p + r)


def failed_checks(source: str, hyp: str, min_similarity: float) -> list[str]:
    """The checks ``hyp`` fails against ``source`` (empty: consistent)."""
    failed = []
    if Counter(NUMBER.findall(hyp)) - Counter(NUMBER.findall(source)):
        failed.append("numbers")
    if set(NAME.findall(hyp)) - set(NAME.findall(source)):  # the first word is no name: it is capitalised anyway
        failed.append("names")
    if len(NEGATION.findall(source)) % 2 != len(NEGATION.findall(hyp)) % 2:
        failed.append("negation")
    if token_f1(source, hyp) < min_similarity:
        failed.append("similarity")
    return failed
