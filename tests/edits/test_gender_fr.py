"""tasks/edits/gender_fr.py: French gender edits rewrite the agreeing group."""

import pytest

from tasks.edits.result import Skip
from tests.edits.helpers import run


@pytest.mark.parametrize("text,bad", [
    ("Il a rendu visite à son père.", "Il a rendu visite à sa mère."),
    ("Un garçon est venu au château.", "Une fille est venue au château."),
    ("Il est né en 1950 à Lyon.", "Elle est née en 1950 à Lyon."),
    ("Le jeune acteur américain est devenu célèbre.", "La jeune actrice américaine est devenue célèbre."),
    ("Elle parle de la mère du maire.", "Elle parle du père du maire."),
    ("Elle a vu l'oncle.", "Elle a vu la tante."),
    ("Les frères sont partis.", "Les sœurs sont parties."),
])
def test_french_gender_edits_rewrite_the_agreeing_group(text, bad, fr_nlp):
    assert run("gender", text, "fr", fr_nlp(text)).bad == bad


@pytest.mark.parametrize("text,reason", [
    ("Il fut confirmé en 1520 et dissous en 1540.", "no_personal_referent"),  # a monastery, not a person
    ("Paul est le fils de Marie.", "predicate_noun"),
])
def test_french_gender_skips_impersonal_pronouns_and_predicates(text, reason, fr_nlp):
    assert run("gender", text, "fr", fr_nlp(text)) == Skip(reason)
