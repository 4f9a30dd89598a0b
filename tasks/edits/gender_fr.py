"""French gender edits that keep agreement: the swapped noun or pronoun takes its whole agreeing group
along (determiner, contracted article du/au, adjectives, the past participle after être, a predicate
adjective), read from fr_core_news_sm's dependencies and morphology. Impersonal 'il' is skipped."""
from __future__ import annotations

import random
import re
from itertools import pairwise

from spacy.tokens import Doc, Token

from tasks.edits import lexicons
from tasks.edits.result import Edit, Skip
from tasks.edits.rewrite import Rewrite
from tasks.edits.swap import match_case

VOWEL = tuple("aeiouyéèêâîôûh")
# determiner: (masculine, feminine, masculine before a vowel, feminine before a vowel)
DETERMINERS = {k: row for row in [("le", "la", "l'", "l'"), ("un", "une", "un", "une"), ("ce", "cette", "cet", "cette"),
                                  ("mon", "ma", "mon", "mon"), ("ton", "ta", "ton", "ton"), ("son", "sa", "son", "son")]
               for k in row}
PLURAL_DETERMINERS = {"les", "des", "ces", "mes", "tes", "ses", "nos", "vos", "leurs", "leur", "plusieurs", "deux"}
CONTRACTED = {"du": "de", "au": "à"}  # du = de + le, au = à + le
PRONOUNS = {"il", "elle", "ils", "elles"}
COPULAR = {"être", "devenir", "rester", "sembler", "paraître", "demeurer"}
# verbs whose subject is a person: evidence that 'il'/'elle' is personal, not an impersonal 'it'
PERSON_VERBS = {"naître", "mourir", "décéder", "épouser", "marier", "étudier", "grandir", "jouer", "chanter", "écrire",
                "composer", "peindre", "enseigner", "travailler", "devenir", "rejoindre", "quitter", "diriger"}
# participles of a person's life that keep the gender of their subject anywhere in the sentence
_LIFE = ("né", "mort", "marié", "devenu", "allé", "venu", "élu", "nommé", "installé", "connu", "retiré", "parti")
AGREEING_PARTICIPLES = {"Masc": set(_LIFE), "Fem": {w + "e" for w in _LIFE}}
IRREGULAR = [("beau", "belle"), ("nouveau", "nouvelle"), ("vieux", "vieille"), ("fou", "folle"), ("blanc", "blanche"),
             ("long", "longue"), ("frais", "fraîche"), ("doux", "douce"), ("faux", "fausse"), ("roux", "rousse")]
SUFFIXES = [("eux", "euse"), ("eur", "euse"), ("if", "ive"), ("ier", "ière"), ("er", "ère"), ("el", "elle"),
            ("ien", "ienne"), ("on", "onne"), ("et", "ette"), ("é", "ée"), ("i", "ie"), ("u", "ue"), ("ais", "aise"),
            ("ois", "oise"), ("ain", "aine"), ("in", "ine"), ("ant", "ante"), ("ent", "ente"), ("and", "ande"),
            ("ard", "arde"), ("ort", "orte"), ("it", "ite"), ("at", "ate"), ("ut", "ute"), ("al", "ale"),
            ("ul", "ule"), ("ert", "erte"), ("ond", "onde"), ("ourd", "ourde"), ("ais", "aise")]


def inflect_adjective(word: str, feminine: bool) -> str | None:
    """The adjective or participle ``word`` in the other gender (same number); None when no rule knows it.
    Words ending in -e (other than -ée) are the same in both genders."""
    lower, plural = word.lower(), ""
    if lower.endswith("s") and not lower.endswith(("ais", "ois", "eux")):
        lower, plural = lower[:-1], "s"
    elif lower.endswith(("aux", "eaux", "eux")) and not feminine:
        return None  # masculine plural forms like 'nationaux' do not map back uniquely
    for masc, fem in IRREGULAR:
        if lower == (fem if not feminine else masc):
            return match_case(word, (masc if not feminine else fem) + plural)
    pairs = sorted(SUFFIXES, key=lambda p: -len(p[1] if not feminine else p[0]))
    for masc, fem in pairs:
        if feminine and lower.endswith(masc):
            return match_case(word, lower[: -len(masc)] + fem + plural)
        if not feminine and lower.endswith(fem):
            return match_case(word, lower[: -len(fem)] + masc + plural)
    if lower.endswith("e") and not lower.endswith("ée"):
        return word
    return None


def _is_feminine(word: str) -> bool:
    """Column b of gender_fr.tsv holds the feminine forms."""
    return word.lower() in {b.lower() for _, b in lexicons.rows("gender", "fr")}


def _agreeing_head(tok: Token) -> Token | str | None:
    """The participle after être or the predicate adjective of which ``tok`` is the subject; a skip
    reason for a predicate noun (il est acteur), which would need its own gender."""
    if not tok.dep_.startswith("nsubj") or tok.head.i < tok.i:
        return None
    head = tok.head
    if head.lemma_ in COPULAR and any(c.pos_ == "NOUN" and c.dep_ in ("xcomp", "obj", "attr", "ccomp")
                                      for c in head.children):
        return "predicate_noun"
    deps = {c.dep_ for c in head.children if c.lemma_ == "être"}
    if deps & {"aux", "aux:pass", "aux:tense"}:
        return head
    if "cop" in deps:
        return head if head.pos_ == "ADJ" else "predicate_noun" if head.pos_ == "NOUN" else None
    return None


def _new_determiner(det: str, feminine: bool, vowel: bool) -> str | None:
    row = DETERMINERS.get(det.lower())
    if row is None:
        return None
    return row[(1 if feminine else 0) + (2 if vowel else 0)]


def _rewrite_noun(doc: Doc, tok: Token, new: str, to_feminine: bool, rw: Rewrite) -> str | None:
    """Rewrite the determiner, contracted article and adjectives of noun ``tok``; a skip reason on failure."""
    plural = "Plur" in tok.morph.get("Number")
    done = set()
    for child in tok.children:
        low = child.lower_
        if child.i in done:
            continue
        following = new if child.i + 1 in (tok.i, len(doc)) else doc[min(child.i + 1, tok.i)].text
        vowel = following.lower().startswith(VOWEL)
        if child.dep_ == "det" and not plural and low in DETERMINERS:
            det = _new_determiner(low, to_feminine, vowel)
            rw.replace(child.i, match_case(child.text, det))
            rw.spaces[child.i] = "" if det.endswith("'") else " "
        elif child.dep_ == "det" and low not in PLURAL_DETERMINERS and child.pos_ == "DET":
            return "unknown_determiner"
        elif child.dep_ == "case" and low in CONTRACTED and not plural:
            if to_feminine:
                rw.replace(child.i, match_case(child.text, CONTRACTED[low] + (" l'" if vowel else " la")))
                if vowel:
                    rw.spaces[child.i] = ""
        elif child.dep_ == "case" and low in ("de", "à") and not plural and not to_feminine:
            det = next((c for c in tok.children if c.dep_ == "det" and c.lower_ in ("la", "l'")), None)
            if det is not None and not vowel:
                rw.replace(child.i, match_case(child.text, "du" if low == "de" else "au"))
                rw.delete(det.i)
                done.add(det.i)
        elif child.dep_ == "amod" and child.pos_ == "ADJ":
            adj = inflect_adjective(child.text, to_feminine)
            if adj is None:
                return "adjective_agreement"
            if adj != child.text:
                rw.replace(child.i, adj)
    return None


def _personal(doc: Doc, tok: Token) -> bool:
    """Evidence that subject pronoun ``tok`` refers to a person: a person verb, or a person named before it."""
    if tok.head.lemma_ in PERSON_VERBS:
        return True
    people = {w.lower() for row in lexicons.rows("gender", "fr") for w in row}
    return any(e.label_ == "PER" and e.end <= tok.i for e in doc.ents) or any(
        t.lower_ in people and t.pos_ in ("NOUN", "PROPN") for t in doc[: tok.i])


def gender_fr(doc: Doc, rng: random.Random) -> Edit | Skip:
    """Swap one gendered noun or subject pronoun (tried in a seeded order) and make its group agree; when
    none can, the Skip names why the first failed."""
    table = lexicons.pairs("gender", "fr")
    options = [t for t in doc if t.lower_ in table and (t.pos_ in ("NOUN", "PROPN") or t.lower_ in PRONOUNS)]
    if not options:
        return Skip("no_candidate")
    results = [_swap(doc, tok, table) for tok in rng.sample(options, len(options))]
    return next((r for r in results if isinstance(r, Edit)), results[0])


def _swap(doc: Doc, tok: Token, table: dict[str, str]) -> Edit | Skip:
    to_feminine = not _is_feminine(tok.text)
    if tok.lower_ in PRONOUNS:
        if not tok.dep_.startswith("nsubj") or tok.dep_.startswith("expl"):
            return Skip("pronoun_not_subject")
        if not _personal(doc, tok):
            return Skip("no_personal_referent")
        if any(t.lower_ in PRONOUNS and t.i != tok.i for t in doc):
            return Skip("other_subject_pronoun")
        if any(t.lower_ in table and t.i != tok.i for t in doc):
            return Skip("other_gendered_word")  # 'son père ... il': the two must change together
        if any(t.pos_ == "NOUN" and ("Masc" if to_feminine else "Fem") in t.morph.get("Gender") for t in doc[:tok.i]):
            return Skip("thing_antecedent")  # 'la chanson ... car elle est', 'un lac ... Il est formé': maybe a thing
    new = match_case(tok.text, table[tok.lower_])
    if "Plur" in tok.morph.get("Number") and tok.lower_ not in PRONOUNS and not new.endswith(("s", "x")):
        new += "s"
    if (tok.head.lemma_ in COPULAR and tok.dep_ in ("xcomp", "obj", "attr", "ccomp")) or any(
            c.dep_ == "cop" for c in tok.children):
        return Skip("predicate_noun")  # 'sa sœur est devenue une actrice': the subject fixes its gender
    rw = Rewrite(doc)
    rw.replace(tok.i, new)
    if tok.lower_ not in PRONOUNS:
        reason = _rewrite_noun(doc, tok, new, to_feminine, rw)
        if reason:
            return Skip(reason)
    head = _agreeing_head(tok)
    if isinstance(head, str):
        return Skip(head)
    old_gender = "Masc" if to_feminine else "Fem"
    if tok.lower_ in PRONOUNS and any(t.i != tok.i and (head is None or t.i != head.i)
                                      and t.lower_ in AGREEING_PARTICIPLES[old_gender] for t in doc):
        return Skip("agreement_left")  # 'Il est né ... pour être née': another word keeps the old gender
    if head is not None:
        inflected = inflect_adjective(head.text, to_feminine)
        if inflected is None:
            return Skip("participle_agreement")
        if inflected != head.text:
            rw.replace(head.i, inflected)
    return rw.edit("gender", f"{tok.text}->{new}")


MASC_ONLY = {"le", "un", "ce", "cet", "du", "au"}
FEM_ONLY = {"la", "une", "cette", "ma", "ta", "sa"}
POSSESSIVE_MASC = {"mon", "ton", "son"}  # also before a feminine noun opening with a vowel (son épouse)


def determiner_clashes(text: str) -> list[str]:
    """Determiner + noun pairs of ``text`` (nouns of gender_fr.tsv) whose genders disagree: 'le mère',
    'une garçon', 'son mère'."""
    feminine = {b.lower() for _, b in lexicons.rows("gender", "fr")}
    masculine = {a.lower() for a, _ in lexicons.rows("gender", "fr")} - feminine
    words = re.findall(r"\w+'?|'", text.lower())
    clashes = []
    for prev, word in pairwise(words):
        masc_clash = word in masculine and prev in FEM_ONLY
        fem_clash = word in feminine and (prev in MASC_ONLY or (prev in POSSESSIVE_MASC and not word.startswith(VOWEL)))
        if masc_clash or fem_clash:
            clashes.append(f"{prev} {word}")
    return clashes
