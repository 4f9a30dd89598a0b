"""The negation edit. English: the main clause's polarity flips (not / n't / never removed or inserted, with
do-support), or a word is negated lexically from the shipped lexicon (un-, dis-, in-, ...); French (ne ... pas),
German (nicht) and Swedish (inte): an existing negation of a finite verb goes, else the first listed verb is
negated. A new negation only where its denial would not give itself away ('was not founded in 1911')."""
from __future__ import annotations

import re

from spacy.tokens import Doc, Token

from tasks.edits import lexicons
from tasks.edits.context import Context
from tasks.edits.negation_removal import rule_removal
from tasks.edits.result import Edit, Skip
from tasks.edits.rewrite import UNCONTRACTED, Rewrite
from tasks.edits.swap import match_case, replace_span
from tasks.edits.tense import DE_PARTICIPLE
from tasks.edits.verbgroup import (
    NEGATORS,
    SUBJECT_DEPS,
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


# The negative member of each affix pair (column b of negation_affixes_en.tsv, 'unhappy') and the removal-only
# negatives (negation_removal_en.tsv, 'unknown' -> 'known'; 'known' itself is never negated: 'known as').
NEGATIVE_WORDS = frozenset(b.lower() for _, b in lexicons.rows("negation_affixes", "en"))
REMOVAL_ONLY = lexicons.pairs("negation_removal", "en")


def removes_negation(detail: str) -> bool:
    """True when a negation edit with this detail removes a negation ('remove:not', 'remove:no',
    'remove:without', 'remove-lexical:unknown->known', 'remove:n'a pas', 'remove:kein->ein', 'remove:ingen->en'),
    False when it adds one ('insert:not', 'insert:nicht', 'lexical:happy->unhappy')."""
    kind = detail.split(":", 1)[0]
    return kind.startswith("remove") or kind.endswith("-remove")


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
        other = _remove_other(doc)
        if other is not None:
            return other
        return _lexical_edit(doc, word, lexicon) if word is not None else Skip(group)
    if group.negs:
        return _one_negation_left(_remove(doc, group))
    other = _remove_other(doc)
    if other is not None:
        return other  # a sentence with a negation has it removed, never a second one added
    if prefer_lexical and word is not None:
        return _lexical_edit(doc, word, lexicon)
    result = _insert(doc, group)
    if isinstance(result, Skip) and word is not None:
        return _lexical_edit(doc, word, lexicon)
    return result


LEFT_NEGATION = re.compile(r"n['’]t\b|\b(?:not|never|no|nothing|nobody|none|neither|nor|without)\b", re.IGNORECASE)


def _one_negation_left(result: Edit | Skip) -> Edit | Skip:
    """A removal that leaves another negation in the sentence reads as half a change ('A time limit is not needed
    if there is no risk' -> 'is needed if there is no risk', judged a giveaway): skipped."""
    if isinstance(result, Edit) and LEFT_NEGATION.search(result.bad):
        return Skip("several_negations")
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
    if not group.first.i - 1 <= neg.i <= group.head.i + 1:
        return Skip("constituent_negation")  # '( not training ) will have': the negation is no part of the verb
    if neg.i > 0 and doc[neg.i - 1].lower_ in ("need", "dare"):
        return Skip("negative_only_modal")  # 'need not be pumped' -> 'need be pumped'
    reason = _scope_clash(doc, neg)
    if reason:
        return Skip(reason)
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


# Words that need the negation they follow ('not only ... but also', 'no longer', 'never before', 'not yet', 'not
# even', 'not at all', 'nothing but'): without it they are broken or a different idiom.
NEEDS_NEGATION_AFTER = {"only", "just", "merely", "simply", "longer", "more", "less", "sooner", "matter", "doubt",
                        "way", "yet", "before", "again", "ever", "until", "till", "least", "but", "to",
                        "too", "either", "once", "two", "all"}
# Polarity items in the negation's scope ('did not see anyone' -> 'saw anyone'; 'without any help' -> 'with any').
NEGATIVE_POLARITY = {"any", "anything", "anyone", "anybody", "anywhere", "ever", "yet", "either", "whatsoever",
                     "anymore", "nor", "neither", "at all"}
SENTENCE_NEGATIONS = {"not", "n't", "never", "no", "nothing", "nobody", "none", "neither", "nor", "without",
                      "cannot", "nowhere"}
# 'without' in a fixed phrase: 'without a doubt', 'goes without saying', 'without fail', 'without warning'.
WITHOUT_IDIOM = {"doubt", "question", "fail", "exception", "warning", "delay", "ado", "saying", "notice", "end",
                 "hesitation", "reservation", "success", "interruption", "avail"}
NO_PRONOUNS = {"nothing": "something", "nobody": "somebody"}
MASS_NOUNS = lexicons.entry_set("negation_mass_nouns_en")


def _scope_clash(doc: Doc, neg: Token) -> str | None:
    """Why removing ``neg`` breaks the sentence: a word right after it that needs it ('not only', 'no longer',
    'never before'), or a polarity item later in the sentence ('did not see anyone' -> 'saw anyone')."""
    nxt = doc[neg.i + 1].lower_ if neg.i + 1 < len(doc) else ""
    if neg.lower_ == "no" and nxt == "one":
        nxt = doc[neg.i + 2].lower_ if neg.i + 2 < len(doc) else ""
    if nxt in NEEDS_NEGATION_AFTER and not (neg.lower_ in ("not", "n't") and nxt == "to"):
        return "needs_negation"  # 'not to provide' loses nothing: only 'to' is kept
    later = [t.lower_ for t in doc[neg.i + 1:]]
    if any(w in NEGATIVE_POLARITY for w in later) or " at all" in " ".join(later):
        return "negative_polarity_item"
    return None


def _article(word: str) -> str:
    """'a' or 'an' before ``word`` by its first sound (an hour, a university, an FBI agent)."""
    low = word.lower()
    if word.isupper() and len(word) > 1:
        return "an" if low[0] in "aefhilmnorsx" else "a"
    if low.startswith(("hour", "honest", "honor", "honour", "heir")):
        return "an"
    if low.startswith(("uni", "use", "usu", "uti", "eu", "one", "once", "ur")):
        return "a"
    return "an" if low[:1] in "aeiou" else "a"


def _group_of(head: Token) -> VerbGroup:
    """The verb group of any verb of the sentence (find_group takes the root's only)."""
    auxes = sorted((c for c in head.children if c.dep_ in ("aux", "auxpass") and c.tag_ != "TO" and c.i < head.i),
                   key=lambda t: t.i)
    negs = sorted((c for c in head.children if c.dep_ == "neg" and c.lower_ in NEGATORS), key=lambda t: t.i)
    subject = next((c for c in head.children if c.dep_ in SUBJECT_DEPS), None)
    return VerbGroup(head=head, auxes=auxes, negs=negs, subject=subject)


def _remove_other(doc: Doc) -> Edit | Skip | None:
    """Remove the one negation of a sentence whose main verb is not negated, or None when it has none: 'not' /
    'never' of another verb ('concluded that he could not defend himself' -> 'could defend'), 'no' before a noun
    ('There is no service' -> 'There is a service', 'has no moving parts' -> 'has moving parts', 'no one' ->
    'someone'), 'nothing' / 'nobody', and 'without' before a noun phrase ('would work without ADL' -> 'with ADL').
    A sentence with two negations is left alone: one removed, the other reads as a contradiction."""
    negations = [t for t in doc if t.lower_ in SENTENCE_NEGATIONS and not t.tag_.startswith("NN")]  # 'No .': a sign
    if not negations:
        return None
    if len(negations) > 1:
        return Skip("several_negations")
    neg = negations[0]
    if NEGATIVE_ONLY.search(doc.text):
        return Skip("negative_only_phrase")
    if neg.lower_ in NEGATORS:
        if not (neg.dep_ == "neg" and neg.head.tag_.startswith(("VB", "MD"))):
            return Skip("constituent_negation")  # 'in Claiborne Parish , not near Haynesville', '( not training )'
        group = _group_of(neg.head)
        if group.first.tag_ not in ("VBD", "VBZ", "VBP", "MD") and not (neg.i + 1 < len(doc)
                                                                         and doc[neg.i + 1].tag_ == "TO"):
            return Skip("constituent_negation")  # '( not training )', 'not yet known': no finite verb or 'to'
        return _remove(doc, group)
    reason = _scope_clash(doc, neg)
    if reason:
        return Skip(reason)
    rw = Rewrite(doc)
    word = neg.lower_
    if word in NO_PRONOUNS:
        rw.replace(neg.i, NO_PRONOUNS[word])
        return rw.edit("negation", f"remove:{word}")
    if word == "none":
        return Skip("none_agreement")  # 'none of them was' -> 'some of them was'
    if word == "without":
        return _remove_without(doc, neg, rw)
    if word != "no":
        return Skip("unsupported_negation")
    nxt = doc[neg.i + 1] if neg.i + 1 < len(doc) else None
    if nxt is not None and nxt.lower_ == "one":
        rw.delete(neg.i)
        rw.replace(nxt.i, "someone")
        return rw.edit("negation", "remove:no one")
    noun = neg.head
    if not noun.tag_.startswith("NN") or noun.i < neg.i or any(t.tag_ not in ("JJ", "JJR", "VBN", "VBG", "NN", "NNP")
                                                                 for t in doc[neg.i + 1:noun.i]):
        return Skip("no_before_noun_phrase")  # 'to No .' (a number sign), 'no more were flown'
    if noun.tag_ in ("NNS", "NNPS"):
        rw.delete(neg.i)  # 'has no moving parts' -> 'has moving parts'
    elif noun.lower_ in MASS_NOUNS:
        rw.replace(neg.i, "some")  # 'there was no local contact' -> 'there was some local contact'
    elif nxt is not None and nxt.lower_ == "other":
        rw.delete(neg.i)
        rw.replace(nxt.i, "another")  # 'no other nation entered' -> 'another nation entered'
    else:
        rw.replace(neg.i, _article(nxt.text))  # 'There is no emergency service' -> 'There is an emergency service'
    return rw.edit("negation", "remove:no")


def _remove_without(doc: Doc, neg: Token, rw: Rewrite) -> Edit | Skip:
    """'without' -> 'with' before a noun phrase ('would work without ADL' -> 'with ADL'); not before a gerund
    ('without saying'), in a fixed phrase ('without a doubt', 'without warning') or after a degree adverb
    ('completely without light' -> 'completely with light' reads wrong)."""
    obj = next((c for c in neg.children if c.dep_ in ("pobj", "pcomp")), None)
    if obj is None or obj.tag_ == "VBG" or not (obj.tag_.startswith("NN") or obj.tag_ == "PRP"):
        return Skip("without_not_noun_phrase")
    if obj.lower_ in WITHOUT_IDIOM or any(t.lower_ in WITHOUT_IDIOM for t in doc[neg.i + 1:obj.i + 1]):
        return Skip("without_idiom")
    if neg.i > 0 and doc[neg.i - 1].tag_ in ("RB", "RBR") and doc[neg.i - 1].lower_ not in ("even", "also"):
        return Skip("adverb_before_without")
    rw.replace(neg.i, "with")
    return rw.edit("negation", "remove:without")


FOCUS_BEFORE = {"just", "only", "simply", "merely"}
CONTRACTED_AUXILIARIES = {"'d", "'ve", "'ll", "’d", "’ve", "’ll"}


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
    before = doc[first.i - 1].lower_ if first.i > 0 else ""
    if first.lower_ in CONTRACTED_AUXILIARIES or before in CONTRACTED_AUXILIARIES or before.endswith(("'d", "’d")):
        return Skip("contracted_auxiliary")  # "I'd not like to buy", "I'd haven't done" are unidiomatic
    if first.i > 0 and doc[first.i - 1].lower_ in FOCUS_BEFORE:
        return Skip("focus_adverb")  # 'I just need a little time' -> 'I just do not need' is unidiomatic
    rw = Rewrite(doc)
    contract = CONTRACTED.search(doc.text) is not None or group.subject.lower_ in SPEAKERS
    if first.lower_ == "can":
        rw.replace(first.i, match_case(first.text, "can't" if contract else "cannot"))
    elif is_auxiliary_use(group, first):
        if contract and first.lower_ in NEGATIVE_CONTRACTIONS:
            rw.replace(first.i, match_case(first.text, NEGATIVE_CONTRACTIONS[first.lower_]))  # is -> isn't
        else:
            rw.insert_after(first.i, "not")  # is -> is not, has gone -> has not gone, will go -> will not go
    else:
        agr = agreement(group)
        if agr is None and tense == "present":
            return Skip("agreement_unknown")
        do = finite_form("do", tense, agr or "3sg")
        base = base_form(lemma_of(first))
        if base is None:
            return Skip("no_inflection")
        rw.replace(first.i, f"{do}n't {base}" if contract else f"{do} not {base}")  # went -> did not go
    return rw.edit("negation", "insert:not")


# A text written with contractions ("I'm", "we're", "don't", "it's", "you'll") or said by or to its speaker (subject
# I, we, you) gets a new negation contracted: 'We stressed the point' -> "We didn't stress the point", not 'did not
# stress'. Removals take away the negation as the text writes it, so otherwise nearly every removed negation is
# "n't" and every inserted one "not": a giveaway.
CONTRACTED = re.compile(r"\w(?:n't|n’t|'(?:m|re|ll|ve|d)|’(?:m|re|ll|ve|d))\b|\b(?:it|that|there|he|she|what)['’]s\b",
                        re.IGNORECASE)
SPEAKERS = {"i", "we", "you"}
NEGATIVE_CONTRACTIONS = {"is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "has": "hasn't",
                         "have": "haven't", "had": "hadn't", "will": "won't", "would": "wouldn't", "could": "couldn't",
                         "should": "shouldn't", "does": "doesn't", "do": "don't", "did": "didn't", "must": "mustn't"}


def _lexical_candidate(doc: Doc, lexicon: dict[str, str]) -> Token | None:
    """The first adjective (or adjectival participle) in the lexicon (or a removal-only negative, 'unknown') that
    is not part of a name."""
    for tok in doc:
        if (tok.lower_ not in lexicon and tok.lower_ not in REMOVAL_ONLY) or (tok.is_title and tok.i > 0):
            continue
        if tok.lower_ in REMOVAL_ONLY and tok.i > 0 and doc[tok.i - 1].lemma_ in ("remain", "still", "little"):
            continue  # 'remains unknown' is a set phrase: 'remains known' reads wrong
        if tok.tag_ == "JJ" or (tok.tag_ == "VBN" and tok.dep_ == "amod"):
            return tok
    return None


def _lexical_edit(doc: Doc, tok: Token, lexicon: dict[str, str]) -> Edit:
    """'lexical:happy->unhappy' adds a negative affix, 'remove-lexical:unhappy->happy' takes one away."""
    word = tok.lower_
    new = lexicon.get(word) or REMOVAL_ONLY[word]
    rw = Rewrite(doc)
    rw.replace(tok.i, new)
    kind = "remove-lexical" if word in NEGATIVE_WORDS or word in REMOVAL_ONLY else "lexical"
    return rw.edit("negation", f"{kind}:{word}->{new}")


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
# does a word that needs the negation ("I don't even know where to begin" -> 'I even know'). A contrast or
# concession clashes wherever it stands ('Although interchangeable , the parts are not similar' -> 'are similar');
# a coordination or polarity word only after the negation ('Field greens and root plants were not cultivated'
# reads right without it).
REMOVAL_CLASH = re.compile(r"[.;!?]\s+\S"
                           r"|\b(?:but|mais|aber|men|sondern|utan|although|though|while|whereas|despite|obwohl"
                           r"|trotz|fast|medan|or|ou|oder|eller|nor|ni|weder)\b"
                           r"|^\W*(?:no|non|nein|nej)\b|\b(?:otherwise|sinon|sonst|annars)\b"
                           r"|\b(?:bien|même|alors|tandis) (?:que\b|qu['’]|si\b)"
                           r"|\b(?:auch|wenn) (?:wenn|auch)\b|\bäven om\b"
                           r"|\b(?:so|therefore|thus|because|donc|car|parce|deshalb|daher|weil|darum|eftersom|därför)\b",
                           re.IGNORECASE)
REMOVAL_CLASH_AFTER = re.compile(r"\b(?:and|et|und|och|any|anything|anyone|ever|either|even|yet|anymore|until"
                                 r"|ens|någon\w*|något|några|alls|heller|förrän|jemals|irgend\w*|überhaupt)\b",
                                 re.IGNORECASE)
# Said only with the negation: 'It is not known whether', 'Es ist nicht bekannt, ob', 'On ne sait pas si'.
KNOW_IF = re.compile(r"\b(?:known|clear|certain|sure|bekannt|klar|sicher|weiß|wissen|wusste|sait|savait|savent"
                     r"|sais|clair|vet|visste|känt|klart)(?: \w+)?,? (?:whether\b|if\b|ob\b|si\b|s['’]|om\b)",
                     re.IGNORECASE)
CAUSE = {"de": re.compile(r"\b(?:also|weshalb|sodass|folglich)\b", re.IGNORECASE)}


def removal_gives_away(text: str, at: int | None = None, lang: str | None = None) -> str | None:
    """Why removing the negation at char ``at`` of ``text`` (anywhere when None) would contradict the rest of it
    (REMOVAL_CLASH or a contrast anywhere, REMOVAL_CLASH_AFTER after ``at``, a language's own cause words), or
    would leave a phrase said only negated (KNOW_IF), or None."""
    text = text.strip().rstrip(".!?")
    if KNOW_IF.search(text):
        return "know_if"
    if (REMOVAL_CLASH.search(text) or CONTRAST.search(text) or REMOVAL_CLASH_AFTER.search(text, at or 0)
            or (lang in CAUSE and CAUSE[lang].search(text))):
        return "removed_in_compound_sentence"
    return None


def english_denial_gives_away(edit: Edit) -> str | None:
    """denial_gives_away for an English negation edit that adds a negation, removal_gives_away for one that
    removes it. A lexical negation ('reliable' -> 'unreliable') is refused: it reads as an antonym, not a
    negation."""
    if edit.detail.startswith(("lexical:", "remove-lexical:")):
        return "lexical_negation_reads_as_antonym"
    if removes_negation(edit.detail):
        return removal_gives_away(edit.good, edit.start)
    return denial_gives_away(edit.good)


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
    _, verbs = NEGATION_RULES[ctx.lang]
    removal = rule_removal(text, ctx.lang)
    if removal is not None:
        if isinstance(removal, Skip):
            return removal
        reason = removal_gives_away(text, removal.start, ctx.lang)
        return Skip(reason) if reason else removal
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
