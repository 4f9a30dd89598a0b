"""tasks/edits/negation_removal.py: the French, German and Swedish removal rules, exact outputs and skips."""

import pytest

from tasks.edits.negation_removal import rule_removal
from tasks.edits.result import Edit, Skip


@pytest.mark.parametrize("text,lang,bad,detail", [
    ("Il n'est plus président.", "fr", "Il est président.", "remove:n'est plus"),
    ("Il ne l'a jamais vu.", "fr", "Il l'a vu.", "remove:ne l'a jamais"),
    ("Das Haus ist nicht alt.", "de", "Das Haus ist alt.", "remove:ist nicht"),
    ("Er hat keinen Sohn.", "de", "Er hat einen Sohn.", "remove:keinen->einen"),
    ("Hon är inte hemma.", "sv", "Hon är hemma.", "remove:är inte"),
    ("Det finns ingen buss här.", "sv", "Det finns en buss här.", "remove:ingen->en"),
])
def test_the_one_negation_goes(text, lang, bad, detail):
    result = rule_removal(text, lang)
    assert isinstance(result, Edit) and (result.bad, result.detail) == (bad, detail)


def test_a_removal_that_would_break_the_sentence_is_skipped():
    assert rule_removal("Il n'est pas encore parti.", "fr") == Skip("needs_negation")
    assert rule_removal("Er hat kein Geld.", "de") == Skip("mass_noun")
    assert rule_removal("Hon har ingen tid.", "sv") == Skip("ingen_not_before_count_noun")
    assert rule_removal("Han kom hem.", "sv") is None
