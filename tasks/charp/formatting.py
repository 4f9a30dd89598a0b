"""The generator's input: the knowledge, then the (truncated) history, then the bot's cue; the target
is the wizard's response. One format for seq2seq and causal models, in training and in generation:

    knowledge: <knowledge>
    User: <seeker turn>
    Bot: <wizard turn>
    ...
    User: <seeker's last turn>
    Bot:
"""
from __future__ import annotations

from tasks.models.training import truncate

SPEAKER = {"seeker": "User", "wizard": "Bot"}
CUE = "Bot:"  # the response cue that ends every input


def history_lines(history: list[dict]) -> list[str]:
    return [f"{SPEAKER.get(t['speaker'], t['speaker'])}: {t['text']}" for t in history]


def model_input(turn: dict) -> str:
    """The text a generator conditions on for one dialogue turn (DIALOGUE_TURN row)."""
    return "\n".join([f"knowledge: {turn['knowledge']}", *history_lines(turn["history"]), CUE])


def input_ids(tokenizer, turn: dict, max_length: int) -> list[int]:
    """The token ids of model_input(turn) in at most ``max_length`` tokens (special tokens included), by the
    one truncation rule: the knowledge and the "Bot:" cue are kept, the history loses its oldest tokens."""
    def ids(text: str) -> list[int]:
        return tokenizer(text, add_special_tokens=False)["input_ids"]

    head = ids(f"knowledge: {turn['knowledge']}\n")
    body = ids("".join(line + "\n" for line in history_lines(turn["history"])))
    before, after = special_ids(tokenizer)
    return before + truncate(head, body, ids(CUE), max_length - len(before) - len(after)) + after


def special_ids(tokenizer) -> tuple[list[int], list[int]]:
    """The special token ids a tokenizer puts before and after one sequence (T5: none, then </s>)."""
    plain, full = tokenizer("a", add_special_tokens=False)["input_ids"], tokenizer("a")["input_ids"]
    at = next(k for k in range(len(full) - len(plain) + 1) if full[k:k + len(plain)] == plain)
    return full[:at], full[at + len(plain):]
