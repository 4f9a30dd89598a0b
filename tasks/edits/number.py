"""The number edit: a number in digits moves up or down, keeping its form, or a number word becomes another;
never where the change would contradict the rest of the sentence ('three children: Anne, Paul and Eve')."""
from __future__ import annotations

import re

from spacy.tokens import Doc

from tasks.edits import lexicons
from tasks.edits.context import Context, token_at
from tasks.edits.numerals import DAY_LINK, ORDINAL, YEAR, is_day
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import replace_span, swap_match
from tasks.text import NUMBER


def _is_list_number(text: str, m: re.Match) -> bool:
    """List numbering: a number opening the text or a line, followed by '.' or ')', or written '(3)' or, opening
    the text, in quotes ('"2" Benjamin Hough was married': a footnote marker, no claim)."""
    before, after = text[:m.start()], text[m.end():]
    opens = before.strip() == "" or before.endswith("\n") or before.rstrip().endswith((":", ";"))
    quoted = re.fullmatch(r"\s*(?:``|[\"„“«'])\s*", before) and re.match(r"\s*(?:''|[\"“”»'])", after)
    return bool((opens and after[:1] in (".", ")")) or (before.endswith("(") and after.startswith(")")) or quoted)


DECADE_WORDS = lexicons.entry_set("number_decade_words")
INDEFINITE = "(?:" + lexicons.alternation("number_indefinite") + ")"
# named items ('Anne and Eve', quoted titles: "`` Wendell Scott '' and `` Herschel ''", or three names by commas
# alone: 'trois fils, Cole, Lukas, Owen') or items with an indefinite article ('a girl , Jahnavi ( born 2001 ) and a
# boy') or places each with its preposition ('Ses deux filles sont mortes ..., à Tosca en 1976 et à Janear en 1981')
ENUMERATION = re.compile(r":|[A-ZÀ-Þ][\w'-]*\s*(?:''|\"|”|»)?\s+(?:and|et|und|och|&)\s+(?:``|\"|“|«)?\s*[A-ZÀ-Þ]"
                         r"|[A-ZÀ-Þ][\w'-]*\s*,\s*[A-ZÀ-Þ][\w'-]*\s*,\s*[A-ZÀ-Þ]"
                         rf"|,\s*{INDEFINITE}\s+\w+[^.;]{{0,80}}?\s(?:and|et|und|och)\s+{INDEFINITE}\s+\w+"
                         r"|\b(à|in|at|im|i)\s+[A-ZÀ-Þ][^.;]{0,60}?\s(?:and|et|und|och)\s+\1\s+[A-ZÀ-Þ]")
# an ordinal after these names one of a group ('one of the first botanical collections'), and one before
# 'of <number>' a place in a counted series ('the third of three hotels'): a changed rank reads as wrong
GROUP_OF = re.compile(r"\b(?:one|some|many|among|l'une?|l’une?|parmi|einer|eine|eines|bland|en|ett)\s+"
                      r"(?:of\s+)?(?:the|des|les|der|den|de)\s+$", re.IGNORECASE)
# an ordinal before these is a fixed phrase, not a rank ('third countries', 'the Third World', 'tredje världen'),
# or ranks one of two halves ('der dritten Hälfte des ersten Jahrhunderts')
FIXED_ORDINAL_HEAD = lexicons.entry_set("number_fixed_ordinal_head")
# a number word inside these is no count or rank ("There's a second time for everything")
NUMBER_IDIOM = re.compile(r"\b(?:" + lexicons.alternation("number_idiom") + r")\b", re.IGNORECASE)
# Swedish 'andra' is also 'other' ('vissa andra delar' -> 'vissa tredje delar' is no rank): a rank only before
# a head that takes one
SECOND_NOT_OTHER = re.compile(r"andra\s+(?:" + lexicons.alternation("number_andra_heads_sv") + r")\b", re.IGNORECASE)
# a birth or marriage rank beside a sibling's age ('the second son ..., his elder brother' -> 'the first son'):
# the new rank may contradict it
FAMILY_RANK = re.compile(r"\s+(?:" + lexicons.alternation("number_family_rank") + r")\b", re.IGNORECASE)
SIBLING_AGE = re.compile(r"\b(?:" + lexicons.alternation("number_sibling_age") + r")\b", re.IGNORECASE)
DEFINITE_PLURAL = lexicons.entry_set("number_definite_plural")
NUMBER_WORDS = {w for lang in ("en", "fr", "de", "sv") for pair in lexicons.rows("numbers", lang) for w in pair}
CARDINALS = {w for w in NUMBER_WORDS if " " not in w and not ORDINAL.fullmatch(w)}


def _counts_a_list(text: str, m: re.Match) -> bool:
    """A small count followed by the things it counts, named ('three children: Anne, Paul and Eve'): a
    changed count would contradict the list."""
    small = m.group(0).isdigit() and int(m.group(0)) <= 20 or m.group(0).lower() in NUMBER_WORDS
    return small and ENUMERATION.search(text[m.end():]) is not None


def _is_decade_or_score(text: str, m: re.Match) -> bool:
    """A decade ('les années 80') or one side of a score ('6 -- 4', '2–1'): values a change makes odd."""
    before = re.search(r"(\w+)\s+$", text[:m.start()])
    score = re.match(r"\s*(?:--|[-–:])\s*\d", text[m.end():]) or re.search(r"\d\s*(?:--|[-–:])\s*$", text[:m.start()])
    return bool(score) or (before is not None and before.group(1).lower() in DECADE_WORDS)


ERA = re.compile(r"\s*(?:" + lexicons.alternation("number_era") + ")")


MEASURE = {w.lower() for lang in ("en", "fr", "de", "sv") for pair in lexicons.rows("units", lang)
           for w in pair} | lexicons.entry_set("number_measure_words")


def _names_a_model(text: str, m: re.Match, lang: str) -> bool:
    """A number right after a name inside the sentence ('Mercedes 190', 'Opel Omega 3000', 'Apollo 11'): part of a
    name or designation, not a count. Not a measure ('mit seinem Bruder 25 km'), a day after its month, nor after
    a word opening a sentence ('Over 40 people')."""
    before = re.search(r"(?<=[^\s.!?:;])\s+([A-ZÀ-ÞÅÄÖ][\w-]*)\s+$", text[:m.start()])
    after = re.match(r"\s*(%|[^\W\d_]+)", text[m.end():])
    return (before is not None and not lexicons.pattern("months", lang).fullmatch(before.group(1))
            and (after is None or after.group(1).lower() not in MEASURE))


def _is_era_year_or_placeholder(text: str, m: re.Match) -> bool:
    """'284 BC' (a year: a date edit), 'formula _ 18' (a placeholder index of the source's markup)."""
    return ERA.match(text, m.end()) is not None or re.search(r"_\s*$", text[:m.start()]) is not None


def _in_number_sequence(text: str, m: re.Match) -> bool:
    """One of a run of numbers ('Paragraphs 10, 13 and 14', 'from round 1 (Leeds) to round 6') or of a labelled
    series ('condition 1 ... and condition 2' never becomes 'condition 7'): a changed member breaks its order or
    range."""
    aside = r"(?:\s*\([^()]*\))?"  # 'from round 1 ( Huddersfield Giants ) to round 5'
    link = rf"{aside}\s*(?:{DAY_LINK}|from|de|von|från)?\s*(?:\w+\s+)?"
    label = re.search(r"([^\W\d_]{3,})\s+$", text[:m.start()])
    return (re.match(rf"{link}\d", text[m.end():]) is not None
            or re.search(rf"\d{link}$", text[:m.start()]) is not None
            or (label is not None and len(re.findall(rf"\b{label[1]}\s+\d", text, re.IGNORECASE)) > 1))


TOTAL = re.compile(r"\b(?:" + lexicons.alternation("number_total") + r")\b", re.IGNORECASE)
PERCENT = re.compile(r"\d\s?%|\b(?:per ?cent|pour ?cent|prozent|procent)\b", re.IGNORECASE)
SUBSET = re.compile(r"\b(?:" + lexicons.alternation("number_subset") + r")\b", re.IGNORECASE)


def numbers_may_add_up(text: str, lang: str) -> bool:
    """A sentence stating a total, two shares, three numbers in digits or words (years and days of the month
    aside) or a part of a number ('trois enfants, dont deux filles'): a changed number may break a sum ('a total
    of seventeen schools; eleven are private and six are public', shares that no longer make 100 %)."""
    counted = [m for m in NUMBER.finditer(text) if not YEAR.fullmatch(m.group(0)) and not is_day(text, m, lang)]
    words = [w for w in re.findall(r"\w+", text.lower()) if w in CARDINALS]
    return (TOTAL.search(text) is not None or len(PERCENT.findall(text)) >= 2 or len(counted) + len(words) >= 3
            or (SUBSET.search(text) is not None and len(counted) + len(words) >= 2))


PARTITIVE = "(?:" + lexicons.alternation("number_partitive") + ")"  # 'the third of four', 'le premier des cinq'


def _number_word_fits(text: str, m: re.Match, doc: Doc | None) -> bool:
    """A number word a change keeps plausible: read as a number or adjective (with a Doc), not a count of a
    list, not before another number, not a rank in a group or series nor the size of that series ('le troisième
    des deux' contradicts itself), not a fixed phrase ('third countries', 'a first time for everything'), not a
    count standing for its noun, not Swedish 'andra' read as 'other', not a birth or marriage rank beside a
    sibling's age."""
    token = token_at(doc, m.start()) if doc is not None else None
    following = re.match(r"\W*(\w+)", text[m.end():])
    before_number = following is not None and (following.group(1).isdigit()
                                               or following.group(1).lower() in NUMBER_WORDS)
    of_count = re.match(rf"\s+{PARTITIVE}\s+(\w+)", text[m.end():])
    ranked = ORDINAL.fullmatch(m.group(0)) and (GROUP_OF.search(text[:m.start()]) or of_count is not None and (
        of_count.group(1).isdigit() or of_count.group(1).lower() in CARDINALS))
    fixed = (ORDINAL.fullmatch(m.group(0)) and following is not None
             and following.group(1).lower() in FIXED_ORDINAL_HEAD)
    previous = re.search(r"(\w+)\s+$", text[:m.start()])
    pronominal = (token is not None and previous is not None and previous.group(1).lower() in DEFINITE_PLURAL
                  and (token.i + 1 >= len(doc) or doc[token.i + 1].pos_ not in ("NOUN", "ADJ", "PROPN")))
    idiom = any(i.start() <= m.start() < i.end() for i in NUMBER_IDIOM.finditer(text))
    series = re.search(rf"(\w+)\s+{PARTITIVE}\s+$", text[:m.start()])  # 'the third of three'
    series_size = series is not None and ORDINAL.fullmatch(series.group(1)) is not None
    other = m.group(0).lower() == "andra" and not SECOND_NOT_OTHER.match(text, m.start())
    birth_order = (ORDINAL.fullmatch(m.group(0)) and FAMILY_RANK.match(text, m.end()) is not None
                   and SIBLING_AGE.search(text) is not None)
    return (not _counts_a_list(text, m) and not before_number and not ranked and not fixed and not pronominal
            and not idiom and not series_size and not other and not birth_order
            and (token is None or token.pos_ in ("NUM", "ADJ", "DET")))


def number(text: str, ctx: Context) -> Edit | Skip:
    """Change a number (not a year, a day of the month, a decade, a score, list numbering, one of a run of
    numbers, a count of the things named after it, part of a name ('Mercedes 190'), or 1, whose noun is
    singular), up or down at random, keeping its digit count, separators and roundness (20 -> 30, 500 -> 300)
    and never making it 1; else a number word, to a value listed for it (with a Doc, one read as a number or
    adjective, not 'first' the adverb, nor a word before another number: 'the first three hotels', nor a rank in
    a group or series: 'one of the first', 'the third of three', nor a fixed phrase: 'third countries', nor a
    count standing for its noun: 'les deux ont').
    Never where numbers may add up."""
    if numbers_may_add_up(text, ctx.lang):
        return Skip("numbers_may_add_up")
    matches = [m for m in NUMBER.finditer(text) if not YEAR.fullmatch(m.group(0)) and not _is_list_number(text, m)
               and not is_day(text, m, ctx.lang) and not _is_decade_or_score(text, m)
               and not _counts_a_list(text, m) and m.group(0) != "1" and not _is_era_year_or_placeholder(text, m)
               and not _in_number_sequence(text, m) and not _names_a_model(text, m, ctx.lang)]
    if not matches:
        return swap_match(text, lexicons.pattern("numbers", ctx.lang), lexicons.options("numbers", ctx.lang),
                          "number", ctx.rng, keep=lambda m: _number_word_fits(text, m, ctx.doc))
    m = ctx.rng.choice(matches)
    digits = re.sub(r"\D", "", m.group(0))
    value = int(digits)

    def fits(v: int) -> bool:
        return 2 <= v < 10 ** len(digits) and len(str(v)) == len(str(value)) and v != value  # 1 -> 2: 'an' -> 'ans'

    unit = 10 ** max(0, len(digits) - 2)
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros > max(0, len(digits) - 2):  # a round number stays round ('more than 20' never becomes 'more than
        unit = 10 ** min(zeros, len(digits) - 1)  # 19'); down or up first, so 20 goes down as often as up
        sides = [side for side in ([value - k * unit for k in (1, 2, 3, 5)], [value + k * unit for k in (1, 2, 3, 5)])
                 if any(map(fits, side))]
        stepped = [v for v in ctx.rng.choice(sides) if fits(v)] if sides else []
    else:
        step = ctx.rng.choice([1, 2, 3, 5]) * unit
        valid = [v for v in (value + step, value - step, value + 1, value - 1) if fits(v)]
        stepped = [v for v in valid if abs(v - value) == step] or valid  # down as often as up
    if not stepped:
        return Skip("no_valid_value")
    new_digits = iter(str(ctx.rng.choice(stepped)).zfill(len(digits)))
    new = "".join(next(new_digits) if c.isdigit() else c for c in m.group(0))
    return replace_span(text, m.start(), m.end(), new, "number", f"{m.group(0)}->{new}")
