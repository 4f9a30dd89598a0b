"""Checks every edit must pass before it becomes an example; a failure is a counted reject reason."""
from __future__ import annotations

from spacy.tokens import Doc

from tasks.edits.negation import REMOVAL_ONLY, load_lexicon
from tasks.edits.result import Edit
from tasks.edits.verbgroup import NEGATORS, tense_of_token


def check_span(edit: Edit) -> str | None:
    """bad != good, bad == good with the span replaced, and a word diff that stays inside the span."""
    good, bad = edit.good, edit.bad
    if bad == good:
        return "unchanged"
    end = edit.start + len(edit.source)
    if good[edit.start:end] != edit.source or good[:edit.start] + edit.target + good[end:] != bad:
        return "span_mismatch"
    g, b = good.split(" "), bad.split(" ")
    lo = 0
    while lo < min(len(g), len(b)) and g[lo] == b[lo]:
        lo += 1
    hi = 0
    while hi < min(len(g), len(b)) - lo and g[-1 - hi] == b[-1 - hi]:
        hi += 1
    diff_start = len(" ".join(g[:lo])) + (1 if lo else 0)
    diff_end = len(good) - len(" ".join(g[len(g) - hi:])) - (1 if hi else 0)
    if diff_start < edit.start - 1 or diff_end > end + 1:
        return "diff_outside_span"
    return None


def tense_in_tags(doc: Doc, start: int, end: int) -> str | None:
    """The tense the Penn tags of doc's chars [start, end) show: the first finite verb or modal decides."""
    for tok in doc:
        if tok.idx < end and tok.idx + len(tok.text) > start and tense_of_token(tok):
            return tense_of_token(tok)
    return None


def retag_text(edit: Edit, good_doc: Doc, margin: int | None) -> tuple[str, int]:
    """What to re-tag for ``edit``, and its char offset in the bad sentence.

    With ``margin`` (a tagger's receptive field in tokens), the bad sentence's tokens more than
    ``margin`` + 2 tokens away from the edit are cut off: they cannot change the tags in the span.
    Without it, the whole bad sentence.
    """
    if margin is None:
        return edit.bad, 0
    end = edit.start + len(edit.source)
    inside = [t.i for t in good_doc if t.idx < max(end, edit.start + 1) and t.idx + len(t.text) > edit.start - 1]
    lo = max(0, min(inside) - margin - 2)
    hi = min(len(good_doc), max(inside) + margin + 3)
    w_start = good_doc[lo].idx
    w_end = good_doc[hi - 1].idx + len(good_doc[hi - 1].text) + len(edit.target) - len(edit.source)
    return edit.bad[w_start:w_end], w_start


def check_retag(edit: Edit, bad_doc: Doc, good_doc: Doc, offset: int = 0) -> str | None:
    """Re-tagging the bad sentence (``bad_doc``, starting at char ``offset`` of it) shows the new tense
    in the edited span, the negated word as an adjective, or one negator more or less in the span."""
    start, end = edit.start - offset, edit.start - offset + len(edit.target)
    if edit.type == "tense":
        if tense_in_tags(bad_doc, start, end) != edit.detail.split("->")[1]:
            return "retag_tense_mismatch"
    elif edit.detail.startswith(("lexical:", "remove-lexical:")):
        new_word = edit.detail.split("->")[1]
        known = load_lexicon().keys() | REMOVAL_ONLY.values()
        tagged = [t for t in bad_doc if t.lower_ == new_word and start <= t.idx < end]
        if new_word not in known or not tagged or not tagged[0].tag_.startswith(("JJ", "VBN")):
            return "retag_lexical_mismatch"
    elif abs(_negators(bad_doc, start, end) - _negators(good_doc, edit.start, edit.start + len(edit.source))) != 1:
        return "retag_polarity_unchanged"
    return None


# Negative determiners, pronouns and 'without' ('no contact' -> 'some contact', 'nothing' -> 'something'): a
# negator whatever their tag, beside the adverbs (not, n't, never) tagged RB.
NEGATIVE_WORDS = {"no", "none", "nothing", "nobody", "without"}


def _negators(doc: Doc, start: int, end: int) -> int:
    return sum((t.lower_ in NEGATORS and t.tag_ == "RB") or t.lower_ in NEGATIVE_WORDS
               for t in doc if start <= t.idx < end)
