"""The addition edit: a modifier the corpus attests with this very determiner and noun goes in ('the album' ->
'the seventh album'); with a Doc, only where the words are a determiner and its noun and the new word is read as an
adjective or a number."""
from __future__ import annotations

import re

from spacy.tokens import Doc

from tasks.edits import modifiers
from tasks.edits.context import Context, token_at
from tasks.edits.numerals import ORDINAL
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span

NOUN_TAGS = {"en": ("NN", "NNS"), "fr": ("NOUN",)}
MODIFIER_TAGS = {"en": ("JJ", "JJR", "JJS", "CD"), "fr": ("ADJ", "NUM")}


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
    jumeau partenaire', 'la majeure partie centrale', 'musique indépendante indé')."""
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
        options = [o for o in options if (d := token_at(ctx.doc, o[1].start())) is not None
                   and (n := token_at(ctx.doc, o[2].start())) is not None and d.head.i == n.i
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
        inserted = token_at(ctx.tag(edit.bad), edit.start + edit.target.index(word))
        if inserted is not None and _tag(inserted, ctx.lang) in MODIFIER_TAGS[ctx.lang]:
            return edit
    return Skip("modifier_not_adjective")
