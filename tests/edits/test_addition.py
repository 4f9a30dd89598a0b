"""tasks/edits/addition.py: additions are modifiers the corpus attests for that determiner and noun."""

import random

import pytest

from tasks.edits.context import Context
from tasks.edits.library import perturb
from tasks.edits.result import Edit, Skip
from tests.edits.helpers import POOL

CORPUS = {
    "en": ["He lives with her elder brother in Leeds .", "She met her elder brother there .",
           "It was an old tributary .", "It is an old tributary of the Ouse .", "At the exact time of his death .",
           "At the exact time of the fire .", "The ancient town Ripon lies north .", "The ancient town Ripon is old .",
           "Just tell them the honest truth .", "It is the honest truth .", "Give the honest answer .",
           "It was the honest answer ."],
    "fr": ["Il vit avec son jeune frère.", "Elle est une moyenne faible.", "C'est une moyenne faible.",
           "Il joue une moyenne passa.", "la ville voisine Nice",
           "Il aime la musique religieuse.", "Elle joue la musique religieuse."],
    "de": ["Der Cugir ist ein linker Nebenfluss des Mures.", "Es ist ein linker Nebenfluss der Olt.",
           "Mit der damaligen Zeit.", "Mit der damaligen Zeit kam er."],
    "sv": ["En ung man spelar piano.", "En ung man springer.", "Ett stort får äter.", "Ett stort får står."],
}


@pytest.mark.parametrize("text,lang,expected", [
    ("In 1998 her brother moved north .", "en", "In 1998 her elder brother moved north ."),
    ("The Nidd is a tributary of the Ouse .", "en", "The Nidd is an old tributary of the Ouse ."),
    ("At the time of his death he was 40 .", "en", Skip("no_attested_modifier")),  # a set phrase
    ("The town Ripon lies north .", "en", Skip("no_attested_modifier")),  # a name follows the noun
    ("Tell them the truth .", "en", Skip("no_attested_modifier")),  # 'the honest truth' adds nothing
    ("Give me the answer now .", "en", "Give me the honest answer now ."),
    ("Il a vécu trois ans avec son frère.", "fr", "Il a vécu trois ans avec son jeune frère."),
    ("Il a obtenu une moyenne en 2012.", "fr", "Il a obtenu une moyenne faible en 2012."),
    ("Il joue la musique le soir.", "fr", "Il joue la musique religieuse le soir."),
    ("Il joue la musique d'église.", "fr", Skip("no_attested_modifier")),  # a noun with its complement
    ("Il joue la musique classique le soir.", "fr", Skip("no_determined_noun")),  # no second adjective
    ("Der Fluss ist ein Nebenfluss der Donau.", "de", "Der Fluss ist ein linker Nebenfluss der Donau."),
    ("Mit der Zeit wurde es besser.", "de", Skip("no_attested_modifier")),
    ("Sie wohnt in Berlin, Hamburg und Bremen.", "de", Skip("no_attested_modifier")),
    ("En man spelar gitarr.", "sv", "En ung man spelar gitarr."),
    ("Ett får betar.", "sv", "Ett stort får betar."),
    ("I dag är han glad.", "sv", Skip("no_attested_modifier")),
])
def test_additions_are_modifiers_the_corpus_attests_for_that_determiner_and_noun(text, lang, expected, en_full,
                                                                                 fr_nlp):
    from tasks.edits import modifiers
    from tasks.edits.spacy_model import tagger_of

    nlp = {"en": en_full, "fr": fr_nlp}.get(lang)
    ctx = Context(lang, random.Random("7"), nlp(text) if nlp else None, [], POOL,
                  modifiers.attested(CORPUS[lang], lang), tagger_of(nlp) if nlp else None)
    result = perturb("addition", text, ctx)
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_a_modifier_the_paraphrase_source_has_is_no_addition():
    from tasks.edits import modifiers

    table = modifiers.attested(CORPUS["sv"], "sv")
    ctx = Context("sv", random.Random("7"), None, [], POOL, table, source="En ung man spelar på en gitarr.")
    assert perturb("addition", "En man spelar gitarr.", ctx) == Skip("no_attested_modifier")
    ctx = Context("sv", random.Random("7"), None, [], POOL, table, source="En man spelar på en gitarr.")
    assert perturb("addition", "En man spelar gitarr.", ctx).bad == "En ung man spelar gitarr."


def test_no_ordinal_is_added_before_a_noun_with_its_number():
    from tasks.edits import modifiers

    table = modifiers.attested(["La neuvième saison fut longue.", "La neuvième saison fut courte."], "fr")
    ctx = Context("fr", random.Random("7"), None, [], POOL, table)
    assert perturb("addition", "La saison 2008–09 fut la 37e de la franchise.", ctx) == Skip("no_attested_modifier")
    assert perturb("addition", "La saison fut la 37e de la franchise.", ctx).bad == (
        "La neuvième saison fut la 37e de la franchise.")


def test_a_verb_after_the_noun_is_no_french_addition(fr_nlp):
    """'une moyenne passa' is seen once only; seen twice, re-tagging still reads 'passa' as a verb."""
    from tasks.edits import modifiers
    from tasks.edits.spacy_model import tagger_of

    table = modifiers.attested(CORPUS["fr"] + ["Il joue une moyenne passa."], "fr")
    assert table["post"]["une moyenne"] == {"passa": 2, "faible": 2}
    text = "Il a obtenu une moyenne en 2012."
    outcomes = {perturb("addition", text, Context("fr", random.Random(str(k)), fr_nlp(text), [], POOL, table,
                                                  tagger_of(fr_nlp))).bad for k in range(8)}
    assert outcomes == {"Il a obtenu une moyenne faible en 2012."}
