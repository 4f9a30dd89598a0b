"""Named-entity spans for the perturbation context: spaCy NER (en, fr), English entities carried over to
an aligned German sentence, and capitalised names for Swedish."""
from __future__ import annotations

import re

import numpy as np
from spacy.tokens import Doc

from tasks.edits.context import PERSON_LABELS
from tasks.edits.named_entity import entity_kind, genitive
from tasks.edits.names import FIRST_NAME_KIND, first_name_gender
from tasks.models.sentence import sentence_encoder

NER_LABELS = {"en": {"PERSON", "GPE", "LOC", "ORG"}, "fr": {"PER", "LOC", "ORG"}}
NAME = re.compile(r"(?<![\w-])[A-ZÅÄÖÉ][\wåäöéÅÄÖ-]+(?:\s+[A-ZÅÄÖÉ][\wåäöéÅÄÖ-]+)*")


def ner_spans(doc: Doc, lang: str) -> list[tuple[int, int, str]]:
    """The NER entities of the listed labels, a possessive 's left outside the span ('The European Union's'),
    none without a capital letter (a stray "'s" tagged as a person)."""
    spans = []
    for e in doc.ents:
        if e.label_ not in NER_LABELS.get(lang, ()):
            continue
        text = re.sub(r"\s*['’]s$", "", e.text)
        if any(c.isupper() for c in text):
            spans.append((e.start_char, e.start_char + len(text), e.label_))
    return spans


def aligned_spans(text: str, english_doc: Doc) -> list[tuple[int, int, str]]:
    """English NER entities that occur verbatim in ``text`` (names mostly survive translation)."""
    spans = []
    for start, end, label in ner_spans(english_doc, "en"):
        k = text.find(english_doc.text[start:end])
        if k >= 0:
            spans.append((k, k + end - start, label))
    return spans


def name_spans(text: str) -> list[tuple[int, int, str]]:
    """Capitalised word sequences (3+ letters) not opening a sentence, labelled NAME (Swedish); none in
    headline-cased text, where most words are capitalised."""
    words = text.split()
    if sum(w[:1].isupper() for w in words) > len(words) / 2:
        return []
    return [(m.start(), m.end(), "NAME") for m in NAME.finditer(text)
            if m.start() > 0 and len(m.group(0)) >= 3 and not re.search(r"[.!?:\"]\s*$", text[:m.start()])]


def plausible_name(name: str) -> bool:
    """A name of one to four words, each capitalised or a short particle (de, von, of, the): no clause
    that NER swept in ('Parti populaire de Galice est une mini-série')."""
    words = name.split()
    if name.endswith(("'s", "’s", "'")) or len(name) < 4:
        return False  # a genitive form or a short capitalised word ('Gud', 'Ms')
    return 1 <= len(words) <= 4 and words[0][:1].isupper() and all(
        w[:1].isupper() or w[:1].isdigit() or w.lower() in PARTICLES for w in words)


PARTICLES = {"de", "du", "des", "la", "le", "les", "von", "van", "der", "den", "of", "the", "and", "af", "i", "d'"}


def pool_of(spans_by_text: list[tuple[str, list[tuple[int, int, str]]]], lang: str = "") -> dict[str, list[str]]:
    """Pool key (entity_kind: the label, and for non-persons the word before) -> sorted distinct plausible
    names, and FIRST_NAME_KIND + gender -> the first names of full names of that certain gender; genitive forms
    (sv, de: 'RealNetworks digitala') are not pooled."""
    pool: dict[str, set] = {}
    for text, spans in spans_by_text:
        for start, end, label in spans:
            name = text[start:end]
            if plausible_name(name) and not genitive(text, start, end, lang):
                pool.setdefault(entity_kind(text, start, label), set()).add(name)
                gender = first_name_gender(name.split()[0]) if label in PERSON_LABELS | {"NAME"} else None
                if gender and len(name.split()) > 1:
                    pool.setdefault(f"{FIRST_NAME_KIND}{gender}", set()).add(name.split()[0])
    return {key: sorted(v) for key, v in sorted(pool.items())}


def name_forms(spans_by_text: list[tuple[str, list[tuple[int, int, str]]]], pool: dict[str, list[str]]) -> list[str]:
    """Every form a named-entity swap compares: the pooled names, their first and last words (first names,
    surnames), and each span of the texts with and without a final -s, whole and its first and last word."""
    forms = {n for names in pool.values() for n in names}
    forms |= {n.split()[-1] for n in forms} | {n.split()[0] for n in forms}
    for text, spans in spans_by_text:
        for start, end, _ in spans:
            for span in (text[start:end], text[start:end - 1]):
                if span.strip():
                    forms |= {span, span.split()[0], span.split()[-1]}
    return sorted(forms)


def name_vectors(names: list[str], encoder: str) -> dict[str, np.ndarray]:
    """Unit vectors of ``names`` under sentence encoder ``encoder`` (a swap takes one of the nearest names
    of its kind: Romania -> Bulgaria, Hyundai -> Toyota, not Zurich or Virginia)."""
    return dict(zip(names, sentence_encoder(encoder, batch_size=64).embed(names))) if names else {}
