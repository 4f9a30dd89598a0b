"""tasks/edits/gender_sv.py: Swedish gender edits."""

import pytest

from tasks.edits.result import Edit, Skip
from tests.edits.helpers import run


@pytest.mark.parametrize("text,expected", [
    ("Vi har en son.", "Vi har en dotter."),
    ("Den unge mannen kom.", "Den unga kvinnan kom."),
    ("Man kan se det.", Skip("not_a_noun")),
    ("Det är en stor man.", Skip("predicate_noun")),
])
def test_swedish_gender_edits(text, expected):
    result = run("gender", text, "sv")
    assert (result.bad if isinstance(result, Edit) else result) == expected
