"""Building and validating dialogue-turn rows, and the result every loader returns."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tasks.rows import BadField, optional_text, text
from tasks.stats import Tally

SEEKER, WIZARD = "seeker", "wizard"


@dataclass
class LoadResult:
    """Kept turns per split, every reject with its reason, and the read/kept/rejected tally per file."""

    splits: dict[str, list[dict]] = field(default_factory=lambda: defaultdict(list))
    rejects: list[dict] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))

    def keep(self, file: str, row: dict) -> None:
        self.tallies[file].keep()
        self.splits[row["split"]].append(row)

    def reject(self, source: str, file: str, index: int, reason: str) -> None:
        self.tallies[file].reject(reason)
        self.rejects.append({"source": source, "file": file, "index": index, "reason": reason})

    def add(self, source: str, file: str, index: int, row: dict | str) -> None:
        """Keep what make_turn built, or reject with the reason it gave."""
        if isinstance(row, str):
            self.reject(source, file, index, row)
        else:
            self.keep(file, row)


def alternating_history(texts: list[str]) -> list[dict]:
    """Speakers for a plain list of utterances whose last one is the seeker's."""
    n = len(texts)
    return [{"speaker": SEEKER if (n - 1 - k) % 2 == 0 else WIZARD, "text": t} for k, t in enumerate(texts)]


def make_turn(*, id: str, split: str, dialogue_id: str, history: list[dict], knowledge, response,
              source: str, file: str, index: int, original_response=None, begin=None, vrm=None,
              fine_label=None, faithful=None) -> dict | str:
    """A DIALOGUE_TURN row, or the reason the inputs cannot make one: a text field that is missing or not a
    string, checked in the order response, knowledge, history (e.g. a response 123 is 'response_not_a_string')."""
    try:
        response = text(response, "response")
        knowledge = text(knowledge, "knowledge")
        history = [{"speaker": t["speaker"], "text": text(t["text"], "history_turn")} for t in history]
        original_response = optional_text(original_response, "original_response")
    except BadField as bad:
        return bad.reason
    return {"id": id, "split": split, "dialogue_id": dialogue_id, "history": history, "knowledge": knowledge,
            "response": response, "original_response": original_response,
            "begin": begin, "vrm": vrm, "fine_label": fine_label, "faithful": faithful,
            "provenance": {"source": source, "file": file, "index": index}}
