"""tasks/hallucigen/translation.py: the similarity floor, foundation negations, gender stated by the source,
and the pivot margin."""

import pytest

from tasks.edits.result import Edit, Skip
from tasks.hallucigen.translation import pawsx_edit_for


def test_pawsx_translations_that_drift_from_their_english_fall_below_the_floor():
    from tasks.hallucigen.translation import with_similarity

    items = [{"key": "a", "en": "The river flows north into the Black Sea near the old harbour .",
              "fr": "La rivière coule vers le nord dans la mer Noire près du vieux port ."},
             {"key": "b", "en": "The river flows north into the Black Sea near the old harbour .",
              "fr": "Le club a remporté le championnat en 1998 après une longue saison ."}]
    faithful, drift = (it["similarity"]["fr"] for it in with_similarity(items, "e5"))
    assert faithful >= 0.9 > drift


def test_foundation_negations_that_give_themselves_away_are_skipped():
    """pawsx_edits makes every clean negation; the translation build keeps a new one only where it reads as
    plausible without the source (a removal always)."""
    def edit(good, bad, detail):
        return {("fr-en", "negation", "k"): Edit("negation", good, bad, 0, good, bad, detail)}
    item = {"key": "k", "en": "The regiment left Philadelphia in 1777 ."}
    dated = edit(item["en"], "The regiment did not leave Philadelphia in 1777 .", "insert:not")
    assert pawsx_edit_for(dated, "fr-en", "negation", item) == Skip("denied_dated_fact")
    removal = edit(item["en"], "The regiment left Philadelphia in 1777 .", "remove:not")
    assert isinstance(pawsx_edit_for(removal, "fr-en", "negation", item), Edit)
    plain = {**item, "en": "The regiment left Philadelphia ."}
    assert isinstance(pawsx_edit_for(edit(plain["en"], "x", "insert:not"), "fr-en", "negation", plain), Edit)


@pytest.mark.parametrize("english,expected", [
    ("Agranat was born in Louisville , Kentucky , in 1906 , to a Jewish-Zionist family .", False),  # 'als Sohn'?
    ("The film received negative criticisms , but became a cult film .", False),
    ("Among males , it can be a short form of Lawrence .", True),  # a plural of the lexicon
    ("Mrs. Gregory moved to Paris , where her son was born .", True),
])
def test_an_english_source_states_a_gender_before_its_translation_swaps_one(english, expected):
    from tasks.hallucigen.translation import states_gender

    assert states_gender(english) is expected


@pytest.mark.parametrize("detail,french,expected", [
    ("his->her", "Un CD de thèmes de quatorze de ses films a été publié en 2008 par Philip Powers.", True),
    ("his->her", "Il a publié un CD de thèmes de quatorze de ses films en 2008.", False),  # 'il' says whose
    ("his->her", "L'acteur a publié un CD de thèmes de ses films en 2008.", False),  # the gender lexicon's 'acteur'
    ("He->She,his->her", "Un CD de thèmes de ses films a été publié en 2008.", False),  # not only possessives
])
def test_a_french_possessive_states_no_gender_for_an_english_swap(detail, french, expected):
    """'ses films' -> 'his films' -> 'her films' was judged no hallucination twice: son/sa/ses do not say whose."""
    from tasks.hallucigen.translation import possessor_unstated

    assert possessor_unstated(detail, french) is expected


def test_a_translation_the_other_translation_agrees_with_better_is_the_odd_one():
    from tasks.hallucigen.translation import pivot_margin

    similarity = {"fr": 0.90, "de": 0.95, "fr-de": 0.92}
    assert pivot_margin(similarity, "fr") == pytest.approx(-0.04)  # (0.90 + 0.92) / 2 - 0.95
    assert pivot_margin(similarity, "de") == pytest.approx(0.035)  # (0.95 + 0.92) / 2 - 0.90
    assert pivot_margin({"fr": 0.9}, "fr") is None


def test_aces_replaces_the_perturbations_of_its_types_and_tense_stays_x_to_english():
    from tasks.hallucigen.select import Candidate
    from tasks.hallucigen.translation import with_aces

    def cands():
        return {t: [Candidate(f"p-{t}", t, {})] for t in ("number", "pronoun", "tense", "negation")}

    aces = [Candidate("a-1", "number", {}), Candidate("a-2", "conversion", {})]
    x_en, en_x = cands(), cands()
    with_aces(x_en, aces, "fr-en")
    with_aces(en_x, aces, "en-fr")
    assert {t: [c.key for c in cs] for t, cs in x_en.items() if cs} == {
        "number": ["a-1"], "conversion": ["a-2"], "tense": ["p-tense"], "negation": ["p-negation"]}
    assert {t: [c.key for c in cs] for t, cs in en_x.items() if cs} == {"number": ["a-1"], "conversion": ["a-2"]}


def test_a_pawsx_translation_that_dates_with_an_english_month_is_no_hyp_good():
    from tasks.hallucigen.translation import PAIR_FILTERS, Pair, first_reject

    source = "He died on 6 January 2015 in Berlin."
    assert first_reject(PAIR_FILTERS, Pair(source, "Er starb am 6 January 2015 in Berlin.", "de", False)) == (
        "foreign_month_hyp_good")
    assert first_reject(PAIR_FILTERS, Pair(source, "Er starb am 6. Januar 2015 in Berlin.", "de", False)) is None
