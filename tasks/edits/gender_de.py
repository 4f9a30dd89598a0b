"""German gender edits that keep agreement. Genders and case forms come from the Wiktionary noun lexicon
of the `german-nouns` package: the swapped noun keeps its case and number, and its determiner (article,
dies-/jed-words, ein-words and possessives, contractions im/zum/...) and adjective endings follow the new
gender. An edit whose case cannot be resolved uniquely is skipped, counted by reason."""
from __future__ import annotations

import csv
import random
import re
from functools import lru_cache
from importlib.resources import files

from tasks.edits import lexicons
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import replace_span

CASES = {"nominativ": "nom", "akkusativ": "acc", "dativ": "dat", "genitiv": "gen"}
TOKEN = re.compile(r"\w+|[^\w\s]")
# definite article: form -> readings (case, gender, number); gender None: any (plural)
ARTICLE = {"der": {("nom", "m", "sg"), ("gen", "f", "sg"), ("dat", "f", "sg"), ("gen", None, "pl")},
           "die": {("nom", "f", "sg"), ("acc", "f", "sg"), ("nom", None, "pl"), ("acc", None, "pl")},
           "das": {("nom", "n", "sg"), ("acc", "n", "sg")}, "des": {("gen", "m", "sg"), ("gen", "n", "sg")},
           "dem": {("dat", "m", "sg"), ("dat", "n", "sg")}, "den": {("acc", "m", "sg"), ("dat", None, "pl")}}
DER_WORD_ENDING = {"der": "er", "die": "e", "das": "es", "des": "es", "dem": "em", "den": "en"}
DER_STEMS = ("dies", "jen", "jed", "welch", "manch", "solch")
EIN_STEMS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer", "eur")
EIN_ENDING = {("nom", "m", "sg"): "", ("nom", "n", "sg"): "", ("acc", "n", "sg"): "", ("nom", "f", "sg"): "e",
              ("acc", "f", "sg"): "e", ("acc", "m", "sg"): "en", ("dat", "m", "sg"): "em", ("dat", "n", "sg"): "em",
              ("gen", "m", "sg"): "es", ("gen", "n", "sg"): "es", ("gen", "f", "sg"): "er", ("dat", "f", "sg"): "er",
              ("nom", None, "pl"): "e", ("acc", None, "pl"): "e", ("dat", None, "pl"): "en", ("gen", None, "pl"): "er"}
# contraction: (preposition, article it contains)
CONTRACTIONS = {"im": ("in", "dem"), "am": ("an", "dem"), "vom": ("von", "dem"), "zum": ("zu", "dem"),
                "beim": ("bei", "dem"), "zur": ("zu", "der"), "ins": ("in", "das"), "ans": ("an", "das")}
CONTRACT = {(p, a): c for c, (p, a) in CONTRACTIONS.items()}
ADJ_ENDINGS = ("en", "em", "er", "es", "e")
COPULAS = {"ist", "war", "sind", "waren", "wurde", "wird", "bleibt", "blieb", "gilt", "galt", "als"}
# cases a preposition before the determiner allows ('von der Königin': dative, not 'von des Königs')
PREP_CASES = {**{p: {"dat"} for p in ("von", "mit", "bei", "nach", "aus", "zu", "seit", "gegenüber", "ab")},
              **{p: {"acc"} for p in ("für", "durch", "gegen", "ohne", "um")},
              **{p: {"gen"} for p in ("wegen", "während", "trotz", "statt", "anstatt")},
              **{p: {"dat", "acc"} for p in ("in", "an", "auf", "über", "unter", "vor", "hinter", "neben", "zwischen")}}
RELATIVE = re.compile(r"^\s*,\s*(?:der|die|das|dem|den|dessen|deren)\b")


@lru_cache(maxsize=1)
def noun_forms() -> dict[str, list[tuple[str, str, frozenset]]]:
    """surface form -> [(lemma, gender, {(case, number)})] for the nouns of gender_de.tsv, from the
    german-nouns lexicon (its CSV read once, only the rows of those lemmas kept)."""
    wanted = {w for row in lexicons.rows("gender", "de") for w in row}
    out: dict[str, list] = {}
    with files("german_nouns").joinpath("nouns.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["lemma"] not in wanted or row.get("genus") not in ("m", "f", "n"):
                continue
            readings: dict[str, set] = {}
            for key, form in row.items():
                parts = (key or "").split()
                if form and len(parts) >= 2 and parts[0] in CASES and parts[1] in ("singular", "plural"):
                    readings.setdefault(form, set()).add((CASES[parts[0]], "sg" if parts[1] == "singular" else "pl"))
            for form, r in readings.items():
                out.setdefault(form, []).append((row["lemma"], row["genus"], frozenset(r)))
    return out


def lemma_form(lemma: str, case: str, number: str) -> str | None:
    """The form of ``lemma`` in (case, number), preferring the main form (no '*' variant)."""
    forms = sorted((f for f, entries in noun_forms().items() for lem, _, r in entries
                    if lem == lemma and (case, number) in r), key=len)
    return forms[0] if forms else None


def determiner_readings(word: str) -> tuple[str, str, set] | None:
    """(kind, stem, readings) of a determiner: kind 'art' (der/die/...), 'der' (dies-words) or 'ein'."""
    low = word.lower()
    if low in ARTICLE:
        return "art", "", ARTICLE[low]
    for stem in DER_STEMS:
        if low.startswith(stem) and low[len(stem):] in DER_WORD_ENDING.values():
            ending = low[len(stem):]
            return "der", stem, set().union(*(ARTICLE[a] for a, e in DER_WORD_ENDING.items() if e == ending))
    for stem in EIN_STEMS:
        if low.startswith(stem) and low[len(stem):] in set(EIN_ENDING.values()):
            ending = low[len(stem):]
            return "ein", stem, {r for r, e in EIN_ENDING.items() if e == ending}
    return None


def determiner_form(kind: str, stem: str, reading: tuple) -> str | None:
    if kind == "ein":
        return stem + EIN_ENDING[reading] if reading in EIN_ENDING else None
    article = next((a for a, rs in ARTICLE.items() if reading in rs), None)
    if article is None:
        return None
    return article if kind == "art" else stem + DER_WORD_ENDING[article]


def adjective_ending(kind: str, reading: tuple) -> str:
    """Weak endings after an article or dies-word; mixed after an ein-word (strong where it has no ending)."""
    case, gender, number = reading
    if kind == "ein" and EIN_ENDING.get(reading) == "":
        return "er" if gender == "m" else "es"
    if number == "pl" or case in ("dat", "gen") or (case == "acc" and gender == "m"):
        return "en"
    return "e"


def _match(readings: set, gender: str, noun_readings: frozenset) -> list[tuple]:
    return sorted((c, g, n) for c, g, n in readings if (c, n) in noun_readings and (g == gender or g is None))


def gender_de(text: str, rng: random.Random) -> Edit | Skip:
    """Swap one gendered noun of gender_de.tsv (tried in a seeded order) with its determiner and adjectives."""
    forms, table = noun_forms(), lexicons.pairs("gender", "de")
    tokens = [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]
    options = [k for k, (w, _, _) in enumerate(tokens) if w in forms]
    if not options:
        return Skip("no_candidate")
    results = [_swap(text, tokens, k, forms, table) for k in rng.sample(options, len(options))]
    return next((r for r in results if isinstance(r, Edit)), results[0])


def _swap(text: str, tokens: list, k: int, forms: dict, table: dict) -> Edit | Skip:
    word, start, end = tokens[k]
    lemma, gender, noun_readings = forms[word][0]
    partner = table.get(lemma.lower())
    entry = next((e for f, es in forms.items() for e in es if e[0] == partner), None)
    if partner is None or entry is None:
        return Skip("not_in_noun_lexicon")
    new_gender = entry[1]
    if lemma in ("Frau", "Herr") and k + 1 < len(tokens) and tokens[k + 1][0][:1].isupper():
        return Skip("title")  # Frau Müller: a title, not 'woman'
    if RELATIVE.match(text[end:]):
        return Skip("relative_clause")
    if _predicate_of_gender(tokens[k + 1:], forms, gender, lemma):
        return Skip("predicate_keeps_gender")  # 'Seine Mutter war der uneheliche Sohn von ...'
    j = k - 1
    while j >= 0 and tokens[j][0].islower() and tokens[j][0].endswith(ADJ_ENDINGS) and not determiner_readings(
            tokens[j][0]) and tokens[j][0] not in CONTRACTIONS:
        j -= 1
    adjectives = list(range(j + 1, k))
    det = tokens[j][0] if j >= 0 else None
    if j > 0 and tokens[j - 1][0].lower() in COPULAS:
        return Skip("predicate_noun")  # 'er ist der Sohn': the subject fixes the gender
    prep = None
    if det is not None and det.lower() in CONTRACTIONS:
        prep, article = CONTRACTIONS[det.lower()]
        kind, stem, readings = "art", "", ARTICLE[article]
    elif det is not None and determiner_readings(det):
        kind, stem, readings = determiner_readings(det)
    else:
        if adjectives:
            return Skip("adjective_without_determiner")
        new_forms = {lemma_form(partner, c, n) for c, n in noun_readings}
        if len(new_forms) != 1 or None in new_forms:
            return Skip("ambiguous_case")
        new = new_forms.pop()
        return replace_span(text, start, end, new, "gender", f"{word}->{new}")
    matched = _match(readings, gender, noun_readings)
    if any(n == "sg" for _, _, n in matched) and (j == 0 or not tokens[j - 1][0][:1].isupper()):
        matched = [r for r in matched if r[0] != "gen" or r[2] != "pl"]  # a genitive plural follows a noun
    if j > 0 and tokens[j - 1][0].lower() in PREP_CASES:
        matched = [r for r in matched if r[0] in PREP_CASES[tokens[j - 1][0].lower()]]
    if j == 0 and any(r[0] == "nom" for r in matched):
        matched = [r for r in matched if r[0] == "nom"]  # sentence-initial: the subject
    outcomes = set()
    for reading in matched:
        case, _, number = reading
        new_reading = (case, new_gender if number == "sg" else None, number)
        new_det = determiner_form(kind, stem, new_reading)
        new_noun = lemma_form(partner, case, number)
        if new_det is None or new_noun is None:
            continue
        if prep is not None:
            new_det = CONTRACT.get((prep, new_det), f"{prep} {new_det}")
        elif j > 0 and kind == "art" and (tokens[j - 1][0].lower(), new_det) in CONTRACT and tokens[j - 1][0].islower():
            continue  # 'in der' -> 'in dem' would read 'im': leave these out rather than write the odd form
        ending = adjective_ending(kind, new_reading)
        adjs = tuple(_restem(tokens[a][0], ending) for a in adjectives)
        outcomes.add((new_det, adjs, new_noun))
    if not outcomes:
        return Skip("no_agreeing_reading")
    if len(outcomes) > 1:
        return Skip("ambiguous_case")
    new_det, adjs, new_noun = outcomes.pop()
    new_det = new_det[:1].upper() + new_det[1:] if det[:1].isupper() else new_det
    d_start = tokens[j][1]
    pieces, pos = [], d_start
    for idx, new_word in [(j, new_det), *zip(adjectives, adjs), (k, new_noun)]:
        pieces.append(text[pos:tokens[idx][1]] + new_word)
        pos = tokens[idx][2]
    return replace_span(text, d_start, end, "".join(pieces), "gender", f"{word}->{new_noun}")


def _predicate_of_gender(after: list, forms: dict, gender: str, lemma: str) -> bool:
    """A copula right after the noun, then (before a comma or stop) another lexicon noun of its gender."""
    if not after or after[0][0].lower() not in COPULAS:
        return False
    for word, _, _ in after[1:]:
        if word in (",", ".", ";", ":"):
            return False
        if any(g == gender and lem != lemma for lem, g, _ in forms.get(word, ())):
            return True
    return False


def _restem(adj: str, ending: str) -> str:
    for e in ADJ_ENDINGS:
        if adj.endswith(e):
            return adj[: -len(e)] + ending
    return adj


def determiner_clashes(text: str) -> list[str]:
    """Determiner-noun pairs of ``text`` (nouns of gender_de.tsv) that no case reading makes agree."""
    forms = noun_forms()
    tokens = [m.group(0) for m in TOKEN.finditer(text)]
    clashes = []
    for k, word in enumerate(tokens):
        if word not in forms:
            continue
        j = k - 1
        while j >= 0 and tokens[j].islower() and tokens[j].endswith(ADJ_ENDINGS) and not determiner_readings(tokens[j]):
            j -= 1
        if j < 0:
            continue
        det = tokens[j].lower()
        readings = (ARTICLE[CONTRACTIONS[det][1]] if det in CONTRACTIONS
                    else (determiner_readings(det) or (0, 0, None))[2])
        if readings is None:
            continue
        if not any(_match(readings, g, r) for _, g, r in forms[word]):
            clashes.append(f"{tokens[j]} {word}")
    return clashes
