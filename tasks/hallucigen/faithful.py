"""What a faithful translation keeps of its source, checked on a PAWS-X hyp+: every number of 100 or more (a year
dropped, '3 May 1947' -> 'le 3 mai', or changed, '2011' -> '2001'), and the spelling of the names it copies ('Jared
Swilley' -> 'Jared Willey', 'John Ruskin' -> 'John Rushin'). An example built on such a pair has a hyp+ the
annotator rejects (rule 1), whatever its edit."""
from __future__ import annotations

import re

from tasks.edits.names import spelling
from tasks.hallucigen.spelling import zipf

# A decade, written out in any of the three languages ('1970s', 'in den 1970er Jahren', 'les années 70', "the '60s"),
# names no single year: a translation may render it as another number.
DECADE = re.compile(r"(\d+)(?=s\b|er\b|er-Jahre)|(?:années|Jahren|decade)\s+(\d+)(?:\s*(?:et|und|and|à)\s*(\d+))?"
                    r"|'(\d\d)s?\b")
GROUPED = re.compile(r"(?<=\d)[ ,.\u202f\u00a0’'](?=\d{3}\b)")  # '90,000', '90 000', '90.000'
LARGE = 100  # a number below it may be written out ('sixteen', 'seize', 'achte')
# Two capitalised words in a row, not opening the text: a first name and a family name, or a name and its kind.
NAME_PAIR = re.compile(r"(?=(?<![\w'’.-])([A-ZÀ-Þ][^\W\d_]+) ([A-ZÀ-Þ][^\W\d_]+)(?![\w'’-]|\.\w))")
RARE = 2.5  # Zipf frequency under which a word of the target language is a name, not a translation ('Poutine')


def _numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", GROUPED.sub("", text))}


def _decades(text: str) -> set[int]:
    return {v for m in DECADE.finditer(text) for g in m.groups() if g for v in (int(g), int(g) % 100)}


def number_unlike_source(text: str, source: str) -> int | None:
    """A number of 100 or more that ``text`` or its ``source`` has and the other lacks; not a decade nor the
    second year of a range written short ('2008 -- 09' for '2008/2009')."""
    ours, theirs = _numbers(text), _numbers(source)
    either, skip = ours | theirs, _decades(text) | _decades(source)
    odd = sorted(v for v in ours ^ theirs if v >= LARGE and v not in skip and v % 100 not in either)
    return odd[0] if odd else None


def _distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def respelt_name(text: str, source: str, lang: str) -> str | None:
    """A name of ``text`` that respells one of its ``source``: of two capitalised words in a row (not opening
    either text) one is the source's and the other, a word the source lacks and ``lang`` rarely uses, is at most
    two letters from the word it stands for there (three with the same first letter), and not just its accent or
    genitive ('Eckstines'). Either side may hold the slip: the pair disagrees on the name ('Aleksej Greig' for
    'Aleksey Greig', a transliteration, counts too)."""
    ours, theirs = set(re.findall(r"\w+", text)), set(re.findall(r"\w+", source))
    pairs = {m.groups() for m in NAME_PAIR.finditer(text) if m.start() > 0}
    for a, b in {m.groups() for m in NAME_PAIR.finditer(source) if m.start() > 0}:
        for c, d in pairs:
            was, now = (b, d) if a == c and b != d else (a, c) if b == d and a != c else (None, None)
            if (now is not None and now not in theirs and was not in ours and spelling(now) != spelling(was)
                    and _distance(now, was) <= (3 if now[0] == was[0] else 2) and zipf(now, lang) < RARE
                    and now not in (was + "s", was + "n") and was not in (now + "s", now + "n")):
                return now
    return None
