"""tasks/edits/number.py: number edits keep their format, go down as often as up, and leave years."""

import re
from collections import Counter

import pytest

from tasks.edits.result import Skip
from tests.edits.helpers import run


def test_a_round_number_stays_round():
    """'more than 20 member states' -> 'more than 19' was judged a giveaway: only the changed number was not round.
    Down as often as up, where down exists."""
    made = Counter(run("number", "There are more than 20 member states .", "en", seed=str(seed)).detail
                   for seed in range(40))
    assert set(made) == {"20->10", "20->30", "20->40", "20->50", "20->70"} and made["20->10"] >= 15
    made = Counter(run("number", "It cost 500 dollars .", "en", seed=str(seed)).detail for seed in range(40))
    assert set(made) == {"500->200", "500->300", "500->400", "500->600", "500->700", "500->800"}
    assert made["500->200"] + made["500->300"] + made["500->400"] >= 15
    assert run("number", "It cost 1,000 dollars .", "en").detail == "1,000->4,000"
    assert run("number", "It cost 250 dollars .", "en").detail == "250->240"  # not round: as before


def test_number_keeps_format_and_years_are_dates():
    result = run("number", "It cost 1,250 dollars in 2004 .", "en")
    assert result.bad == "It cost 1,150 dollars in 2004 ." and result.detail == "1,250->1,150"
    assert run("number", "It happened in 2004 .", "en") == Skip("no_candidate")


@pytest.mark.parametrize("text,lang,down,up", [
    ("It has three rooms .", "en", "It has two rooms .", "It has four rooms ."),
    ("Il y a trois salles.", "fr", "Il y a deux salles.", "Il y a quatre salles."),
    ("Es gibt drei Räume.", "de", "Es gibt zwei Räume.", "Es gibt vier Räume."),
])
def test_numbers_go_down_as_often_as_up(text, lang, down, up):
    """Always up ('two' -> 'three', 15 -> 16) lets a reader of hyp- alone spot the larger, rarer number: on the
    English paraphrases the source-blind detector called all 7 number edits right."""
    made = Counter(run("number", text, lang, seed=str(seed)).bad for seed in range(40))
    assert set(made) <= {down, up} and made[down] >= 12 and made[up] >= 12
    values = [int(re.search(r"\d+", run("number", "It cost 250 dollars .", "en", seed=str(seed)).bad)[0])
              for seed in range(40)]
    assert sum(v < 250 for v in values) >= 12 and sum(v > 250 for v in values) >= 12


@pytest.mark.parametrize("text,lang", [("He died in 284 BC in Rome .", "en"),
                                       ("Il est mort en 284 av. J.-C. à Rome.", "fr"),
                                       ("Er starb 284 v. Chr. in Rom.", "de"),
                                       ("The value formula _ 18 , formula _ 18 was set .", "en")])
def test_numbers_leave_years_of_an_era_and_placeholders(text, lang):
    assert run("number", text, lang) == Skip("no_candidate")


@pytest.mark.parametrize("text,lang", [
    ("Il a trois fils, Cole, Lukas, Owen avec sa femme Karla.", "fr"),
    ("He has three sons Cole, Lukas, Owen with his wife Karla.", "en"),
])
def test_a_count_of_names_listed_by_commas_alone_is_left(text, lang):
    """'deux fils' before three names contradicts the list: a count the sentence spells out by naming its items,
    with or without an 'and', stays."""
    assert run("number", text, lang) == Skip("no_candidate")
    assert run("number", "He has three sons and lives in Paris.", "en").detail == "three->four"
