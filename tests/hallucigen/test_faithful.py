"""tasks/hallucigen/faithful.py: a translation keeps the numbers and names of its source."""

import pytest


@pytest.mark.parametrize("text,source,expected", [
    ("Elle fut exécutée à 9 h 55 le 3 mai, par Albert Pierrepoint.", "She was executed at 9 : 55 am on 3 May 1947 , "
     "by Albert Pierrepoint .", 1947),  # a year dropped
    ("Lors des élections de 2001, Tarit Brahmachari a battu son rival.", "In the 2011 election , Tarit Brahmachari "
     "defeated his rival .", 2001),
    ("Dans les années 70, il resta jusqu'en 1974.", "In the 1970s he stayed until 1974 .", None),  # a decade
    ("Die Saison 2008/2009 war die 37. Saison.", "The 2008 -- 09 season was the 37th season .", None),
    ("Il y a 90 000 catholiques, soit seize pour cent.", "There are 90,000 Catholics , sixteen per cent .", None),
    ("Quand Kangxi avait 16 ans, il élimina Oboi.", "When Kangxi was sixteen , he eliminated Oboi .", None),
])
def test_a_translation_keeps_every_large_number_of_its_source(text, source, expected):
    from tasks.hallucigen.faithful import number_unlike_source

    assert number_unlike_source(text, source) == expected


@pytest.mark.parametrize("text,source,lang,expected", [
    ("Die Band gründete sich, nachdem Bassist Jared Willey die Renegades verlassen hatte.",
     "The band formed after bassist Jared Swilley left the Renegades .", "de", "Willey"),
    ("Le critique baroque John Rushin déclara que la sculpture était morte.",
     "The baroque critic John Ruskin declared that sculpture was dead .", "fr", "Rushin"),
    ("Le décret du président russe Vladimir Poutine a nommé Titov.", "The decree of the Russian President Vladimir "
     "Putin appointed Titov .", "fr", None),  # a translated name
    ("Er machte Aufnahmen mit Billy Eckstines Band.", "He recorded with Billy Eckstine 's band .", "de",
     None),  # a genitive
    ("Die Band gründete sich, nachdem Bassist Jared Swilley die Renegades verlassen hatte.",
     "The band formed after bassist Jared Swilley left the Renegades .", "de", None),
])
def test_a_translation_spells_the_names_of_its_source_as_the_source_does(text, source, lang, expected):
    from tasks.hallucigen.faithful import respelt_name

    assert respelt_name(text, source, lang) == expected
