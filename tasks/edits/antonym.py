"""The antonym edit: a word becomes its antonym from the shipped lexicon (north -> south, high -> low); never
inside a fixed phrase ('no longer') or a name ('High Peak'), nor where the sentence already holds the other pole."""
from __future__ import annotations

import re

from tasks.edits import lexicons
from tasks.edits.context import Context, token_at
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import swap_match


def _words_before(lang: str) -> dict[str, set[str]]:
    """{listed word: the words before it that make a fixed phrase} of ``lang`` (lexicon antonym_fixed_before)."""
    before: dict[str, set[str]] = {}
    for word, previous in lexicons.rows("antonym_fixed_before", lang):
        before.setdefault(word, set()).add(previous)
    return before


# a word after these is no antonym use ('no longer', 'more or less')
ANTONYM_FIXED = {lang: _words_before(lang) for lang in ("en", "fr", "de", "sv")}
# How many words before the swapped one a fixed phrase may start: French puts the verb and its clitics between
# 'ne' and 'plus' ("n'est plus", "n'en a plus").
ANTONYM_FIXED_WINDOW = {"fr": 3}
# a word before these is no antonym use ('best known' -> 'worst known', 'besser bekannt als')
# or part of a compound ('high school', 'hög hatt': a top hat)
ANTONYM_FIXED_NEXT = {lang: lexicons.entry_set(f"antonym_fixed_next_{lang}") for lang in ("en", "de", "fr", "sv")}


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
# contradicting the source ('36 °C le plus élevé et 4 °C le plus bas' -> 'le plus haut').
SAME_POLE = {a: b for lang in ("en", "fr", "de") for a, b in lexicons.rows("antonym_same_pole", lang)}
SCORE = re.compile(r"(?<![\d.])\d{1,2}\s*(?::|–|--|-)\s*\d{1,2}(?![\d.])")
# a size the sentence explains by a quantity: 'two small leagues with only a handful of members' -> 'large'
# contradicts it
QUANTITY = re.compile(r"\b(?:" + lexicons.alternation("antonym_quantity") + r")\b", re.IGNORECASE)
# a size beside a word that fixes it: 'a civil village and small municipality' -> 'large municipality' contradicts
# 'village'
SIZE = re.compile("(?:" + lexicons.alternation("antonym_size") + ")", re.IGNORECASE)
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
        token = token_at(ctx.doc, m.start()) if ctx.doc is not None else None
        return token is None or token.tag_ != "RP"

    return swap_match(text, lexicons.pattern("antonym", ctx.lang), table, "antonym", ctx.rng, keep=keep)
