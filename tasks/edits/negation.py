"""The negation edit. English: the main clause's polarity flips (not / n't / never removed or inserted, with
do-support), or a word is negated lexically from the shipped lexicon (un-, dis-, in-, ...); French (ne ... pas),
German (nicht) and Swedish (inte): an existing negation of a finite verb goes, else the first listed verb is
negated. A new negation only where its denial would not give itself away ('was not founded in 1911')."""
from __future__ import annotations

import re

from spacy.tokens import Doc, Token

from tasks.edits import lexicons
from tasks.edits.context import Context
from tasks.edits.result import Edit, Skip
from tasks.edits.rewrite import UNCONTRACTED, Rewrite
from tasks.edits.swap import replace_span
from tasks.edits.tense import DE_PARTICIPLE
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
# what came over me', "I don't know if ..." -> 'I know if ...').
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
        return Skip("prohibition")  # 'Don't talk like that, Saul.' -> 'Talk like that' gives itself away
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
        return Skip("contracted_auxiliary")  # "I'd not like to buy" is unidiomatic
    if first.i > 0 and doc[first.i - 1].lower_ in FOCUS_BEFORE:
        return Skip("focus_adverb")  # 'I just need a little time' -> 'I just do not need' is unidiomatic
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


FR_CLITICS = lexicons.entry_set("negation_clitics_fr")
DE_SUBJECTS = lexicons.entry_set("negation_subjects_de")
SV_SUBJECTS = lexicons.entry_set("negation_subjects_sv")
NEGATION_RULES = {
    # language: (pattern of an existing negation -> replacement, finite auxiliaries and verbs that take a
    # negation; no copula: 'X n'est pas un lac' gives itself away)
    "fr": (re.compile(r"\b(?:ne |n')(\w+) (?:pas|jamais|plus)\b"), lexicons.entries("negation_verbs_fr")),
    "de": (re.compile(r"\b(\w+) nicht\b"), lexicons.entries("negation_verbs_de")),  # before a closing participle
    "sv": (re.compile(r"\b(\w+) (?:inte|ej|aldrig)\b"), lexicons.entries("negation_verbs_sv")),
}
CONTRAST = re.compile(r"\b(?:" + lexicons.alternation("negation_contrast") + r")\b", re.IGNORECASE)
POSITIVE_POLARITY = re.compile(r"\b(?:" + lexicons.alternation("negation_positive_polarity") + r")\b", re.IGNORECASE)
SUPERLATIVE = re.compile(r"\b(?:" + lexicons.alternation("negation_superlative") + r")\b", re.IGNORECASE)
CLAUSE_LINK = re.compile(r",|\b(?:" + lexicons.alternation("negation_clause_link") + r")\b", re.IGNORECASE)
OTHER_NEGATION = re.compile(r"n't\b|\b(?:" + lexicons.alternation("negation_other") + r")\b", re.IGNORECASE)
# A narrated step anywhere in the sentence ('It then crosses', 'Three years later he won', 'Il a finalement réalisé'):
# denied, it reads as a step that did not happen.
SEQUENCE = re.compile(r"\b(?:" + lexicons.alternation("negation_sequence") + r")\b", re.IGNORECASE)
# Asking for a place, time, person or thing: negated, such a question reads as nonsense ('Where don't you come
# from?'); how and why questions take a negation ('How can you not know?').
WH_QUESTION = re.compile(r"\s*(?:" + lexicons.alternation("negation_wh_question") + r")\b", re.IGNORECASE)


def denial_gives_away(text: str) -> str | None:
    """Why a new negation of ``text`` would read as false without the source, or None: a denied dated or counted
    fact ('was not founded in 1911 with 10 pupils'), a denied list and a denial beside a contrast give themselves
    away; a word that needs the positive ('not already') makes it unidiomatic. Only a one-clause sentence is
    denied: in a longer one the denial clashes with a coordinated verb ('was not produced by X and cut by Y'), a
    relative clause ('was not transferred to the clinic, where she was operated') or a second negation ('cannot no
    longer'). A denied superlative ('was not best known for') reads as odd."""
    if re.search(r"\d", text):
        return "denied_dated_fact"
    if text.rstrip().endswith("?") and WH_QUESTION.match(text):
        return "denied_question"  # 'Var kommer du inte ifrån?'; 'Hur kan du inte veta det?' is idiomatic
    if re.search(r"[:;]", text) or text.count(",") >= 3:
        return "denied_list"
    if CONTRAST.search(text):
        return "denied_beside_contrast"
    if POSITIVE_POLARITY.search(text):
        return "positive_polarity_word"
    if SUPERLATIVE.search(text):
        return "denied_superlative"  # 'was not best known for', 'The most legislation has not been'
    if CLAUSE_LINK.search(text):
        return "denied_in_compound_sentence"
    if SEQUENCE.search(text):
        return "denied_in_sequence"  # 'Next Iyer did not appear in ...': a narrated next step that did not happen
    if OTHER_NEGATION.search(text):
        return "second_negation"
    return None


# A removed negation contradicts a coordinated clause or the next sentence ('n'a pas pu faire son travail et a été
# remplacé' -> 'a pu faire son travail et a été remplacé'; 'are not restricted to Western music. For instance,
# ... Persian music'). A cause or consequence clashes too ('was not able to do his job so he was replaced'), and so
# does a word that needs the negation ("I don't even know where to begin" -> 'I even know').
REMOVAL_CLASH = re.compile(r"\b(?:and|et|und|och|but|mais|aber|men)\b|[.;!?]\s+\S"
                           r"|\b(?:or|nor|any|anything|anyone|ever|either|ou|oder|eller)\b"  # 'don't have X or Y'
                           r"|\b(?:even|yet|anymore|until)\b"
                           r"|\b(?:so|therefore|thus|because|donc|car|parce|deshalb|daher|weil|darum|eftersom|därför)\b",
                           re.IGNORECASE)


def removal_gives_away(text: str) -> str | None:
    """Why removing the negation of ``text`` would contradict the rest of it (REMOVAL_CLASH), or None."""
    return "removed_in_compound_sentence" if REMOVAL_CLASH.search(text.strip().rstrip(".!?")) else None


def english_denial_gives_away(edit: Edit) -> str | None:
    """denial_gives_away for an English negation edit that adds a negation, removal_gives_away for one that
    removes it. A lexical negation ('reliable' -> 'unreliable') is refused: it reads as an antonym, not a
    negation."""
    if edit.detail.startswith("lexical:"):
        return "lexical_negation_reads_as_antonym"
    return (removal_gives_away if edit.detail.startswith("remove:") else denial_gives_away)(edit.good)


def _listed_verb(text: str, verbs: tuple[str, ...]) -> re.Match | None:
    return re.search(r"(?<![\w'])(" + "|".join(verbs) + r")(?![\w'])", text)


def negation(text: str, ctx: Context) -> Edit | Skip:
    """English: the verbal/lexical negation of the foundation stage; French (ne ... pas), German (nicht)
    and Swedish (inte): remove an existing negation of a finite verb, else negate the first listed verb.
    A new negation (not a removal) is made only where it would not give itself away (denial_gives_away)."""
    if ctx.lang == "en":
        if ctx.doc is None:
            return Skip("needs_doc")
        result = negation_edit(ctx.doc)
        reason = None if isinstance(result, Skip) else english_denial_gives_away(result)
        return Skip(reason) if reason else result
    if ctx.lang not in NEGATION_RULES:
        return Skip("unsupported_language")
    negated, verbs = NEGATION_RULES[ctx.lang]
    m = negated.search(text)
    if m:
        reason = removal_gives_away(text)
        return Skip(reason) if reason else replace_span(text, m.start(), m.end(), m.group(1), "negation",
                                                        f"remove:{m.group(0)}")
    reason = denial_gives_away(text)
    if reason:
        return Skip(reason)
    if ctx.lang == "de":
        return _german_negation(text, verbs)
    m = _listed_verb(text, verbs)
    if not m:
        return Skip("no_finite_verb")
    verb = m.group(1)
    previous = re.search(r"(\w+)\s+$", text[:m.start()])
    if ctx.lang == "fr" and previous and previous.group(1).lower() in FR_CLITICS:
        return Skip("clitic_before_verb")  # 'il y a': ne goes before the clitic ('il n'y a pas')
    if ctx.lang == "fr" and re.match(r"(?:\s+\w+){0,2}\s+(?:un|une|des|du)\b", text[m.end():], re.IGNORECASE):
        return Skip("article_after_negation")  # 'n'a pas eu un fils': a negation wants 'de'
    if ctx.lang == "fr":
        new = (f"n'{verb} pas" if verb[0] in "aeéiouh" else f"ne {verb} pas")
    elif (subject := re.match(r"\s+(\w+)", text[m.end():])) and subject.group(1).lower() in SV_SUBJECTS:
        end = m.end() + subject.end()  # inverted subject: 'Hur kan du veta' -> 'Hur kan du inte veta'
        new = f"{text[m.start():end]} inte"
        return replace_span(text, m.start(), end, new, "negation", f"insert:{verb} {subject.group(1)} inte")
    else:
        new = f"{verb} inte"
    return replace_span(text, m.start(), m.end(), new, "negation", f"insert:{new}")


def _german_negation(text: str, verbs: tuple[str, ...]) -> Edit | Skip:
    """'nicht' before the participle that closes a short main clause with a listed auxiliary ('Der Film wurde
    in Berlin nicht gezeigt.'); right after the auxiliary it would read as contrastive ('wurde nicht Farrell
    ... ernannt'). Longer middle fields, inverted subjects and subordinate clauses are skipped."""
    m = _listed_verb(text, verbs)
    if not m:
        return Skip("no_finite_verb")
    following = re.match(r"\s+(\w+)", text[m.end():])
    if following and following.group(1).lower() in DE_SUBJECTS:
        return Skip("inverted_subject")  # 'war er': nicht would go after the subject, not the verb
    clause = re.fullmatch(r"((?:\s+[\w'-]+){0,4})\s+([\w-]+)\s*\.?\s*", text[m.end():])
    if not clause or not DE_PARTICIPLE.fullmatch(clause.group(2)):
        return Skip("no_closing_participle")
    start, end = m.end() + clause.start(2), m.end() + clause.end(2)
    return replace_span(text, start, end, f"nicht {clause.group(2)}", "negation", "insert:nicht")
