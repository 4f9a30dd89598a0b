"""What the number, date, tense and addition edits take for a number: a year, a number in digits, a decade, a day
of the month, an ordinal word, in English, French, German and Swedish."""
from __future__ import annotations

import re

from tasks.edits import lexicons

YEAR = re.compile(r"(?<![\w.,])(1[0-9]{3}|20[0-9]{2})(?![\w])")
DECADE = re.compile(r"(?<![\w.,])(1[0-9]{2}0|20[0-2]0)(?:s|er)\b")  # 'the 1980s', 'den 1980er Jahren'
LAST_PAST_YEAR = 2023  # the sources are older: a year up to this one is in the past
DAY_LINK = "(?:" + lexicons.alternation("number_day_link") + ")"  # '21 to 28 January', '20 or 28 December'
ORDINAL = re.compile(lexicons.alternation("number_ordinal"), re.IGNORECASE)  # matched whole: 'third', 'dritten'


def is_day(text: str, m: re.Match, lang: str) -> bool:
    """A day of the month: next to a month name ('July 4', '4 juillet', '4. Juli'), or to another day of a
    range, list or alternative that is ('from 21 to 28 January', 'March 15 and 16', 'am 20. oder 28. Dezember')."""
    pat = lexicons.pattern("months", lang)
    if pat is None:
        return False
    days = rf"(?:\s*{DAY_LINK}\s*\d{{1,2}}\.?)*"
    after = re.match(rf"\.?{days}\s+(\w+)", text[m.end():])
    before = re.search(rf"(\w+)\s+(?:\d{{1,2}}\.?{days}\s*{DAY_LINK}\s*)?$", text[:m.start()])
    return any(w is not None and pat.fullmatch(w.group(1)) for w in (after, before))
