"""Negation edits: flip the polarity of the main clause (remove or insert not / n't / never, with
do-support), or negate a word lexically (un-, dis-, in-, im-, il-, ir-) from the shipped lexicon."""
from __future__ import annotations

import re

from spacy.tokens import Doc, Token

from tasks.edits import lexicons
from tasks.edits.result import Edit, Skip
from tasks.edits.rewrite import UNCONTRACTED, Rewrite
from tasks.edits.verbgroup import (
    VerbGroup,
    agreement,
    base_form,
    find_group,
    finite_form,
    is_auxiliary_use,
    lemma_of,
    tense_of,
)

NOMINAL_TAGS = {"NN", "NNS", "NNP", "NNPS", "PRP", "CD", "DT", "WP", "WDT"}
RESULT_VERBS = {"form", "create", "become", "make", "produce", "give", "yield"}  # 'meets X to form Y': a result
# Phrases said only in the negative: without it they are no idiom ("I don't know what came over me" -> 'I know
# what came over me' and "I don't know if ..." -> 'I know if ...' were judged giveaways on the blind review).
NEGATIVE_ONLY = re.compile(r"\bwhat(?:'s| has| had)? (?:came|come|got|gotten) (?:over|into)\b|\bcare less\b"
                           r"|\bhelp (?:but|it\b|\w+ing\b)|\bwait to\b", re.IGNORECASE)


def load_lexicon() -> dict[str, str]:
    """Both directions of the curated pairs (lexicon/negation_affixes_en.tsv): {word: its lexical negation
    or its positive form}."""
    return lexicons.pairs("negation_affixes", "en")


def negation_edit(doc: Doc, prefer_lexical: bool = False, lexicon: dict[str, str] | None = None) -> Edit | Skip:
    """Give ``doc`` the opposite polarity.

    An existing verbal negation is removed. Otherwise a lexicon word is negated when ``prefer_lexical``
    (or when no verbal negation can be inserted), else 'not' is inserted, with do-support if needed; never
    into a copular statement ('X is a village'), whose denial gives itself away.
    """
    lexicon = load_lexicon() if lexicon is None else lexicon
    group = find_group(doc)
    word = _lexical_candidate(doc, lexicon)
    if isinstance(group, str):
        return _lexical_edit(doc, word, lexicon) if word is not None else Skip(group)
    if group.negs:
        return _remove(doc, group)
    if prefer_lexical and word is not None:
        return _lexical_edit(doc, word, lexicon)
    result = _insert(doc, group)
    if isinstance(result, Skip) and word is not None:
        return _lexical_edit(doc, word, lexicon)
    return result


def _remove(doc: Doc, group: VerbGroup) -> Edit | Skip:
    if group.is_inverted:
        return Skip("inverted_subject")
    if group.subject is None and group.do_support and group.first.lower_ == "do":
        return Skip("prohibition")  # 'Don't talk like that, Saul.' -> 'Talk like that': judged a giveaway
    if lemma_of(group.head) == "know" and any(t.dep_ == "mark" and t.lower_ in ("if", "whether")
                                              and t.head.head == group.head for t in doc):
        return Skip("know_if")
    if NEGATIVE_ONLY.search(doc.text):
        return Skip("negative_only_phrase")
    neg = group.negs[0]
    rw = Rewrite(doc)
    if neg.lower_ == "never":
        rw.delete(neg.i)
    elif group.do_support and group.first.i < neg.i:
        tense = "past" if group.first.tag_ == "VBD" else "present"
        agr = agreement(group)
        if agr is None and tense == "present":
            return Skip("agreement_unknown")
        form = finite_form(lemma_of(group.head), tense, agr or "3sg")
        if form is None:
            return Skip("no_inflection")
        rw.delete(group.first.i)  # did not go -> went
        rw.delete(neg.i)
        rw.replace(group.head.i, form)
    else:
        rw.delete(neg.i)
        host = doc[neg.i - 1] if neg.i > 0 else None
        if neg.lower_ == "n't" and host is not None and host.lower_ in UNCONTRACTED:
            rw.replace(host.i, UNCONTRACTED[host.lower_])  # won't -> will
    return rw.edit("negation", f"remove:{neg.lower_}")


FOCUS_BEFORE = {"just", "only", "simply", "merely"}


def _insert(doc: Doc, group: VerbGroup) -> Edit | Skip:
    if group.is_inverted:
        return Skip("inverted_subject")
    tense = tense_of(group)
    if tense == "nonfinite":
        return Skip("nonfinite")
    if lemma_of(group.head) == "be":
        return Skip("copular_statement")  # 'X is not a village in ...' reads as false without the source
    if group.subject is None or group.subject.tag_ not in NOMINAL_TAGS:
        return Skip("no_nominal_subject")  # 'Next appeared Iyer' -> 'Next did not appear Iyer'
    if any(c.dep_ in ("advcl", "xcomp") and c.lower_ in RESULT_VERBS and any(g.tag_ == "TO" for g in c.children)
           for c in group.head.children):
        return Skip("result_clause")  # 'It does not meet the river to form the Snohomish' denies itself
    first = group.first
    if first.lower_ in ("'d", "'ve", "'ll", "’d", "’ve", "’ll"):
        return Skip("contracted_auxiliary")  # "I'd not like to buy": blind annotators judged it unidiomatic
    if first.i > 0 and doc[first.i - 1].lower_ in FOCUS_BEFORE:
        return Skip("focus_adverb")  # 'I just need a little time' -> 'I just do not need': judged unidiomatic
    rw = Rewrite(doc)
    if first.lower_ == "can":
        rw.replace(first.i, "cannot")
    elif is_auxiliary_use(group, first):
        rw.insert_after(first.i, "not")  # is -> is not, has gone -> has not gone, will go -> will not go
    else:
        agr = agreement(group)
        if agr is None and tense == "present":
            return Skip("agreement_unknown")
        do = finite_form("do", tense, agr or "3sg")
        base = base_form(lemma_of(first))
        if base is None:
            return Skip("no_inflection")
        rw.replace(first.i, f"{do} not {base}")  # went -> did not go
    return rw.edit("negation", "insert:not")


def _lexical_candidate(doc: Doc, lexicon: dict[str, str]) -> Token | None:
    """The first adjective (or adjectival participle) in the lexicon that is not part of a name."""
    for tok in doc:
        if tok.lower_ not in lexicon or (tok.is_title and tok.i > 0):
            continue
        if tok.tag_ == "JJ" or (tok.tag_ == "VBN" and tok.dep_ == "amod"):
            return tok
    return None


def _lexical_edit(doc: Doc, tok: Token, lexicon: dict[str, str]) -> Edit:
    rw = Rewrite(doc)
    rw.replace(tok.i, lexicon[tok.lower_])
    return rw.edit("negation", f"lexical:{tok.lower_}->{lexicon[tok.lower_]}")
