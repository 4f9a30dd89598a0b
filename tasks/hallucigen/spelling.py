"""Misspelt words of a faithful hypothesis: a word no frequency list of its language knows, one letter away
from a common word, and not copied from the source ('nexct', 'deit', 'Abegordneter', 'obenu'). Either side of
the example would carry it, and annotators reject it as not fluent."""
from __future__ import annotations

import re
from functools import lru_cache

LETTERS = "abcdefghijklmnopqrstuvwxyzàâäåçéèêëîïôöùûüÿœæß"
WORD = re.compile(r"(?<![\w'’-])[^\W\d_]{4,}(?![\w'’-])")
COMMON = 3.0  # Zipf frequency of the word a misspelling is one letter away from (3: once per million words)


@lru_cache(maxsize=200_000)
def _zipf(word: str, lang: str) -> float:
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, lang), zipf_frequency(word.lower(), lang))


def _one_letter_away(word: str) -> set[str]:
    """Words one deletion, transposition, replacement or insertion away from ``word`` (Norvig's edits1)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deleted = {a + b[1:] for a, b in splits if b}
    transposed = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaced = {a + c + b[1:] for a, b in splits if b for c in LETTERS}
    return deleted | transposed | replaced | {a + c + b for a, b in splits for c in LETTERS}


def misspelt(text: str, source: str, lang: str) -> str | None:
    """The first misspelt word of ``text`` (see the module docstring), else None."""
    copied = {w.lower() for w in re.findall(r"\w+", source)}
    for word in WORD.findall(text):
        if word.lower() in copied or _zipf(word, lang) > 0:
            continue
        if any(_zipf(near, lang) >= COMMON for near in _one_letter_away(word) - {word}):
            return word
    return None
