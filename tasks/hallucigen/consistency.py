"""Consistency checks of a paraphrase against its source: no number or name the source lacks (a
paraphrase may drop one: that omits, it does not hallucinate), negation parity preserved, and a lexical
similarity above a threshold. A SHROOM paraphrase that fails them is no faithful hyp+."""
from __future__ import annotations

import re
from collections import Counter

from tasks.edits.names import spelling_variant

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
NAME = re.compile(r"(?<=\s)[A-ZÀ-ÞÅÄÖ][^\W\d_]+")
NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor)\b|n't\b", re.IGNORECASE)
WORD = re.compile(r"\w+")
# English number words a paraphrase may write as digits ('from three to five years' -> 'from 3 to 5 years').
NUMBER_WORDS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                                "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
                                                .split())} | {"thirty": "30", "forty": "40", "fifty": "50",
                                                              "hundred": "100", "thousand": "1000"}
CONNECTORS = {"of", "the", "and", "for", "s"}  # inside a name an acronym skips: 'Democratic People's Republic of Korea'
REPEATED = re.compile(r"(\S{3,}?)(?:[\s-]+\1){2,}")


def token_f1(a: str, b: str) -> float:
    """F1 of the lower-cased word multisets of a and b."""
    ca, cb = Counter(WORD.findall(a.lower())), Counter(WORD.findall(b.lower()))
    common = sum((ca & cb).values())
    if not common:
        return 0.0
    p, r = common / sum(cb.values()), common / sum(ca.values())
    return 2 * p * r / (p + r)


def name_runs(text: str) -> list[list[str]]:
    """Runs of capitalised words, connectors ('of', 'the', "'s") inside a run skipped."""
    runs, run = [], []
    for word in re.findall(r"[A-Za-z]+", text):
        if word[:1].isupper():
            run.append(word)
        elif word not in CONNECTORS and run:
            runs.append(run)
            run = []
    return runs + [run] if run else runs


def acronyms(text: str) -> dict[str, list[str]]:
    """{initials: words} of every stretch of two or more words of a name run: 'European Union' -> EU."""
    return {"".join(w[0] for w in run[i:j]): run[i:j] for run in name_runs(text)
            for i in range(len(run)) for j in range(i + 2, len(run) + 1)}


def new_names(source: str, hyp: str) -> set[str]:
    """Names (capitalised words past the first) of ``hyp`` whose five-letter stem no word of ``source`` has, in
    any case: 'Palestinians' for 'Palestinian' or a title-cased 'The Development' is no new name; nor is an
    acronym of a name of the source ('EU' for 'European Union'), nor the words of a name the source abbreviates
    ('Democratic People's Republic of Korea' for 'DPRK')."""
    stems = {w[:5] for w in WORD.findall(source.lower())}
    short = set(acronyms(source))
    spelled = {w for a, words in acronyms(hyp).items() if a in set(WORD.findall(source)) for w in words}
    names = NAME.findall(source)
    return {n for n in NAME.findall(hyp) if n.lower()[:5] not in stems and n not in short and n not in spelled
            and not any(spelling_variant(n, s) for s in names)}


def degenerate(text: str) -> bool:
    """Model output stuck in a loop: a word or number three times in a row ('800-381-0266 800-381-0266 ...')."""
    return REPEATED.search(text) is not None


def failed_checks(source: str, hyp: str, min_similarity: float) -> list[str]:
    """The checks ``hyp`` fails against ``source`` (empty: consistent)."""
    failed = []
    spelled = [NUMBER_WORDS[w] for w in WORD.findall(source.lower()) if w in NUMBER_WORDS]
    if Counter(NUMBER.findall(hyp)) - Counter(NUMBER.findall(source) + spelled):
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


def content_stems(text: str) -> set[str]:
    """Five-letter stems of the content words (4+ letters, no function word) of ``text``."""
    return {w[:5] for w in WORD.findall(text.lower()) if len(w) >= 4 and w not in STOP and not w.isdigit()}


def reversed_polarity(source: str, hyp: str) -> bool:
    """hyp holds an antonym or a reversal ('in favour of' -> 'against', 'won' -> 'lost': lexicons antonym and
    reversal) of a word of the source that it does not keep."""
    from tasks.edits import lexicons

    src, out = source.lower(), hyp.lower()
    rows = [(a.lower(), b.lower()) for a, b in lexicons.rows("antonym", "en") + lexicons.rows("reversal", "en")]
    pairs = rows + [(b, a) for a, b in rows]

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
