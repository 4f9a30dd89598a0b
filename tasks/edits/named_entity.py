"""The named-entity edit: a person's first name becomes another of the same gender and origin, or (where
switched on) a place or organisation one of the same kind ('William Blackett' -> 'Thomas Blackett'); and the
entity helpers the corpus pools share (entity_kind, genitive)."""
from __future__ import annotations

import re

from tasks.edits import lexicons
from tasks.edits.context import PERSON_LABELS, PLACE_LABELS, Context
from tasks.edits.names import FIRST_NAME_KIND, first_name_gender, same_first_name, same_origin, spelling_variant
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import replace_span

GENITIVE_STOP = {lang: lexicons.entry_set(f"named_entity_genitive_stop_{lang}") for lang in ("sv", "de")}


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


CONTINENTS = lexicons.entry_set("named_entity_continents")
NAME_SUFFIXES = lexicons.entry_set("named_entity_name_suffixes")
ARTICLES = {"en": {"the", "a", "an"}}  # an English place after one of them is a special name
# Labels a named-entity edit swaps: persons (Swedish names: those that open with a first name). Organisations and
# places are left: their swaps mostly read as wrong without the source ('the EU' -> 'the DPRK', 'Miyagi Prefecture
# ... northern Bulgaria', 'Istanbul' -> 'Constantinople'). A Context's entity_labels switches them back on.
SWAPPED_LABELS = {"en": {"PERSON"}, "de": {"PERSON"}, "fr": {"PER"}, "sv": {"NAME"}}
NEAREST_NAMES = 2
# e5 cosine a replacement name needs: below it a swap mostly names another kind of thing ('Jordan form' ->
# 'Bahamas form', 'Alfaro' -> 'Louvre').
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
