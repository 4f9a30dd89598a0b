"""The tense edit. English: the main verb group moves between past, present and future ("will" + base form),
the datasets taking it from the present into the past (dataset_tense_edit); French, German and Swedish: the one
listed finite verb moves into the past ('est' -> 'était'). Neither where the sentence is timeless or bounded by
now ('so far', 'is named after') nor beside a year long past ('In 1924 he is')."""
from __future__ import annotations

import re

from spacy.tokens import Doc

from tasks.edits import lexicons
from tasks.edits.context import Context, token_at
from tasks.edits.numerals import DECADE, LAST_PAST_YEAR, YEAR
from tasks.edits.result import Edit, Skip
from tasks.edits.rewrite import Rewrite
from tasks.edits.swap import swap_match
from tasks.edits.verbgroup import (
    VerbGroup,
    agreement,
    base_form,
    find_group,
    finite_form,
    is_auxiliary_use,
    lemma_of,
    tense_of,
    tense_of_token,
)

TENSES = ("past", "present", "future")
SUBJECTS = {"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"}
# Verbs whose past, said by or to the speaker, is the polite present ('How much did you want for it?', 'I was
# wondering'): no change of meaning.
POLITE_PAST = {"want", "wonder", "hope", "wish"}


def tense_edit(doc: Doc, target: str) -> Edit | Skip:
    """Re-inflect the main verb group of ``doc`` into ``target`` tense, or say why not."""
    group = find_group(doc)
    if isinstance(group, str):
        return Skip(group)
    if doc.lang_ == "en" and _subjectless(group):
        return Skip("no_subject")
    current = tense_of(group)
    if current not in TENSES:
        return Skip(current)
    if current == target:
        return Skip("same_tense")
    if _other_finite_in(doc, group, current):
        return Skip("tense_clash")
    if group.is_inverted and not group.do_support:
        return Skip("inverted_subject")
    subject = group.subject.lower_ if group.subject is not None else ""
    if subject.startswith(("d'", "d’")):
        return Skip("contracted_do")  # "D'you want" -> "D'you wanted"
    if target == "past" and doc.lang_ == "en" and lemma_of(group.head) in POLITE_PAST and subject in ("i", "you"):
        return Skip("polite_past")
    after_head = doc[group.head.i + 1] if group.head.i + 1 < len(doc) else None
    if group.head.lower_ == "used" and after_head is not None and after_head.lower_ == "to":
        return Skip("used_to")
    rw = Rewrite(doc)
    reason = _from_future(group, target, rw) if current == "future" else _from_finite(group, target, rw)
    if reason:
        return Skip(reason)
    return rw.edit("tense", f"{current}->{target}")


def _subjectless(group: VerbGroup) -> bool:
    """A main verb with no subject of its own: an imperative, or the formula 'thank you' ('Mr Evans, thank you'
    never becomes 'Mr Evans, thanked you')."""
    head = group.head
    after = head.doc[head.i + 1] if head.i + 1 < len(head.doc) else None
    if head.lemma_.lower() == "thank" and after is not None and after.lower_ == "you" and not group.auxes:
        return not any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in head.children)
    return head.dep_ == "ROOT" and not any(c.dep_ in SUBJECTS for c in head.children)


def _other_finite_in(doc: Doc, group: VerbGroup, tense: str) -> bool:
    """Another finite verb of ``doc`` in ``tense``: it would keep it beside the edited group ('There is no freedom
    if you don't acknowledge it' -> 'There was no freedom if you don't ...' clashes)."""
    own = {group.head.i, *(a.i for a in group.auxes)}
    return any(tense_of_token(t) == tense for t in doc if t.i not in own)


# A 'will' put into a report of facts reads as an error without the source; a past moved into the present reads
# as a historical present ('is survived by', 'Avant son indépendance, la Finlande est'), a clash with the narrative
# ('ist 14 Jahre alt, als ... kamen') or a birth ('is born'). So every edit goes from the present into the past.
EDIT_TARGET = "past"


def dataset_tense_edit(doc: Doc) -> Edit | Skip:
    """The tense edit both datasets use: the main verb group from the present into EDIT_TARGET, none out of the
    future ('I will tell you if you translate it' -> 'I told you ... if you translate it' clashes)."""
    result = tense_edit(doc, EDIT_TARGET)
    if isinstance(result, Edit) and result.detail.startswith("future->"):
        return Skip("from_future")
    return result


def _from_future(group: VerbGroup, target: str, rw: Rewrite) -> str | None:
    """will (not) V -> V-ed / did not V; will (not) be -> was (not); will have V-en -> had V-en."""
    will = group.first
    if will.lower_ == "'ll":
        return "contracted_will"
    rest = group.auxes[1:] + [group.head]
    base = rest[0]
    if base.tag_ != "VB":
        return "future_without_base"
    lemma = lemma_of(base)
    agr = agreement(group)
    if agr is None and (target == "present" or lemma == "be" or group.negs):
        return "agreement_unknown"
    agr = agr or "3sg"
    if is_auxiliary_use(group, base) or lemma == "be":
        form = finite_form(lemma, target, agr)
        if form is None:
            return "no_inflection"
        rw.replace(will.i, form)
        rw.delete(base.i)
    elif group.negs:
        rw.replace(will.i, finite_form("do", target, agr))  # do-support: will not go -> did not go
    else:
        form = finite_form(lemma, target, agr)
        if form is None:
            return "no_inflection"
        rw.delete(will.i)
        rw.replace(base.i, form)
    return None


def _from_finite(group: VerbGroup, target: str, rw: Rewrite) -> str | None:
    """Past <-> present by re-inflecting the finite element; to future by 'will' + its base form."""
    first = group.first
    lemma = lemma_of(first)
    if target == "future":
        if group.do_support:
            rw.replace(first.i, "will")  # did not go -> will not go
            return None
        base = base_form(lemma)
        if base is None:
            return "no_inflection"
        neg_after = next((n for n in group.negs if n.i == first.i + 1), None)
        never_before = next((n for n in group.negs if n.i == first.i - 1 and n.lower_ == "never"), None)
        if neg_after is not None:
            rw.replace(first.i, "will")
            rw.insert_after(neg_after.i, base)
        elif never_before is not None:
            rw.insert_before(never_before.i, "will")
            rw.replace(first.i, base)
        else:
            rw.replace(first.i, f"will {base}")
        return None
    agr = agreement(group)
    if agr is None and (target == "present" or lemma == "be"):
        return "agreement_unknown"
    form = finite_form(lemma, target, agr or "3sg")
    if form is None:
        return "no_inflection"
    rw.replace(first.i, form)
    return None


HEDGES = lexicons.entry_set("tense_hedges_en")  # a root hedge verb: say, seem, believe, ...
FUTURE = re.compile(r"\b(?:" + lexicons.alternation("tense_future") + r")\b", re.IGNORECASE)
CENTURY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th|e|er|\.)?\s+(?:century|centuries|siècles?|Jahrhunderts?)\b"
                     r"|\b[IVXL]+e\s+siècle", re.IGNORECASE)
# A tense edit in a sentence with 'so far' or another period up to now clashes with it ('have closed in the last
# few years' -> 'had closed'); 'formula' marks PAWS-X's placeholders of a definition, which is timeless: both read
# as wrong without the source.
SO_FAR = re.compile(r"\b(?:" + lexicons.alternation("tense_so_far") + r")\b", re.IGNORECASE)
FORMULA = re.compile(r"\b(?:formula|formule|formel)\b", re.IGNORECASE)
# What a thing is named after holds in any tense: 'is named after' -> 'was named after' changes nothing.
NAMING = re.compile(r"\b(?:named|called)\s+(?:after|for)\b|\bnommée?s?\s+(?:d'après|d’après|en l'honneur)|\bbenannt\b"
                    r"|\buppkallad", re.IGNORECASE)
# A past beside 'current' or 'now' contradicts it ('était l'équipe actuelle', 'nu var det'); a definition of a kind
# ('A multiverse is the collection of ...') holds at any time.
NOW = re.compile(r"\b(?:" + lexicons.alternation("tense_now") + r")\b", re.IGNORECASE)
GENERIC = re.compile(r"\s*(?:an?|un|une|ein|eine|en|ett)\s+(?:[\w-]+\s+){1,3}(?:is|est|ist|är)\s+"
                     r"(?:the|a|an|le|la|l'|un|une|der|die|das|ein|eine|en|ett)\b", re.IGNORECASE)
# What a river, mountain, island or bay is stays true: 'The Neajlov River was a tributary', 'Mount DeVoe was a
# mountain', 'Malta was a bay' read as wrong without the source; so does what a living religion or a name is:
# 'Sikhism was a religion', 'Kim was a unisex given name'.
NATURAL_FACT = re.compile(r"\b(?:is|are|est|sont|ist|sind|är)\s+(?:(?:a|an|the|un|une|le|la|l'|ein|eine|der|die|das|"
                          r"en|ett)\s+)?(?:[\w'-]+\s+){0,2}(?:" + lexicons.alternation("tense_natural_fact_nouns")
                          + r")\b", re.IGNORECASE)
# What someone is a former one of stays said in the past already: 'is a former footballer' -> 'was a former
# footballer' changes nothing and reads as doubled.
FORMER = re.compile(r"\b(?:is|are|est|sont|ist|sind|är)\s+(?:(?:a|an|the|un|une|l'|ein|eine|der|die|das|en|ett)\s+)?"
                    r"(?:[\w'-]+\s+)?(?:" + lexicons.alternation("tense_former") + ")", re.IGNORECASE)


def timeless_or_bounded(text: str) -> str | None:
    """Why no tense edit suits ``text`` whatever its verb: 'so far', a formula, a naming, 'now', what a natural
    feature, a religion or a name is, what someone formerly was, a definition of a kind (see above)."""
    for reason, pattern in (("so_far", SO_FAR), ("formula_definition", FORMULA), ("naming_fact", NAMING),
                            ("says_now", NOW), ("natural_feature", NATURAL_FACT), ("says_former", FORMER)):
        if pattern.search(text):
            return reason
    return "generic_definition" if GENERIC.match(text) else None


def tense_with_past_date(edit: Edit, lang: str) -> bool:
    """A tense edit that puts a present or a future next to a year, decade or century long past ('In 1924 he
    is', 'will ... in 1524', 'are built in the 1980s', 'rules Mali from the 12th century'): visibly wrong without
    the source."""
    years = YEAR.findall(edit.bad) + DECADE.findall(edit.bad)
    if not any(int(y) <= LAST_PAST_YEAR for y in years) and not CENTURY.search(edit.bad):
        return False
    presents = {a.lower() for a, _ in lexicons.rows("tense", lang)}  # the lists' first column: present forms
    return bool(FUTURE.search(edit.target)) or edit.detail.endswith("->present") or edit.target.lower() in presents


FUTURE_LEFT = re.compile(r"\b(?:will|shall|won't)\b|'ll\b", re.IGNORECASE)


def past_beside_future(edit: Edit) -> bool:
    """An English edit into the past that leaves a future beside it ('It was also worth noting that the code
    would work (it will be applied anyway)'): a clash that gives the edit away."""
    return edit.detail.endswith("->past") and bool(FUTURE_LEFT.search(edit.bad))


def tense(text: str, ctx: Context) -> Edit | Skip:
    """English: the verb-group tense edit of the foundation stage, not on a hedge verb (say, seem, ...);
    others: auxiliary and verb swaps. No present or future next to an explicit past year, and none in a
    sentence saying 'so far', defining a formula or saying what a thing is named after."""
    reason = timeless_or_bounded(text)
    if reason:
        return Skip(reason)
    if ctx.lang == "en":
        if ctx.doc is None:
            return Skip("needs_doc")
        root = next((t for t in ctx.doc if t.dep_ == "ROOT"), None)
        if root is not None and root.lemma_ in HEDGES and any(c.dep_ in ("ccomp", "xcomp") for c in root.children):
            return Skip("hedge_verb")
        result = dataset_tense_edit(ctx.doc)
        if isinstance(result, Edit) and past_beside_future(result):
            return Skip("past_beside_future")
    else:
        result = _listed_verb_tense(text, ctx)
    if isinstance(result, Edit) and tense_with_past_date(result, ctx.lang):
        return Skip("tense_with_past_date")
    return result


INFINITIVE_MARKER = re.compile(r"\b(?:zu|att)\s+$", re.IGNORECASE)  # 'bat ihn, sein Librettist zu werden'


def _listed_verb_tense(text: str, ctx: Context) -> Edit | Skip:
    """French, German, Swedish: move the sentence's one listed finite verb from the present into the past. With
    two, the other would keep its tense beside the new one ('war kontinuierlich und ist', 'kann ... übertragen
    wurden'); a French auxiliary before a participle mostly changes aspect ('est né' -> 'était né', 'a adhéré'
    -> 'avait adhéré'). Both are skipped. A listed word after an elided article ('à l'est'), an infinitive after
    'zu' or 'att' ('zu werden' -> 'zu wurden') or, with a Doc, one not tagged as a verb does not count. The
    Swedish future 'kommer att' stays, as in English."""
    pat = lexicons.pattern("tense", ctx.lang)
    found = [m for m in (pat.finditer(text) if pat is not None else [])
             if text[max(0, m.start() - 2):m.start()].lower() not in ("l'", "l’", "d'", "d’")
             and not INFINITIVE_MARKER.search(text[:m.start()])]
    tokens = {m.start(): token_at(ctx.doc, m.start()) for m in found} if ctx.doc is not None else {}
    found = [m for m in found if tokens.get(m.start()) is None or tokens[m.start()].pos_ in ("AUX", "VERB")]
    if len(found) > 1 or found and _other_finite_verb(ctx.doc, tokens.get(found[0].start())):
        return Skip("tense_clash")
    if found and tokens.get(found[0].start()) is not None and _before_participle(tokens[found[0].start()]):
        return Skip("compound_tense")
    if found and ctx.lang in ("de", "sv") and not text[:found[0].start()].strip():
        return Skip("verb_first")  # V2 languages: a sentence-initial verb is an imperative or a question
    if found and ctx.lang == "sv" and FUTURE.match(text, found[0].start()):
        return Skip("from_future")  # 'de kommer att svara' (will answer) -> 'kom att svara' (came to answer)
    if found and ctx.lang == "de" and found[0].group(0).lower() in ("hat", "haben") and _closing_participle(
            text[found[0].end():]):
        return Skip("compound_tense")  # 'haben ... erzielt' -> 'hatten ... erzielt': a past either way
    if found and ctx.lang == "de" and re.search(r"\bgeboren\b", text):
        return Skip("birth")  # 'wird ... geboren' of a person's birth gives itself away
    rows = lexicons.rows("tense", ctx.lang)
    pasts = {b.lower() for _, b in rows} - {a.lower() for a, _ in rows}
    if found and lexicons.pairs("tense", ctx.lang)[found[0].group(0).lower()] not in pasts:
        return Skip("not_into_past")  # no past or future moved into the present (EDIT_TARGET)
    return swap_match(text, pat if found else None, lexicons.pairs("tense", ctx.lang), "tense", ctx.rng,
                      lambda m: m.start() == found[0].start())


def _other_finite_verb(doc: Doc | None, token) -> bool:
    """With a morphologised Doc (French): a finite verb other than ``token`` in its tense, which would keep it
    beside the edited one ('Le SPB avait ... mais son diamètre change', 'S'il y avait ..., seule la première
    porte')."""
    if doc is None or token is None or not token.morph.get("Tense"):
        return False
    return any(t.i != token.i and t.pos_ in ("AUX", "VERB") and "Fin" in t.morph.get("VerbForm")
               and t.morph.get("Tense") == token.morph.get("Tense")
               and (t.i == 0 or doc[t.i - 1].lower_ not in ("l'", "l’", "d'", "d’")) for t in doc)


def _closing_participle(rest: str) -> bool:
    """A German clause after the finite verb that closes on a participle, before punctuation or a coordinating
    conjunction ('... in Melbourne erzielt, bevor ...', 'haben einigen Erfolg erzielt und spielten')."""
    return any(words and DE_PARTICIPLE.fullmatch(words[-1])
               for words in (re.findall(r"[\w-]+", clause)
                             for clause in re.split(r"[,;:.!?()]|\b(?:und|oder|aber|sondern|denn)\b", rest)))


# a German past participle ('gezeigt', 'verkauft', 'reformiert')
DE_PARTICIPLE = re.compile(r"(?:\w*ge\w+(?:t|en)|(?:be|ver|er|zer|ent|emp|miss)\w+(?:t|en)|\w+iert)")
# a French participle after 'avoir' that the small tagger reads as an adjective or a finite past ('a réagi' ADJ)
FR_PARTICIPLE = re.compile(r"(?:é|ée|és|ées|i|ie|is|ies|u|ue|us|ues|it|ite|its|ert|erte|int|einte)$")


def _before_participle(token) -> bool:
    """An auxiliary whose next word, adverbs and 'pas' aside, is a participle (a compound tense or a passive)."""
    for nxt in token.doc[token.i + 1:token.i + 4]:
        if nxt.pos_ != "ADV" and nxt.lower_ not in ("pas", "plus", "jamais"):
            return "Part" in nxt.morph.get("VerbForm") or (token.lang_ == "fr" and token.lemma_ == "avoir"
                                                           and nxt.pos_ in ("VERB", "ADJ")
                                                           and FR_PARTICIPLE.search(nxt.lower_) is not None)
    return False
