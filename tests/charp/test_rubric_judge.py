"""The rubric judge: its decision rules on hand-made evidence, its ignorance phrases, and its categories with
real spaCy and MiniLM on the judge's in-context examples and on a held-out set written blind after the rubric
was frozen (tests/fixtures/charp/judge_heldout.jsonl, see tasks/charp/README.md)."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from tasks.charp.rubric_judge import IGNORANCE, Evidence, RubricJudge, Thresholds, category
from tasks.params import ROOT
from tests.paths import FIXTURES

HELD_OUT = FIXTURES / "charp/judge_heldout.jsonl"
ANNOTATED = FIXTURES / "charp/judge_dstc11_annotated.jsonl"
GROUNDED = Evidence(empty=False, ignorance=False, cosine=0.9, gold_recall=1.0, knowledge_recall=0.4,
                    from_knowledge=1.0, extra=(), uses_on_topic=True, uses_off_topic=False, has_off_topic=True,
                    sentence_copy=0.5)


@pytest.mark.parametrize("changes,expected", [
    ({}, 1),
    ({"extra": ("opera", "house")}, 2),
    ({"extra": ("opera",)}, 1),  # one new noun is within extra_words
    ({"knowledge_recall": 0.9, "uses_off_topic": True}, 3),
    ({"knowledge_recall": 0.9, "has_off_topic": False}, 1),  # a copy of all-on-topic knowledge that agrees
    ({"knowledge_recall": 0.9, "has_off_topic": False, "cosine": 0.3, "gold_recall": 0.2}, 3),
    ({"ignorance": True}, 4),
    ({"ignorance": True, "from_knowledge": 0.0}, 7),  # "I don't know." alone
    ({"cosine": 0.2, "gold_recall": 0.0, "uses_on_topic": False, "uses_off_topic": True}, 5),
    ({"cosine": 0.2, "gold_recall": 0.0, "uses_off_topic": True}, 6),
    ({"cosine": 0.6, "gold_recall": 0.0}, 1),  # only knowledge the gold uses, in other words
    ({"cosine": 0.6, "gold_recall": 0.0, "sentence_copy": 0.9}, 3),  # ... or one knowledge sentence repeated
    ({"cosine": 0.2, "gold_recall": 0.0, "from_knowledge": 0.3, "extra": ("moon", "cheese")}, 7),
    ({"empty": True}, 7),
])
def test_each_category_follows_from_its_evidence(changes, expected):
    assert category(replace(GROUNDED, **changes), Thresholds()) == expected


@pytest.mark.parametrize("text,found", [
    ("I don't know.", True), ("Hmm, I'm honestly not sure, but it opened in 1990.", True),
    ("I have no idea, sorry.", True), ("I can't say for certain.", True),
    ("I don't really understand the question", True),
    ("I'm not really equipped to answer that.", True), ("I know it opened in 1990.", False),
    ("Sure, it is in Paris.", False), ("They are not known for their views.", False),
])
def test_ignorance_phrases(text, found):
    assert bool(IGNORANCE.search(text)) is found


def _items(path: Path) -> tuple[list[tuple[dict, str]], list[int]]:
    """(turn, prediction) pairs and declared categories of a judge-example file (history as "User: ..." lines)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    speaker = {"User": "seeker", "Wizard": "wizard", "Bot": "wizard"}
    turns = [{"history": [{"speaker": speaker[h.split(":", 1)[0]], "text": h.split(":", 1)[1].strip()}
                          for h in r["history"]], "knowledge": r["knowledge"], "response": r["response"]} for r in rows]
    return list(zip(turns, (r["prediction"] for r in rows))), [r["category"] for r in rows]


@lru_cache(maxsize=1)
def _judge() -> RubricJudge:
    return RubricJudge("minilm")


def test_every_in_context_example_gets_its_category():
    items, declared = _items(ROOT / "tasks/charp/judge_examples.jsonl")
    assert [c for c, in _judge().categories(items)] == declared


def test_held_out_examples_written_blind():
    """30 of 42 (0.71; chance 0.14, the local LLM judge 6 of 42 by answering 1 throughout): each category's
    correct count is pinned, so a change to the rubric shows what it gains or loses."""
    items, declared = _items(HELD_OUT)
    got = [c for c, in _judge().categories(items)]
    correct = Counter(d for d, g in zip(declared, got) if d == g)
    assert Counter(declared) == {c: 6 for c in range(1, 8)}
    assert dict(sorted(correct.items())) == {1: 2, 2: 4, 3: 6, 4: 4, 5: 3, 6: 5, 7: 6}
    assert len(set(got)) == 7  # every category is given


def test_real_predictions_against_a_blind_annotator():
    """42 offline-grid predictions (SmolLM2 and few-shot on DSTC11, the last 4 history lines) labelled blind by
    an annotator session after the rubric was frozen: 26 of 42 categories agree (kappa 0.47 in the run, whose
    whole history gave 25), and 33 of 42 hallucination flags (categories 2, 6, 7; 32 in the run)."""
    items, human = _items(ANNOTATED)
    got = [c for c, in _judge().categories(items)]
    flag = {2, 6, 7}
    assert sum(g == h for g, h in zip(got, human)) == 26
    assert sum((g in flag) == (h in flag) for g, h in zip(got, human)) == 33
