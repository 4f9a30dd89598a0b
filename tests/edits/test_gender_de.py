"""tasks/edits/gender_de.py: German gender edits follow the case and gender of the noun lexicon."""

import pytest

from tasks.edits.result import Skip
from tests.edits.helpers import run


@pytest.mark.parametrize("text,bad", [
    ("Er wohnte mit seinem Vater in Berlin.", "Er wohnte mit seiner Mutter in Berlin."),
    ("Der Schauspieler spielte in dem Film.", "Die Schauspielerin spielte in dem Film."),
    ("Sie sprach mit dem jungen Schauspieler.", "Sie sprach mit der jungen Schauspielerin."),
    ("Er traf den alten König.", "Er traf die alte Königin."),
    ("Sie war die Tochter eines Grafen.", "Sie war die Tochter einer Gräfin."),
    ("Die Mutter der Prinzessin starb.", "Der Vater der Prinzessin starb."),  # sentence-initial: nominative
    ("Er sprach mit der Königin.", "Er sprach mit dem König."),  # 'mit' takes the dative
])
def test_german_gender_edits_follow_case_and_gender_of_the_noun_lexicon(text, bad):
    assert run("gender", text, "de").bad == bad


@pytest.mark.parametrize("text,reason", [
    ("Er ist der Sohn von Karl.", "predicate_noun"),
    ("Er half der Mutter.", "ambiguous_case"),  # dative or genitive: dem Vater or des Vaters
    ("Frau Müller kam.", "title"),
    ("Er war der erste Kaiser, der regierte.", "relative_clause"),
    ("Der Plan wurde von der Königin genehmigt.", "no_agreeing_reading"),  # not 'von des Königs'; 'von dem' reads odd
])
def test_german_gender_skips_what_agreement_cannot_resolve(text, reason):
    assert run("gender", text, "de") == Skip(reason)


def test_german_gender_leaves_a_subject_whose_predicate_noun_keeps_its_gender():
    """Seed 2 tries 'Vater' first ('Sohn' itself is a predicate noun): not 'Seine Mutter war der Sohn'."""
    text = "Sein Vater war der uneheliche Sohn von William Skipwith."
    assert run("gender", text, "de", seed="2") == Skip("predicate_keeps_gender")
