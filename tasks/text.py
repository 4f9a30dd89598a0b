"""Tokenisation shared by the edits, the HalluciGen checks and the detectors: words, numbers and the token F1
between two texts. Two number patterns, because two questions are asked of a text:

- ``NUMBER``: a number standing on its own, the one an edit may change ('in 1947', '3.5 km'; not the '3' of
  '3rd' nor the '4' of 'A4');
- ``DIGITS``: every run of digits, inside a word too, to compare the numbers two texts state ('COVID-19',
  '3rd' -> '19', '3')."""
from __future__ import annotations

import re
from collections import Counter

WORD = re.compile(r"\w+")
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
