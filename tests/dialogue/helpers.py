"""Shared pieces of the dialogue tests: the reject accounting of a loader and a hand-made history."""
from __future__ import annotations

from tasks.dialogue.turns import alternating_history


def _accounted(result):
    for file, tally in result.tallies.items():
        d = tally.as_dict()
        assert d["kept"] + d["rejected"] == d["read"], file
    assert len(result.rejects) == sum(t.as_dict()["rejected"] for t in result.tallies.values())


HISTORY = alternating_history(["Hi, I need a hotel.", "Which area?", "The north.", "Ashley Hotel is there.",
                               "Is it quiet?"])
