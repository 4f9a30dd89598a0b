"""The perturbation library's registry: one function per HalluciGen hallucination type (PERTURBATIONS) that
turns a faithful sentence into a hallucinated one and returns the Edit, or a Skip saying why it does not apply;
perturb applies one and the checks every type's edit passes.

English uses spaCy (Penn tags, dependencies, NER) and pyinflect; French uses fr_core_news_sm's NER plus
rules; German and Swedish use rules and the curated word lists in tasks/edits/lexicon/. Each type has its module:
tasks/edits/<type>.py (pronoun: pronouns.py)."""
from __future__ import annotations

import re

from tasks.edits import lexicons
from tasks.edits.addition import addition
from tasks.edits.antonym import antonym
from tasks.edits.checks import check_span
from tasks.edits.context import Context
from tasks.edits.conversion import conversion
from tasks.edits.date import date
from tasks.edits.gender import GENDERED_PRONOUNS, gender
from tasks.edits.named_entity import named_entity
from tasks.edits.negation import negation
from tasks.edits.number import number
from tasks.edits.pronouns import pronoun
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span
from tasks.edits.tense import tense

TYPES = ("addition", "named-entity", "number", "conversion", "date", "gender", "pronoun", "antonym", "tense",
         "negation", "natural")


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
SHORT_GENDERED_NOUNS = lexicons.entry_set("gender_short_nouns")  # 'man', 'son', 'roi'


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


# A short quoted span opening in upper case: a title ('dans "Le dernier fils"', "`` Last Son ''"). A content edit
# there renames a work ('La dernière fille') instead of changing what the sentence says of the world.
QUOTED = re.compile(r"``\s*([^`']{1,60}?)\s*''|\"([^\"]{1,60})\"|“([^”]{1,60})”|«\s*([^»]{1,60}?)\s*»"
                    r"|„([^“”\"]{1,60})[“”\"]")
TITLE_WORDS = 8  # a quoted span of more words is speech, not a title


def inside_quoted_title(edit: Edit) -> bool:
    """The edit's span lies inside a quoted title (``QUOTED``): 'in "Last Son"' -> 'in "Last Daughter"'."""
    for m in QUOTED.finditer(edit.good):
        title = next(g for g in m.groups() if g is not None)
        if m.start() < edit.start < m.end() and title[:1].isupper() and len(title.split()) <= TITLE_WORDS:
            return True
    return False


def perturb(type_: str, text: str, ctx: Context) -> Edit | Skip:
    """Apply the perturbation of ``type_``; English a/an follows a new first word; the result passes the span
    checks, and a content edit brings no word the rest of the sentence already has and changes no quoted title,
    or it becomes a Skip."""
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
        if type_ in WORD_TYPES | {"date"} and inside_quoted_title(result):
            return Skip("inside_quoted_title")
    return result
