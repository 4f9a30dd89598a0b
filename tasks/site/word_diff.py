"""Word-level diff of two texts as HTML: words only the first has in <del>, words only the second has in <ins>."""
from __future__ import annotations

from difflib import SequenceMatcher

from markupsafe import Markup, escape


def _join(words: list[str], tag: str | None) -> str:
    text = str(escape(" ".join(words)))
    return f"<{tag}>{text}</{tag}>" if tag and words else text


def word_diff(a: str | None, b: str | None) -> tuple[Markup, Markup]:
    """(a with its removed words marked, b with its added words marked); whitespace collapses to spaces."""
    wa, wb = (a or "").split(), (b or "").split()
    left, right = [], []
    for op, i1, i2, j1, j2 in SequenceMatcher(a=wa, b=wb, autojunk=False).get_opcodes():
        same = op == "equal"
        left.append(_join(wa[i1:i2], None if same else "del"))
        right.append(_join(wb[j1:j2], None if same else "ins"))
    return Markup(" ".join(p for p in left if p)), Markup(" ".join(p for p in right if p))
