"""tasks/edits/antonym.py: antonym edits and what they leave alone."""

from tasks.edits.result import Skip
from tests.edits.helpers import run


def test_degree_words_and_evaluations_are_no_antonyms():
    # left out of the lexicons after the second blind review ('le moins talentueux', 'Vad mindre måste jag veta?')
    assert run("antonym", "Le village compte plus d'habitants.", "fr") == Skip("no_candidate")
    assert run("antonym", "Vad mer måste jag veta?", "sv") == Skip("no_candidate")
    assert run("antonym", "Der Film war gut.", "de") == Skip("no_candidate")
    assert run("antonym", "Le village compte un grand lac.", "fr") == Skip("no_candidate")  # figurative grand
    assert run("antonym", "Le village est au nord du lac.", "fr").bad == "Le village est au sud du lac."


def test_no_antonym_repeats_a_pole_a_synonym_holds():
    text = "Le climat est humide : 36 °C le plus élevé et 4 °C le plus bas."
    assert run("antonym", text, "fr") == Skip("no_candidate")
    assert run("antonym", "Le climat est humide : 4 °C le plus bas.", "fr").bad == (
        "Le climat est humide : 4 °C le plus haut.")
    assert run("antonym", "The highest point is elevated , the lowest flat .", "en") == Skip("no_candidate")


def test_antonyms_leave_names_and_conversions_leave_sentences_with_two_units():
    """'High Peak' and 'New Haven' are names, not adjectives; '5 miles (8 km)' with one unit changed reads as a
    mix-up, not a fact."""
    assert run("antonym", "Brough is a parish in the High Peak district of Derbyshire .", "en") == \
        Skip("no_candidate")
    assert run("antonym", "New Haven is a small city .", "en").detail == "small->large"
    assert run("antonym", "He was 14 years old then .", "en") == Skip("no_candidate")
    assert run("antonym", "Er ist besser bekannt als Maler .", "de") == Skip("no_candidate")
    assert run("conversion", "The dam is 40 metres high and 5 miles ( 8 km ) long .", "en") == Skip("several_units")
    assert run("conversion", "The dam is 40 metres high .", "en").bad == "The dam is 40 feet high ."
