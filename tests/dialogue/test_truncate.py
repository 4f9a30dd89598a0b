"""tasks/dialogue/truncate.py: history truncation on hand-made dialogues, with exact expected histories."""

import pytest

from tasks.dialogue.truncate import truncate_history, truncated_rows
from tests.dialogue.helpers import HISTORY


@pytest.mark.parametrize("h,expected", [
    ("full", ["Hi, I need a hotel.", "Which area?", "The north.", "Ashley Hotel is there.", "Is it quiet?"]),
    (3, ["The north.", "Ashley Hotel is there.", "Is it quiet?"]),
    (2, ["Ashley Hotel is there.", "Is it quiet?"]),
    (1, ["Is it quiet?"]),
    (0, []),
    (9, ["Hi, I need a hotel.", "Which area?", "The north.", "Ashley Hotel is there.", "Is it quiet?"]),
])
def test_truncate_keeps_the_h_most_recent_turns(h, expected):
    assert [t["text"] for t in truncate_history(HISTORY, h)] == expected


def test_truncated_rows_leave_the_input_untouched():
    rows = [{"id": "a", "history": HISTORY}]
    out = truncated_rows(rows, 1)
    assert out[0]["history"] == [{"speaker": "seeker", "text": "Is it quiet?"}]
    assert len(rows[0]["history"]) == 5


@pytest.mark.parametrize("bad", [-1, "3", 1.5, True, None])
def test_invalid_variant_is_an_error(bad):
    with pytest.raises(ValueError, match="'full' or an integer"):
        truncate_history(HISTORY, bad)
