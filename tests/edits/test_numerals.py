"""tasks/edits/numerals.py: days of the month in any of the four languages, and dates left half translated."""

import re

import pytest

from tasks.edits.numerals import foreign_month, is_day
from tests.edits.helpers import run


def _day(text: str, number: str, lang: str) -> bool:
    return is_day(text, re.search(rf"\b{number}\b", text), lang)


def test_a_day_beside_an_untranslated_month_name_is_a_day():
    """'6 January' left in English in a German sentence is still a date: a number edit there changes a day."""
    assert _day("Er starb am 6 January 2015 in Berlin.", "6", "de")
    assert _day("Er starb am 6. Januar 2015 in Berlin.", "6", "de")
    assert not _day("Er hatte 6 Kinder.", "6", "de")
    assert run("number", "Er starb am 6 January 2015 in Berlin und hatte 6 Kinder.", "de").detail.startswith("6->")
    assert run("number", "Er starb am 6 January 2015 in Berlin und hatte 6 Kinder.", "de").bad.startswith(
        "Er starb am 6 January 2015")


@pytest.mark.parametrize("text,lang,month", [
    ("Er starb am 6 January 2015 in Berlin.", "de", "January"),
    ("En November 1989, Delaney devint membre du New York Stock Exchange.", "fr", "November"),
    ("Er starb am 19. November 2011 in Athen.", "de", None),  # German spells it so too
    ("Junius est né à Driggs et May Jerusha Robison.", "fr", None),  # a name, beside no number
    ("Il est né le 4 mars 1990.", "fr", None),
])
def test_a_month_name_another_language_spells_is_found_beside_a_number(text, lang, month):
    assert foreign_month(text, lang) == month
