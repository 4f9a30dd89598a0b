"""tasks/edits/negation.py: negation edits with the real spaCy English model (exact outputs on hard sentences),
and the rules of the other languages."""


import pytest

from tasks.edits.negation import load_lexicon, negation_edit
from tasks.edits.result import Edit, Skip
from tests.edits.helpers import run

CASES = [
    # removal, with do-support undone
    ("He did not go to the store .", False, "He went to the store .", "remove:not"),
    ("They will not come .", False, "They will come .", "remove:not"),
    ("He is n't happy .", False, "He is happy .", "remove:n't"),
    ("He isn't happy .", False, "He is happy .", "remove:n't"),
    ("It won't rain .", False, "It will rain .", "remove:n't"),
    ("He cannot swim .", False, "He can swim .", "remove:not"),
    ("She never went there .", False, "She went there .", "remove:never"),
    # insertion: auxiliaries and copula take 'not', lexical verbs take do-support
    ("The house was built in 1850 by John .", False, "The house was not built in 1850 by John .", "insert:not"),
    ("She can swim .", False, "She cannot swim .", "insert:not"),
    ("They had left before the war .", False, "They had not left before the war .", "insert:not"),
    ("The team won the cup in 2004 .", False, "The team did not win the cup in 2004 .", "insert:not"),
    ("He has a car .", False, "He does not have a car .", "insert:not"),
    ("The children play in the garden .", False, "The children do not play in the garden .", "insert:not"),
    ("He goes to school every day , but his sister stays at home .", False,
     "He does not go to school every day , but his sister stays at home .", "insert:not"),
    # lexical negation from the shipped lexicon, both directions
    ("She was unhappy with the result .", True, "She was happy with the result .", "lexical:unhappy->happy"),
    ("The results were accurate .", True, "The results were inaccurate .", "lexical:accurate->inaccurate"),
    # no lexicon word: falls back to inserting not
    ("The film won a huge prize .", True, "The film did not win a huge prize .", "insert:not"),
]


@pytest.mark.parametrize("good,lexical,bad,detail", CASES)
def test_negation_edit_exact(nlp, good, lexical, bad, detail):
    result = negation_edit(nlp(good), prefer_lexical=lexical)
    assert isinstance(result, Edit), result
    assert (result.bad, result.detail) == (bad, detail)


@pytest.mark.parametrize("good,reason", [
    ("Did he leave early ?", "inverted_subject"),
    ("A beautiful day in the park .", "no_verbal_root"),
    ("The film was a huge success .", "copular_statement"),  # 'was not a huge success' gives itself away
    ("Next appeared Iyer in the film `` Jaggu Dada '' with the actor Darshan .", "no_nominal_subject"),
    ("It then meets the Snoqualmie River to form the Snohomish River at Monroe .", "result_clause"),
])
def test_negation_skips_with_reason(nlp, good, reason):
    assert negation_edit(nlp(good)) == Skip(reason)


def test_lexicon_is_symmetric_and_excludes_known():
    lexicon = load_lexicon()
    assert lexicon["happy"] == "unhappy" and lexicon["unhappy"] == "happy"
    assert lexicon["honest"] == "dishonest" and lexicon["possible"] == "impossible"
    assert "known" not in lexicon  # "known as" would become "unknown as"


def test_only_a_one_clause_sentence_gets_a_new_negation():
    assert run("negation", "Han frågade om jag hade haft tid.", "sv") == Skip("denied_in_compound_sentence")
    assert run("negation", "Le film a été coupé par Alena et produit par Andrei.", "fr") == Skip(
        "denied_in_compound_sentence")
    assert run("negation", "Han kan aldrig komma hem nu.", "sv").bad == "Han kan komma hem nu."  # a removal
    assert run("negation", "Han har ingen bil men kan köra.", "sv") == Skip("denied_beside_contrast")
    assert run("negation", "Jag har ingen bil hemma.", "sv") == Skip("second_negation")
    assert run("negation", "Han kan köra bil.", "sv").bad == "Han kan inte köra bil."


def test_negation_rules_remove_existing_negations():
    assert run("negation", "Il n'est pas venu.", "fr").bad == "Il est venu."
    assert run("negation", "Das Haus ist nicht alt.", "de").bad == "Das Haus ist alt."
    assert run("negation", "Hon är inte hemma.", "sv").bad == "Hon är hemma."
