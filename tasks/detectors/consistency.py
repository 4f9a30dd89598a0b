"""Consistency-rule detector: numbers, dates (years, month names), names, units and negations that a
hypothesis has and its source does not support. Digits, names and many units are shared across languages,
so the rules also work for translation; month names are compared by month number across en/fr/de/sv.
Score: the number of unsupported items, plus half the lexical dissimilarity (1 - token F1) to break ties."""
from __future__ import annotations

import re
from collections import Counter

from tasks.detectors.base import ScoringDetector
from tasks.edits import lexicons
from tasks.text import DIGITS, token_f1

LANGS = ("en", "fr", "de", "sv")
NAME = re.compile(r"(?<=[\s(\"'])[A-ZÀ-ÖØ-Þ][\w-]+")
NEGATORS = {
    "en": r"not|no|never|none|nobody|nothing|neither|nor|n't",
    "fr": r"pas|jamais|aucun|aucune|rien|ni",
    "de": r"nicht|kein|keine|keiner|keinen|keinem|keines|nie|niemals|nichts|weder",
    "sv": r"inte|ej|aldrig|ingen|inget|inga|ingenting|varken",
}
NEGATION = re.compile(r"(?<![\w])(?:" + "|".join(NEGATORS.values()) + r")(?![\w])|n't\b", re.IGNORECASE)


def _month_numbers() -> dict[str, int]:
    return {m.lower(): k for lang in LANGS for k, m in enumerate(lexicons.words("months", lang))}


MONTHS = _month_numbers()
# Case-sensitive, as written and capitalised: English "may" the verb is no month, "May" is.
MONTH_FORMS = sorted({f for lang in LANGS for m in lexicons.words("months", lang) for f in (m, m.capitalize())},
                     key=len, reverse=True)
MONTH = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, MONTH_FORMS)) + r")(?![\w])")
UNITS = sorted({u.lower() for lang in LANGS for pair in lexicons.rows("units", lang) for u in pair if u}, key=len,
               reverse=True)
UNIT = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, UNITS)) + r")(?![\w])", re.IGNORECASE)


def unsupported(source: str, hyp: str) -> dict[str, int]:
    """Per rule, how many items of ``hyp`` its source does not support."""
    def missing(found_hyp, found_src) -> int:
        return sum((Counter(found_hyp) - Counter(found_src)).values())

    return {
        "numbers": missing(DIGITS.findall(hyp), DIGITS.findall(source)),
        "months": missing([MONTHS[m.lower()] for m in MONTH.findall(hyp)],
                          [MONTHS[m.lower()] for m in MONTH.findall(source)]),
        "names": len({n for n in NAME.findall(hyp) if n.lower() not in MONTHS and n.lower() not in source.lower()}),
        "units": missing([u.lower() for u in UNIT.findall(hyp)], [u.lower() for u in UNIT.findall(source)]),
        "negation": int(len(NEGATION.findall(source)) % 2 != len(NEGATION.findall(hyp)) % 2),
    }


class ConsistencyDetector(ScoringDetector):
    def __init__(self, name: str):
        self.name = name

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        return [round(sum(unsupported(s, h).values()) + 0.5 * (1.0 - token_f1(s, h)), 6) for s, h in zip(sources, hyps)]
