"""PAWS-X's English is tokenized ('Ranvir 's game , in 1990 .', '`` Dead Gorgeous ''', '6 -- 4'): the HalluciGen
rows show it as plain text ("Ranvir's game, in 1990.", '"Dead Gorgeous"', '6–4'), as the published release
does. Only spaces between tokens change, so an edit keeps its place (``detokenize`` maps its offset)."""
from __future__ import annotations

import re

GLUE_LEFT = {",", ".", ";", ":", "?", "!", "%", ")", "]", "'s", "'S", "n't", "'re", "'ve", "'ll", "'d", "'m"}
GLUE_RIGHT = {"(", "[", "$"}
DIGITS = re.compile(r"\d")


def _spaced(tokens: list[str]) -> list[tuple[bool, str]]:
    """Each token as written: whether a space comes before it, and its text. '``' opens a quote; '' closes an
    open one and opens one otherwise ("'' Dead Gorgeous ''")."""
    out: list[tuple[bool, str]] = []
    quote_open = glue_next = False
    for i, token in enumerate(tokens):
        previous = tokens[i - 1] if i else ""
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        space, text = not glue_next, token
        glue_next = token in GLUE_RIGHT
        if token == "``" or (token == "''" and not quote_open):
            quote_open, glue_next, text = True, True, '"'
        elif token == "''":
            quote_open, space, text = False, False, '"'
        elif token in ("--", "-") and previous[-1:].isdigit() and DIGITS.match(following):
            space, glue_next, text = False, True, "–"  # a score or range: '6 -- 4', '7 - 5' -> '6–4', '7–5'
        elif token == ":" and previous[-1:].isdigit() and DIGITS.match(following):
            space, glue_next = False, True  # a score or time: '6 : 4' -> '6:4'
        elif token in GLUE_LEFT or (token == "'" and previous[-1:] in ("s", "S")):
            space = False  # ... and a plural possessive ('the players ' union')
        out.append((space, text))
    return out


def detokenize(text: str, offset: int | None = None) -> tuple[str, int | None]:
    """``text`` without the tokenizer's spaces, and where character ``offset`` of ``text`` lands in it (None
    stays None)."""
    tokens = [t for t in text.split(" ") if t]
    out, new_offset, position = "", None, 0
    for token, (space, written) in zip(tokens, _spaced(tokens)):
        position = text.index(token, position)
        out += " " if space and out else ""
        if offset is not None and new_offset is None and offset < position + len(token):
            new_offset = len(out) + max(0, min(offset - position, len(written)))
        out += written
        position += len(token)
    return out, new_offset


def plain_english(row: dict) -> dict:
    """A translation row with its PAWS-X English as plain text: the source of en->X, both hypotheses of X->en (the
    edit's offset follows). Other rows are returned as they are."""
    if row.get("hyp_good_origin") != "pawsx":
        return row
    if not row["langpair"].endswith("-en"):
        return {**row, "source": detokenize(row["source"])[0]}
    good, start = detokenize(row["hyp_good"], row["edit_start"])
    return {**row, "hyp_good": good, "hyp_bad": detokenize(row["hyp_bad"])[0], "edit_start": start}
