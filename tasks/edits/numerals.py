"""What the number, date, tense and addition edits take for a number: a year, a number in digits, a decade, a day
of the month, an ordinal word, in English, French, German and Swedish."""
from __future__ import annotations

import re
from functools import lru_cache

from tasks.edits import lexicons

YEAR = re.compile(r"(?<![\w.,])(1[0-9]{3}|20[0-9]{2})(?![\w])")
DECADE = re.compile(r"(?<![\w.,])(1[0-9]{2}0|20[0-2]0)(?:s|er)\b")  # 'the 1980s', 'den 1980er Jahren'
LAST_PAST_YEAR = 2023  # the sources are older: a year up to this one is in the past
DAY_LINK = "(?:" + lexicons.alternation("number_day_link") + ")"  # '21 to 28 January', '20 or 28 December'
ORDINAL = re.compile(lexicons.alternation("number_ordinal"), re.IGNORECASE)  # matched whole: 'third', 'dritten'


LANGS = ("en", "fr", "de", "sv")


@lru_cache(maxsize=None)
def months_of(langs: tuple[str, ...]) -> re.Pattern:
    """A case-insensitive whole-word pattern of the month names of ``langs``."""
    names = sorted({k for lang in langs for k in lexicons.pairs("months", lang)}, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in names) + r")(?![\w-])", re.IGNORECASE)


def is_day(text: str, m: re.Match, lang: str) -> bool:
    """A day of the month: next to a month name of any of the four languages ('July 4', '4 juillet', '4. Juli',
    and '6 January' left untranslated in a German sentence), or to another day of a range, list or alternative
    that is ('from 21 to 28 January', 'March 15 and 16', 'am 20. oder 28. Dezember')."""
    if lexicons.pattern("months", lang) is None:
        return False
    pat = months_of(LANGS)
    days = rf"(?:\s*{DAY_LINK}\s*\d{{1,2}}\.?)*"
    after = re.match(rf"\.?{days}\s+(\w+)", text[m.end():])
    before = re.search(rf"(\w+)\s+(?:\d{{1,2}}\.?{days}\s*{DAY_LINK}\s*)?$", text[:m.start()])
    return any(w is not None and pat.fullmatch(w.group(1)) for w in (after, before))


def foreign_month(text: str, lang: str) -> str | None:
    """A month name of another of the four languages, one ``lang`` spells otherwise, beside a number: a date left
    half translated ('am 6 January 2015', 'En November 1989'); None where there is none ('May Robison', a name)."""
    own = months_of((lang,))
    others = months_of(tuple(x for x in LANGS if x != lang))
    for m in others.finditer(text):
        beside = re.search(r"\d\.?\s*$", text[:m.start()]) or re.match(r"\s*\d", text[m.end():])
        if beside and not own.fullmatch(m.group(1)):
            return m.group(1)
    return None
