"""The generator's input: the knowledge, then the (truncated) history, then the bot's cue; the target
is the wizard's response. One format for seq2seq and causal models:

    knowledge: <knowledge>
    User: <seeker turn>
    Bot: <wizard turn>
    ...
    User: <seeker's last turn>
    Bot:
"""
from __future__ import annotations

SPEAKER = {"seeker": "User", "wizard": "Bot"}


def history_lines(history: list[dict]) -> list[str]:
    return [f"{SPEAKER.get(t['speaker'], t['speaker'])}: {t['text']}" for t in history]


def model_input(turn: dict) -> str:
    """The text a generator conditions on for one dialogue turn (DIALOGUE_TURN row)."""
    return "\n".join([f"knowledge: {turn['knowledge']}", *history_lines(turn["history"]), "Bot:"])
