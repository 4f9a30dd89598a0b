"""tasks/edits/swap.py: the case a replacement word takes from the word it replaces."""

import pytest

from tasks.edits.swap import match_case


@pytest.mark.parametrize("original,new,out", [
    ("USA", "UK", "UK"),      # ALL CAPS: two capital letters or more
    ("PARIS", "Lyon", "LYON"),
    ("M.", "Mme", "Mme"),     # one capital letter is Title case, never 'MME'
    ("I", "we", "We"),
    ("Paris", "lyon", "Lyon"),
    ("he", "She", "She"),     # lower case: as is
])
def test_match_case(original, new, out):
    assert match_case(original, new) == out
