"""The date edit: a year shifts by 1-10, a day of the month by 1-3, or a month name changes, keeping the format
and the order of the text's other dates ('In 1999 and 2003' never becomes 'In 1999 and 1997')."""
from __future__ import annotations

import re

from tasks.edits import lexicons
from tasks.edits.context import Context
from tasks.edits.numerals import LAST_PAST_YEAR, YEAR, is_day
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span
from tasks.text import NUMBER

SEASON_END = re.compile(r"\s*(?:--|–|-|/)\s*\d{2}(?!\d)")


def year_shifts(text: str, m: re.Match) -> list[int]:
    """Shifts of 1-10 for the year ``m`` that keep a past year past and its order with every other year of the
    text ('In 1999 and 2003' never becomes 'In 1999 and 1997'); none for a year written twice, nor for one that
    opens a season ('the 2008 -- 09 season' would become '2012 -- 09')."""
    if SEASON_END.match(text[m.end():]):
        return []
    year = int(m.group(0))
    others = [int(y.group(0)) for y in YEAR.finditer(text) if y.start() != m.start()]
    return [d for d in range(-10, 11) if d and (year > LAST_PAST_YEAR or year + d <= LAST_PAST_YEAR)
            and all((year + d > o) == (year > o) and (year + d < o) == (year < o) for o in others)]


IN_NAME = re.compile(r"\s+[A-Z][a-z]")  # an English month before a capitalised word names one: 'the June Movement'
NAME_BEFORE = re.compile(r"([A-ZÀ-Þ][\w-]*) $")  # a capitalised word right before


def year_of_a_name(text: str, m: re.Match, lang: str) -> bool:
    """A year right after a capitalised word that does not open the text and is no month: part of a name
    ('Agenda 2000', 'Euro 2016', 'Expo 2010'), whose change renames a thing instead of dating an event. Not in
    German, whose every noun is capitalised ('im Jahr 2000')."""
    word = NAME_BEFORE.search(text[:m.start()])
    months = lexicons.pattern("months", lang)
    return (lang != "de" and word is not None and text[:word.start()].strip(" \"'`«„“(") != ""
            and not (months is not None and months.fullmatch(word.group(1))))


def date(text: str, ctx: Context) -> Edit | Skip:
    """Shift a year by 1-10 (keeping its order with the text's other years; not one of a name:
    ``year_of_a_name``) or a day of the month by 1-3 (within 1-28), or change a month name, keeping the format."""
    months = lexicons.words("months", ctx.lang)
    month_pat = lexicons.pattern("months", ctx.lang)
    candidates = [("year", m) for m in YEAR.finditer(text)
                  if year_shifts(text, m) and not year_of_a_name(text, m, ctx.lang)]
    candidates += [("day", m) for m in NUMBER.finditer(text)
                   if len(m.group(0)) <= 2 and 1 <= int(m.group(0)) <= 31 and is_day(text, m, ctx.lang)]
    mentions = [m for m in (month_pat.finditer(text) if month_pat else [])  # English 'may' the verb is lower case
                if ctx.lang != "en" or (m.group(0)[0].isupper() and not IN_NAME.match(text[m.end():])
                                        and not re.search(rf"\b{m.group(0)}{IN_NAME.pattern}", ctx.source))]
    candidates += [("month", m) for m in mentions if month_choices(text, m, mentions, months)]
    if not candidates:
        return Skip("no_candidate")
    kind, m = ctx.rng.choice(candidates)
    if kind == "year":
        new = str(int(m.group(0)) + ctx.rng.choice(year_shifts(text, m)))
    elif kind == "day":
        day = int(m.group(0))
        new = str(ctx.rng.choice([d for d in range(day - 3, day + 4) if d != day and 1 <= d <= 28]))
    else:
        new = match_case(m.group(0), ctx.rng.choice(month_choices(text, m, mentions, months)))
    return replace_span(text, m.start(), m.end(), new, "date", f"{m.group(0)}->{new}")


MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # February: 28, a leap year or not
NEAR_DAY = re.compile(r"(?<![\d.,])(\d{1,2})(?!\d|[.,]\d)")


def month_choices(text: str, m: re.Match, mentions: list[re.Match], months: tuple[str, ...]) -> list[str]:
    """The months that can replace month mention ``m`` of ``text``: long enough for a day written beside it ('30
    April' never becomes '30 February'), and before or after each other month of ``mentions`` as ``m`` was; none
    where another mention is the same month ('sailed on 12 September, arrived on 16 September' never becomes a
    voyage from January)."""
    index = {w.lower(): k for k, w in enumerate(months)}
    old = index[m.group(0).lower()]
    beside = NEAR_DAY.findall(f"{text[max(0, m.start() - 12):m.start()]} {text[m.end():m.end() + 5]}")
    day = max((int(d) for d in beside if 1 <= int(d) <= 31), default=1)
    others = [index[o.group(0).lower()] for o in mentions if o.start() != m.start()]
    return [w for k, w in enumerate(months) if k != old and MONTH_DAYS[k] >= day
            and all((k > o) - (k < o) == (old > o) - (old < o) for o in others)]
