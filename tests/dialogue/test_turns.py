"""tasks/dialogue/turns.py: speakers alternate and the seeker speaks last."""

from tasks.dialogue.turns import alternating_history
from tests.dialogue.helpers import HISTORY


def texts(turns):
    return [(t["speaker"], t["text"]) for t in turns]


def test_speakers_alternate_and_the_seeker_speaks_last():
    assert texts(HISTORY) == [("seeker", "Hi, I need a hotel."), ("wizard", "Which area?"), ("seeker", "The north."),
                              ("wizard", "Ashley Hotel is there."), ("seeker", "Is it quiet?")]
    assert texts(alternating_history(["A", "B"])) == [("wizard", "A"), ("seeker", "B")]
