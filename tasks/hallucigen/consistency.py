"""Consistency checks of a paraphrase against its source: no number or name the source lacks (a
paraphrase may drop one: that omits, it does not hallucinate), negation parity preserved, and a lexical
similarity above a threshold. A SHROOM paraphrase that fails them is a natural hallucination."""
from __future__ import annotations

import re
from collections import Counter

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
NAME = re.compile(r"(?<=\s)[A-Z][a-zA-Z]+")
NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor)\b|n't\b", re.IGNORECASE)
WORD = re.compile(r"\w+")


def token_f1(a: str, b: str) -> float:
    """F1 of the lower-cased word multisets of a and b."""
    ca, cb = Counter(WORD.findall(a.lower())), Counter(WORD.findall(b.lower()))
    common = sum((ca & cb).values())
    if not common:
        return 0.0
    p, r = common / sum(cb.values()), common / sum(ca.values())
    return 2 * p * r / (p + r)


def new_names(source: str, hyp: str) -> set[str]:
    """Names (capitalised words past the first) of ``hyp`` whose five-letter stem no word of ``source`` has, in
    any case: 'Palestinians' for 'Palestinian' or a title-cased 'The Development' is no new name."""
    stems = {w[:5] for w in WORD.findall(source.lower())}
    return {n for n in NAME.findall(hyp) if n.lower()[:5] not in stems}


def failed_checks(source: str, hyp: str, min_similarity: float) -> list[str]:
    """The checks ``hyp`` fails against ``source`` (empty: consistent)."""
    failed = []
    if Counter(NUMBER.findall(hyp)) - Counter(NUMBER.findall(source)):
        failed.append("numbers")
    if new_names(source, hyp):
        failed.append("names")
    if len(NEGATION.findall(source)) % 2 != len(NEGATION.findall(hyp)) % 2:
        failed.append("negation")
    if token_f1(source, hyp) < min_similarity:
        failed.append("similarity")
    return failed


STOP = {"that", "this", "with", "from", "have", "been", "were", "which", "their", "there", "they", "them", "will",
        "would", "also", "into", "about", "after", "other", "such", "some", "more", "most", "than", "then", "when",
        "where", "while", "what", "who", "whose", "very", "only", "just", "being", "does", "doing", "each", "both",
        "these", "those", "because", "through", "over", "under", "upon", "your", "yours", "ours", "it's", "its"}
REVERSALS = [("in favour of", "against"), ("in favor of", "against"), ("for", "against"), ("support", "oppose"),
             ("supported", "opposed"), ("accept", "reject"), ("accepted", "rejected"), ("allow", "forbid"),
             ("allowed", "forbade"), ("agree", "disagree"), ("agreed", "disagreed")]


def content_stems(text: str) -> set[str]:
    """Five-letter stems of the content words (4+ letters, no function word) of ``text``."""
    return {w[:5] for w in WORD.findall(text.lower()) if len(w) >= 4 and w not in STOP and not w.isdigit()}


def reversed_polarity(source: str, hyp: str) -> bool:
    """hyp holds an antonym (lexicon) or a stance reversal ('in favour of' -> 'against') of a word of the
    source that it does not keep."""
    from tasks.edits import lexicons

    src, out = source.lower(), hyp.lower()
    pairs = list(lexicons.pairs("antonym", "en").items()) + REVERSALS + [(b, a) for a, b in REVERSALS]

    def has(text: str, phrase: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None

    return any(has(src, a) and not has(out, a) and has(out, b) and not has(src, b) for a, b in pairs)


def faithfulness_failures(source: str, hyp: str, params: dict) -> list[str]:
    """Why ``hyp`` cannot serve as a faithful hyp+ of ``source`` (empty: it can): the consistency checks,
    reversed polarity, and content added or dropped beyond the shares in params."""
    failed = failed_checks(source, hyp, params["min_similarity"])
    if reversed_polarity(source, hyp):
        failed.append("reversed_polarity")
    src, out = content_stems(source), content_stems(hyp)
    if out and len(out - src) / len(out) > params["max_added_content"]:
        failed.append("added_content")
    if src and len(src - out) / len(src) > params["max_dropped_content"]:
        failed.append("dropped_content")
    return failed


# Evidence that a paraphrase hallucinates (a natural hyp-): a number or name the source lacks, a reversed stance.
# Added content stems and a changed negation parity are no evidence alone: on the blind review they were
# rewordings and faithful summaries.
HALLUCINATION_CHECKS = {"numbers", "names", "reversed_polarity"}


def one_side_adds(a: str, b: str, max_added: float) -> bool:
    """A pair where one side says more: a number or (non-initial) name only one side has, a trailing
    ': Source'-style tag, or content stems of one side mostly missing from the other."""
    def extras(x: str, y: str) -> bool:
        added = content_stems(x) - content_stems(y)
        return bool(Counter(NUMBER.findall(x)) - Counter(NUMBER.findall(y))
                    or set(NAME.findall(x)) - set(NAME.findall(y))
                    or (content_stems(x) and len(added) / len(content_stems(x)) > max_added))
    tag = re.compile(r":\s*\S+\s*$")
    return extras(a, b) or extras(b, a) or bool(tag.search(a)) != bool(tag.search(b))
