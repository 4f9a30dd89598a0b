"""The main clause's verb group: its finite element, tense, polarity and subject agreement (Penn tags)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pyinflect
from spacy.tokens import Doc, Token

NEGATORS = {"not", "n't", "never"}
FUTURE_MODALS = {"will", "shall", "'ll", "wo", "sha"}
GROUP_DEPS = {"aux", "auxpass", "neg"}
SUBJECT_DEPS = {"nsubj", "nsubjpass", "expl", "csubj", "csubjpass"}
SINGULAR_PRONOUNS = {"he", "she", "it", "this", "that", "one", "everyone", "someone", "nobody", "everything",
                     "something", "nothing", "each", "who", "which"}
PLURAL_PRONOUNS = {"we", "they", "you", "these", "those", "both", "many", "several", "few"}


@dataclass
class VerbGroup:
    head: Token  # the main verb (or copula) of the main clause
    auxes: list[Token]  # auxiliaries and modals, in order
    negs: list[Token]  # not / n't / never attached to the group
    subject: Token | None

    @property
    def first(self) -> Token:
        """The finite element: the first auxiliary, or the head itself."""
        return self.auxes[0] if self.auxes else self.head

    @property
    def is_inverted(self) -> bool:
        """Subject after the finite element, as in questions ('Did he leave ?')."""
        return self.subject is not None and self.first.i < self.subject.i

    @property
    def do_support(self) -> bool:
        return bool(self.auxes) and lemma_of(self.first) == "do" and self.first.dep_ == "aux"


def find_group(doc: Doc) -> VerbGroup | str:
    """The verb group of the first sentence's root, or a skip reason."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or not (root.tag_.startswith("VB") or root.tag_ == "MD"):
        return "no_verbal_root"
    auxes, negs, subject = [], [], None
    for child in root.children:
        if child.dep_ in ("aux", "auxpass") and child.tag_ != "TO":
            auxes.append(child)
        elif child.dep_ == "neg" and child.lower_ in NEGATORS:
            negs.append(child)
        elif child.dep_ in SUBJECT_DEPS and subject is None:
            subject = child
    auxes = [a for a in sorted(auxes, key=lambda t: t.i) if a.i < root.i]
    return VerbGroup(head=root, auxes=auxes, negs=sorted(negs, key=lambda t: t.i), subject=subject)


def tense_of_token(tok: Token) -> str | None:
    """The tense a finite verb or modal's Penn tag shows ('modal' for modals other than will/shall)."""
    if tok.tag_ == "MD":
        return "future" if tok.lower_ in FUTURE_MODALS else "modal"
    if tok.tag_ == "VBD":
        return "past"
    if tok.tag_ in ("VBZ", "VBP"):
        return "present"
    return None


def tense_of(group: VerbGroup) -> str:
    """'past', 'present', 'future', or a reason it has none we change ('modal', 'nonfinite')."""
    return tense_of_token(group.first) or "nonfinite"


def agreement(group: VerbGroup) -> str | None:
    """'1sg', '3sg' or 'pl' for the finite verb: from a form of 'be' or a third-person -s form, which the
    sentence already agrees with ('Member States are' -> 'were', 'Saragyugh ... is' -> 'was': a parse that took
    the wrong subject had made 'was' and 'were'); else from the subject, else from the verb's own form."""
    subj = group.subject
    form, tag = group.first.lower_, group.first.tag_
    if subj is not None and subj.lower_ == "i":
        return "1sg"
    if form in ("is", "'s", "was") or tag == "VBZ":
        return "3sg"
    if form in ("are", "'re", "were"):
        return "pl"
    if subj is not None and subj.dep_ != "expl":
        word = subj.lower_
        if any(c.dep_ == "conj" for c in subj.children):
            return "pl"
        if word in SINGULAR_PRONOUNS:
            return "3sg"
        if word in PLURAL_PRONOUNS or subj.tag_ in ("NNS", "NNPS"):
            return "pl"
        if subj.tag_ in ("NN", "NNP", "CD") or subj.dep_ == "csubj":
            return "3sg"
    if form in ("am", "'m"):
        return "1sg"
    return "pl" if tag == "VBP" else None


BE_FORMS = {"am", "is", "are", "was", "were", "be", "been", "being", "'m", "'re"}
PAST_OVERRIDES = {"work": "worked"}  # pyinflect's table has only the archaic 'wrought' ('The Commission wrought')


@lru_cache(maxsize=1)
def _verb_lemmas() -> dict[tuple[str, str], str]:
    """{(form, Penn tag): lemma} for every verb in pyinflect's inflection table (first lemma wins)."""
    engine = pyinflect.INFLECTION_INST
    index: dict[tuple[str, str], str] = {}
    for table in (engine.overrides, engine.infl_data):  # overrides first: they correct the table
        for lemma, by_tag in table.items():
            for tag in ("VBD", "VBN", "VBZ", "VBG"):
                for form in by_tag.get(tag, ()):
                    index.setdefault((form.lower(), tag), lemma.lower())
    return index


def lemma_of(token: Token) -> str:
    """The verb's lemma from pyinflect's table (every form of 'be' is 'be'); the form itself if unknown."""
    form = token.lower_
    if form in BE_FORMS:
        return "be"
    if token.tag_ in ("VB", "VBP", "MD"):
        return form
    own = token.lemma_.lower()
    if own and (form in (f.lower() for f in pyinflect.getInflection(own, token.tag_) or ())
                or form == PAST_OVERRIDES.get(own)):
        return own  # spaCy's lemma when it inflects back to the form: the table also lists 'chang' for 'changed'
    return _verb_lemmas().get((form, token.tag_), form)


def finite_form(lemma: str, tense: str, agr: str) -> str | None:
    """The finite form of ``lemma`` in ``tense`` ('past' / 'present') for agreement ``agr``."""
    if lemma == "be":
        if tense == "past":
            return "were" if agr == "pl" else "was"
        return {"1sg": "am", "3sg": "is", "pl": "are"}[agr]
    if tense == "past" and lemma in PAST_OVERRIDES:
        return PAST_OVERRIDES[lemma]
    tag = "VBD" if tense == "past" else ("VBZ" if agr == "3sg" else "VBP")
    forms = pyinflect.getInflection(lemma, tag)
    return forms[0] if forms else None


def base_form(lemma: str) -> str | None:
    if lemma == "be":
        return "be"
    forms = pyinflect.getInflection(lemma, "VB")
    return forms[0] if forms else None


def is_auxiliary_use(group: VerbGroup, token: Token) -> bool:
    """True for be (any use) and for have/do used as auxiliaries: they take 'not' directly."""
    lemma = lemma_of(token)
    return lemma == "be" or token.tag_ == "MD" or (token is not group.head and lemma in ("have", "do"))
