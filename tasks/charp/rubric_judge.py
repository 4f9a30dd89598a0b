"""The rubric judge: Appendix C.3's seven categories decided from what each definition names, measured
rather than asked of a model: whether the prediction says what the gold response says (sentence-embedding
cosine or the gold's content words it repeats), which knowledge sentences it draws on (on-topic: those the
gold response uses; off-topic: the rest), how much of the whole knowledge it repeats, whether it states
ignorance, and which of its content words appear nowhere in the gold response, knowledge or history.

It is the offline stand-in for the paper's GPT-4 judge: the small local chat models answer the checklist
prompt with one category for everything (tasks/charp/README.md gives the measurements)."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from tasks.edits.spacy_model import load_english
from tasks.models.sentence import SentenceEncoder

CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM", "ADV"})
INFORMATION_POS = frozenset({"NOUN", "PROPN", "NUM"})  # the words that carry facts ("extra information")
DIALOGUE_NOUNS = frozenset({"idea", "clue", "question", "answer", "thing", "lot", "bit", "way", "sorry"})
_ADV = r"(?:really |quite |exactly |honestly |entirely |totally |too |very )?"
IGNORANCE = re.compile(
    rf"\b(?:(?:do|does|did)(?: not|n't) {_ADV}know|not {_ADV}(?:sure|certain|aware)|unsure|uncertain|no idea|"
    rf"no clue|(?:can(?:not|'t)|could(?:n't| not)) {_ADV}(?:say|tell|be sure|answer|help)|"
    rf"(?:do|did)(?: not|n't) {_ADV}(?:understand|follow)|not {_ADV}(?:equipped|able) to|unable to|"
    rf"(?:have|had)(?: not|n't) heard|never heard|(?:am|'m) not {_ADV}familiar)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Thresholds:
    """The rubric's cut-offs (params charp.judge.rubric)."""

    aligned_cosine: float = 0.85  # prediction vs gold: above this it says what the gold says
    aligned_recall: float = 0.6  # share of the gold's own content words (not in the history) it repeats
    copy_recall: float = 0.7  # share of the knowledge's content words a whole-knowledge copy repeats
    from_knowledge: float = 0.8  # share of the prediction's content words found in the knowledge (and history)
    extra_words: int = 2  # content words absent from gold, knowledge and history that make "extra information"
    on_topic: float = 0.3  # share of a knowledge sentence's content words the gold uses, for it to be on-topic


@dataclass(frozen=True)
class Evidence:
    """What the rubric measures for one (turn, prediction)."""

    empty: bool
    ignorance: bool
    cosine: float
    gold_recall: float
    knowledge_recall: float
    from_knowledge: float
    extra: tuple[str, ...]
    uses_on_topic: bool
    uses_off_topic: bool
    sentence_copy: float  # the largest share of the prediction's content words found in one knowledge sentence
    has_off_topic: bool


def category(e: Evidence, t: Thresholds) -> int:
    """The one category the evidence puts a prediction in, checked in this order: empty (7), ignorance over
    copied knowledge (4, else 7), a copy of the whole knowledge unless it is all on-topic and says what the gold
    says (3), agreement with the gold (1, or 2 with extra information), then the knowledge parts it draws on
    (5 off-topic only, 6 both mixed; on-topic only: 3 when it repeats one knowledge sentence, else 1, as it
    then holds only knowledge the gold uses); anything else is 7."""
    founded = e.from_knowledge >= t.from_knowledge and len(e.extra) < t.extra_words
    aligned = e.cosine >= t.aligned_cosine or e.gold_recall >= t.aligned_recall
    if e.empty:
        return 7
    if e.ignorance:
        return 4 if founded and (e.uses_on_topic or e.uses_off_topic) else 7
    if founded and e.knowledge_recall >= t.copy_recall and (e.has_off_topic or not aligned):
        return 3
    if aligned:
        return 2 if len(e.extra) >= t.extra_words else 1
    if founded and e.uses_off_topic:
        return 6 if e.uses_on_topic else 5
    if founded and e.uses_on_topic:
        return 3 if e.sentence_copy >= t.copy_recall else 1
    return 7


class RubricJudge:
    """Categories for (turn, prediction) pairs: spaCy content lemmas and sentences, sentence embeddings."""

    def __init__(self, encoder: str = "minilm", thresholds: Thresholds | None = None):

        self.nlp, self.encoder = load_english(full=True), SentenceEncoder(encoder)
        self.thresholds = thresholds or Thresholds()

    def _content(self, doc, pos: frozenset[str] = CONTENT_POS) -> set[str]:
        return {t.lemma_.lower() for t in doc if t.pos_ in pos and not t.is_stop and (t.is_alpha or t.like_num)}

    def evidence(self, items: list[tuple[dict, str]]) -> list[Evidence]:
        texts = sorted({x for turn, pred in items for x in (turn["response"], pred, turn["knowledge"])})
        docs = dict(zip(texts, self.nlp.pipe(texts)))
        history_texts = sorted({h["text"] for turn, _ in items for h in turn["history"]})
        history_words = dict(zip(history_texts, (self._content(d) for d in self.nlp.pipe(history_texts))))
        vectors = dict(zip(texts, self.encoder.embed(texts, "rubric judge embeddings")))
        out = []
        for turn, pred in items:
            p, g, k = (self._content(docs[x]) for x in (pred, turn["response"], turn["knowledge"]))
            facts = self._content(docs[pred], INFORMATION_POS) - DIALOGUE_NOUNS
            h = set().union(*(history_words[x["text"]] for x in turn["history"]))
            sentences = [self._content(s) for s in docs[turn["knowledge"]].sents]
            on = [bool(s) and len(s & g) / len(s) >= self.thresholds.on_topic for s in sentences]
            on_words = set().union(*(s for s, o in zip(sentences, on) if o))
            off_words = set().union(*(s for s, o in zip(sentences, on) if not o))
            asked = history_words[turn["history"][-1]["text"]] if turn["history"] else set()
            answer = g - asked or g  # the gold's own words: not those of the question it answers
            out.append(Evidence(
                empty=not pred.strip(), ignorance=bool(IGNORANCE.search(pred.replace("\u2019", "'"))),
                cosine=float(np.dot(vectors[pred], vectors[turn["response"]])),
                gold_recall=_share(answer & p, answer), knowledge_recall=_share(k & p, k),
                from_knowledge=_share(facts & (k | h), facts),
                extra=tuple(sorted(facts - g - k - h)), uses_on_topic=bool(p & (on_words - off_words)),
                uses_off_topic=bool(p & (off_words - on_words)),
                sentence_copy=max((_share(p & s, p) for s in sentences), default=0.0),
                has_off_topic=not all(on)))
        return out

    def categories(self, items: list[tuple[dict, str]]) -> list[list[int]]:
        return [[category(e, self.thresholds)] for e in self.evidence(items)]

    def decide(self, items: list[tuple[dict, str]]) -> tuple[list[list[int]], list[int]]:
        """Categories and times asked again (never: every item gets one), as the LLM judge's judge_items."""
        return self.categories(items), [0] * len(items)


def _share(part: set, whole: set) -> float:
    return len(part) / len(whole) if whole else 0.0
