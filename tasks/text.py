"""Tokenisation shared by the edits, the HalluciGen checks and the detectors: words, numbers and the token F1
between two texts. Two number patterns, because two questions are asked of a text:

- ``NUMBER``: a number standing on its own, the one an edit may change ('in 1947', '3.5 km'; not the '3' of
  '3rd' nor the '4' of 'A4');
- ``DIGITS``: every run of digits, inside a word too, to compare the numbers two texts state ('COVID-19',
  '3rd' -> '19', '3')."""
from __future__ import annotations

import re
from collections import Counter

WORD = re.compile(r"[^\W_]+")  # letters and digits: a blank '_ _' is no word
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def token_f1(a: str, b: str) -> float:
    """F1 of the lower-cased word multisets of a and b: token_f1('The cat sat', 'the cat ran') -> 0.667."""
    ca, cb = Counter(WORD.findall(a.lower())), Counter(WORD.findall(b.lower()))
    common = sum((ca & cb).values())
    if not common:
        return 0.0
    p, r = common / sum(cb.values()), common / sum(ca.values())
    return 2 * p * r / (p + r)


def words(text: str) -> list[str]:
    """The lower-cased words of ``text``, case, spacing, punctuation and blanks aside: words('Houston, we got a
    problem! _ _') -> ['houston', 'we', 'got', 'a', 'problem']."""
    return WORD.findall(text.lower())


def word_edits(a: str, b: str, bound: int = 2) -> int:
    """The word-level edit distance (insertions, deletions, substitutions) of ``a`` and ``b``, capped at ``bound``:
    word_edits('We got a problem.', 'we have a problem') -> 1."""
    x, y = words(a), words(b)
    if abs(len(x) - len(y)) >= bound:
        return bound
    prev = list(range(len(y) + 1))
    for i, wx in enumerate(x, 1):
        cur = [i]
        for j, wy in enumerate(y, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (wx != wy)))
        if min(cur) >= bound:
            return bound
        prev = cur
    return min(prev[-1], bound)


def copies(a: str, b: str) -> bool:
    """``b`` says ``a`` word for word, case, spacing and punctuation aside: copies('Houston, we got a problem.',
    'Houston we got a problem!') -> True."""
    return words(a) == words(b)


def near_copy(a: str, b: str) -> bool:
    """``b`` copies ``a`` or changes at most one word of it: near_copy('We got a problem.', 'We have a problem.')."""
    return word_edits(a, b) <= 1
