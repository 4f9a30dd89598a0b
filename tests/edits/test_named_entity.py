"""tasks/edits/named_entity.py: named-entity swaps keep kind, gender and genitive, and leave what would
give them away."""

import random

import pytest

from tasks.edits.context import Context
from tasks.edits.library import perturb
from tasks.edits.result import Edit, Skip
from tasks.hallucigen.entities import aligned_spans, pool_of
from tests.edits.helpers import ALL_LABELS, DE, run


def test_german_entities_come_from_the_aligned_english_sentence(en_full):
    english = en_full("In March 1997 he was with his brother 25 km north of Berlin .")
    spans = aligned_spans(DE, english)
    assert [DE[s:e] for s, e, _ in spans] == ["Berlin"]
    result = run("named-entity", DE, "de", None, spans, labels=ALL_LABELS)
    assert result.bad == DE.replace("Berlin", "Paris")
    assert run("named-entity", DE, "de", None, spans) == Skip("label_not_swapped")  # places are left by default


def test_named_entities_keep_kind_and_genitive():
    text = "Tjänsten lanserades av RealNetworks digitala avdelning i Stockholm."
    pool = {"NAME@av": ["Hyundai", "Volvo Cars"], "NAME@i": ["Malmö"]}
    start = text.index("RealNetworks")
    ctx = Context("sv", random.Random("3"), None, [(start, start + 12, "NAME")], pool, entity_labels=ALL_LABELS)
    assert perturb("named-entity", text, ctx).bad == "Tjänsten lanserades av Hyundais digitala avdelning i Stockholm."
    # by default only persons are swapped: a Swedish name that opens with no first name is left
    ctx = Context("sv", random.Random("3"), None, [(start, start + 12, "NAME")], pool)
    assert perturb("named-entity", text, ctx) == Skip("no_person_name")
    river = "The Danube flows through Vienna ."
    pool = {"LOC@the": ["Rhine"], "ORG@the": ["Windows"], "GPE@through": ["Budapest"]}
    ctx = Context("en", random.Random("1"), None, [(25, 31, "GPE")], pool, entity_labels=ALL_LABELS)
    assert perturb("named-entity", river, ctx).bad == "The Danube flows through Budapest ."
    # organisations and places are left by default ('the EU' -> 'the DPRK' gave itself away)
    for label in ("LOC", "ORG", "GPE"):
        ctx = Context("en", random.Random("1"), None, [(4, 10, label)], pool)
        assert perturb("named-entity", river, ctx) == Skip("label_not_swapped")


@pytest.mark.parametrize("text,span,label,lang,expected", [
    ("On August 1 , William Blackett handed over his lands .", "William Blackett", "PERSON", "en",
     "On August 1 , Thomas Blackett handed over his lands ."),  # the family name and with it its origin stay
    ("Doris moved to Paris in 1950 .", "Doris", "PERSON", "en", Skip("lone_name")),
    ("Sir Archibald Campbell sold the lands .", "Sir Archibald Campbell", "PERSON", "en",
     Skip("first_name_gender_unknown")),  # a title: no first name of a certain gender
    ("Igår talade Maria Svenssons bror.", "Maria Svenssons", "NAME", "sv", "Igår talade Anna Svenssons bror."),
])
def test_a_person_swap_changes_the_first_name_for_one_of_the_same_gender(text, span, label, lang, expected):
    pool = pool_of([("William Blackett sold it to Thomas Pelham , Anna Jones and Mary Smith .", [
        (0, 16, "PERSON"), (28, 41, "PERSON"), (44, 54, "PERSON"), (59, 69, "PERSON")])], "en")
    assert pool["FIRST@male"] == ["Thomas", "William"] and "Anna" in pool["FIRST@female"]
    start = text.index(span)
    result = perturb("named-entity", text, Context(lang, random.Random("1"), None, [(start, start + len(span), label)],
                                                   pool))
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_a_french_name_swap_never_needs_an_elision():
    """'de Margaret' never becomes 'de Elizabeth' (a blind review's rule-4 reject), in a pool that has it."""
    text = "Il était le fils de John Dutton et de Margaret Savage."
    start, pool = text.index("Margaret"), {"FIRST@female": ["Catherine", "Elizabeth", "Isabelle"]}
    made = {perturb("named-entity", text, Context("fr", random.Random(str(seed)), None, [(start, start + 15, "PER")],
                                                  pool)).target for seed in range(12)}
    assert made == {"Catherine"}


@pytest.mark.parametrize("text,name,label,pool,expected", [
    ("Siemens était le contractant, avec Fiat Ferroviaria comme sous-traitant.", "Ferroviaria", "PER",
     {"PER": ["Herrera"]}, Skip("part_of_longer_name")),
    ("Bayezid II married Gülbahar Hatun , mother of Selim .", "Hatun", "PERSON", {"PERSON": ["Hostens"]},
     Skip("part_of_longer_name")),
    ("David I. Walsh 's biographer writes that Walsh was gay .", "David I. Walsh", "PERSON",
     {"PERSON": ["Mary Tosh"]}, Skip("name_repeated")),
    ("Is a Mediterranean zone of safety possible ?", "Mediterranean", "GPE", {"GPE@a": ["Europe"]},
     Skip("place_as_modifier")),
    ("The EU should act in the Balkans .", "Balkans", "GPE", {"GPE@the": ["Europe"]}, Skip("no_same_kind")),
    ("The EU should act in the Balkans .", "Balkans", "GPE", {"GPE@the": ["Europe", "Alps"]},
     "The EU should act in the Alps ."),
    ("In 1979 he reached a final in Atlanta , Johannesburg and Tel Aviv .", "Atlanta", "GPE", {"GPE@in": ["Houston"]},
     "In 1979 he reached a final in Houston , Johannesburg and Tel Aviv ."),
])
def test_named_entity_swaps_leave_partial_repeated_and_article_bound_names(text, name, label, pool, expected):
    start = text.index(name)
    ctx = Context("fr" if label == "PER" else "en", random.Random("1"), None, [(start, start + len(name), label)], pool,
                  entity_labels=ALL_LABELS)
    result = perturb("named-entity", text, ctx)
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_acronyms_replace_acronyms_only():
    text = "Vad ville de tala om med James?"
    ctx = Context("sv", random.Random("1"), None, [(25, 30, "NAME")], {"NAME@med": ["CNN", "Baxter"]},
                  entity_labels=ALL_LABELS)
    assert perturb("named-entity", text, ctx).bad == "Vad ville de tala om med Baxter?"
    ctx = Context("sv", random.Random("1"), None, [(25, 30, "NAME")], {"NAME@med": ["CNN"]}, entity_labels=ALL_LABELS)
    assert perturb("named-entity", text, ctx) == Skip("no_same_kind")


def test_named_entity_swap_takes_a_nearest_name_of_its_kind():
    """Under e5, Romania's nearest pooled countries are Bulgaria and Hungary, never Zurich or Virginia."""
    from tasks.hallucigen.entities import name_vectors

    text = "The river rises in Romania and flows into the Black Sea ."
    pool = {"GPE@in": ["Arkansas", "Bulgaria", "Hungary", "Virginia", "Zurich"]}
    vectors = name_vectors(["Romania"] + pool["GPE@in"], "e5")
    swaps = {perturb("named-entity", text, Context("en", random.Random(f"1:{k}"), None, [(19, 26, "GPE")], pool,
                                                   name_vectors=vectors, entity_labels=ALL_LABELS)).target
             for k in range(8)}
    assert swaps == {"Bulgaria", "Hungary"}
