"""The perturbation library: one function per HalluciGen hallucination type that turns a faithful
sentence into a hallucinated one and returns the Edit, or a Skip saying why it does not apply.

English uses spaCy (Penn tags, dependencies, NER) and pyinflect; French uses fr_core_news_sm's NER plus
rules; German and Swedish use rules and the curated word lists in tasks/edits/lexicon/."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from spacy.tokens import Doc

from tasks.edits import lexicons
from tasks.edits.gender_de import gender_de
from tasks.edits.gender_fr import gender_fr
from tasks.edits.gender_sv import gender_sv
from tasks.edits.negation import negation_edit
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span, swap_match
from tasks.edits.tense import random_tense_edit

TYPES = ("addition", "named-entity", "number", "conversion", "date", "gender", "pronoun", "antonym", "tense",
         "negation", "natural")
YEAR = re.compile(r"(?<![\w.,])(1[0-9]{3}|20[0-9]{2})(?![\w])")
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")


@dataclass
class Context:
    """What a perturbation may use besides the text: its language, a seeded RNG, the spaCy Doc (en, fr),
    named-entity spans in the text, and a pool of entities of each label drawn from the corpus."""

    lang: str
    rng: random.Random
    doc: Doc | None = None
    entities: list[tuple[int, int, str]] = field(default_factory=list)
    entity_pool: dict[str, list[str]] = field(default_factory=dict)


def number(text: str, ctx: Context) -> Edit | Skip:
    """Change a number (not a year), keeping its digit count and separators; else a number word."""
    matches = [m for m in NUMBER.finditer(text) if not YEAR.fullmatch(m.group(0))]
    if not matches:
        return swap_match(text, lexicons.pattern("numbers", ctx.lang), lexicons.pairs("numbers", ctx.lang),
                          "number", ctx.rng)
    m = ctx.rng.choice(matches)
    digits = re.sub(r"\D", "", m.group(0))
    value = int(digits)
    step = ctx.rng.choice([1, 2, 3, 5]) * 10 ** max(0, len(digits) - 2)
    new_value = next((v for v in (value + step, value - step) if v > 0 and len(str(v)) == len(str(value))), None)
    if new_value is None:
        last = int(digits[-1])
        new_value = int(digits[:-1] + str((last + ctx.rng.randint(1, 8)) % 10))
    new_digits = iter(str(new_value).zfill(len(digits)))
    new = "".join(next(new_digits) if c.isdigit() else c for c in m.group(0))
    return replace_span(text, m.start(), m.end(), new, "number", f"{m.group(0)}->{new}")


def date(text: str, ctx: Context) -> Edit | Skip:
    """Shift a year by 1-10, or change a month name, keeping the format."""
    months = lexicons.words("months", ctx.lang)
    month_pat = lexicons.pattern("months", ctx.lang)
    candidates = [("year", m) for m in YEAR.finditer(text)]
    candidates += [("month", m) for m in (month_pat.finditer(text) if month_pat else [])
                   if ctx.lang != "en" or m.group(0)[0].isupper()]  # English 'may' the verb is lower case
    if not candidates:
        return Skip("no_candidate")
    kind, m = ctx.rng.choice(candidates)
    if kind == "year":
        new = str(int(m.group(0)) + ctx.rng.choice([d for d in range(-10, 11) if d]))
    else:
        new = match_case(m.group(0), ctx.rng.choice([w for w in months if w.lower() != m.group(0).lower()]))
    return replace_span(text, m.start(), m.end(), new, "date", f"{m.group(0)}->{new}")


def named_entity(text: str, ctx: Context) -> Edit | Skip:
    """Swap a named entity for another of the same label from the corpus pool."""
    options = [(s, e, label) for s, e, label in ctx.entities
               if any(p != text[s:e] for p in ctx.entity_pool.get(label, []))]
    if not options:
        return Skip("no_entity" if not ctx.entities else "no_pool_alternative")
    start, end, label = ctx.rng.choice(options)
    new = ctx.rng.choice(sorted({p for p in ctx.entity_pool[label] if p != text[start:end]}))
    return replace_span(text, start, end, new, "named-entity", f"{label}:{text[start:end]}->{new}")


def conversion(text: str, ctx: Context) -> Edit | Skip:
    """Change a unit that follows a number, without converting the value (km -> miles, °C -> °F, ...)."""
    return swap_match(text, lexicons.pattern("units", ctx.lang), lexicons.pairs("units", ctx.lang), "conversion",
                      ctx.rng, keep=lambda m: re.search(r"\d[\d.,]*\s?$", text[:m.start()]) is not None)


def _tagged_swap(text: str, ctx: Context, name: str, her: dict[str, str], type_: str) -> Edit | Skip:
    """Word swap from list ``name``; in English 'her' follows its Penn tag (``her`` maps tag -> word)."""
    table = lexicons.pairs(name, ctx.lang)
    if ctx.lang != "en" or ctx.doc is None:
        return swap_match(text, lexicons.pattern(name, ctx.lang), table, type_, ctx.rng)
    options = [(t, her[t.tag_] if t.lower_ == "her" else table[t.lower_]) for t in ctx.doc
               if (t.lower_ in table and t.lower_ != "her") or (t.lower_ == "her" and t.tag_ in her)]
    if not options:
        return Skip("no_candidate")
    tok, new = ctx.rng.choice(options)
    new = match_case(tok.text, new)
    return replace_span(text, tok.idx, tok.idx + len(tok.text), new, type_, f"{tok.text}->{new}")


def gender(text: str, ctx: Context) -> Edit | Skip:
    """Swap a gendered pronoun, noun or title (he/she, king/queen, Mr/Mrs, ...); in French, German and
    Swedish with the agreeing words (tasks/edits/gender_<lang>.py)."""
    if ctx.lang == "fr":
        return gender_fr(ctx.doc, ctx.rng) if ctx.doc is not None else Skip("needs_doc")
    if ctx.lang == "de":
        return gender_de(text, ctx.rng)
    if ctx.lang == "sv":
        return gender_sv(text, ctx.rng)
    return _tagged_swap(text, ctx, "gender", {"PRP$": "his", "PRP": "him"}, "gender")


def pronoun(text: str, ctx: Context) -> Edit | Skip:
    """Change a pronoun's person or number (his -> their, me -> us, ...)."""
    return _tagged_swap(text, ctx, "pronoun", {"PRP$": "their", "PRP": "them"}, "pronoun")


def antonym(text: str, ctx: Context) -> Edit | Skip:
    """Replace a word by its antonym from the shipped lexicon."""
    return swap_match(text, lexicons.pattern("antonym", ctx.lang), lexicons.pairs("antonym", ctx.lang), "antonym",
                      ctx.rng)


def addition(text: str, ctx: Context) -> Edit | Skip:
    """Insert content the source does not support: an adjective before a determined noun (English), or a
    short adverbial before the final punctuation."""
    if ctx.lang == "en" and ctx.doc is not None and ctx.rng.random() < 0.5:
        nouns = [t for t in ctx.doc if t.tag_ in ("NN", "NNS") and t.i > 0 and ctx.doc[t.i - 1].dep_ == "det"
                 and ctx.doc[t.i - 1].head.i == t.i and t.text.islower()]
        if nouns:
            tok = ctx.rng.choice(nouns)
            adj = ctx.rng.choice(lexicons.words("additions_adj", "en"))
            return replace_span(text, tok.idx, tok.idx, f"{adj} ", "addition", f"insert:{adj}")
    phrases = lexicons.words("additions", ctx.lang)
    if not phrases:
        return Skip("no_candidate")
    phrase = ctx.rng.choice(phrases)
    end = re.search(r"\s*[.!?]*\s*$", text).start()
    word = re.search(r"\S*$", text[:end])  # the span covers the last word, so the word diff stays inside it
    return replace_span(text, word.start(), end, word.group(0) + phrase, "addition", f"insert:{phrase.strip()}")


def tense(text: str, ctx: Context) -> Edit | Skip:
    """English: the verb-group tense edit of the foundation stage; others: auxiliary and verb swaps."""
    if ctx.lang == "en":
        return random_tense_edit(ctx.doc, ctx.rng) if ctx.doc is not None else Skip("needs_doc")
    return swap_match(text, lexicons.pattern("tense", ctx.lang), lexicons.pairs("tense", ctx.lang), "tense", ctx.rng)


NEGATION_RULES = {
    # language: (pattern of an existing negation -> replacement, finite verbs that take a negation)
    "fr": (re.compile(r"\b(?:ne |n')(\w+) (?:pas|jamais|plus)\b"),
           ("est", "sont", "était", "étaient", "a", "ont", "avait", "avaient", "sera", "seront", "peut", "doit")),
    "de": (re.compile(r"\b(\w+) nicht\b"), ("ist", "sind", "war", "waren", "wird", "wurde", "werden", "wurden")),
    "sv": (re.compile(r"\b(\w+) (?:inte|ej|aldrig)\b"),
           ("är", "var", "har", "hade", "kan", "kunde", "ska", "skulle", "blir", "blev", "kommer")),
}


def negation(text: str, ctx: Context) -> Edit | Skip:
    """English: the verbal/lexical negation of the foundation stage; French (ne ... pas), German (nicht)
    and Swedish (inte): remove an existing negation of a finite verb, else negate the first listed verb."""
    if ctx.lang == "en":
        return negation_edit(ctx.doc, prefer_lexical=ctx.rng.random() < 0.5) if ctx.doc is not None else Skip("needs_doc")
    if ctx.lang not in NEGATION_RULES:
        return Skip("unsupported_language")
    negated, verbs = NEGATION_RULES[ctx.lang]
    m = negated.search(text)
    if m:
        return replace_span(text, m.start(), m.end(), m.group(1), "negation", f"remove:{m.group(0)}")
    m = re.search(r"(?<![\w'])(" + "|".join(verbs) + r")(?![\w'])", text)
    if not m:
        return Skip("no_finite_verb")
    verb = m.group(1)
    if ctx.lang == "fr":
        new = (f"n'{verb} pas" if verb[0] in "aeéiouh" else f"ne {verb} pas")
    else:
        new = f"{verb} {'nicht' if ctx.lang == 'de' else 'inte'}"
    return replace_span(text, m.start(), m.end(), new, "negation", f"insert:{new}")


def natural(text: str, ctx: Context) -> Skip:
    """Natural hallucinations are model output (a SHROOM hypothesis), not a rewrite of a sentence."""
    return Skip("needs_model_output")


PERTURBATIONS = {"addition": addition, "named-entity": named_entity, "number": number, "conversion": conversion,
                 "date": date, "gender": gender, "pronoun": pronoun, "antonym": antonym, "tense": tense,
                 "negation": negation, "natural": natural}


def perturb(type_: str, text: str, ctx: Context) -> Edit | Skip:
    """Apply the perturbation of ``type_``; the result passes the span checks or becomes a Skip."""
    from tasks.edits.checks import check_span

    if type_ not in PERTURBATIONS:
        raise ValueError(f"unknown hallucination type {type_!r}; known: {TYPES}")
    result = PERTURBATIONS[type_](text, ctx)
    if isinstance(result, Edit):
        failure = check_span(result)
        if failure:
            return Skip(failure)
    return result
