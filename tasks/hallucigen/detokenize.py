"""PAWS-X's English is tokenized ('Ranvir 's game , in 1990 .', '`` Dead Gorgeous ''', '6 -- 4'), and some of its
French and German has stray spaces ('Sri Lanka .', '" Detection Unlimited "'): the HalluciGen rows show plain text
("Ranvir's game, in 1990.", '"Dead Gorgeous"', '6–4', 'cult-favorite'), as the published release does. Only spaces
between tokens change, so an edit keeps its place (``detokenize`` maps its offset)."""
from __future__ import annotations

import re

GLUE_LEFT = {",", ".", ";", ":", "?", "!", "%", ")", "]", "'s", "'S", "n't", "'re", "'ve", "'ll", "'d", "'m"}
GLUE_RIGHT = {"(", "[", "$"}
# French and German keep their space before ';:!?%' (typography) and have no clitic tokens
TARGET_GLUE_LEFT, TARGET_GLUE_RIGHT = {",", ".", ")", "]"}, {"(", "["}
DIGITS = re.compile(r"\d")


def _spaced(tokens: list[str], english: bool) -> list[tuple[bool, str]]:
    """Each token as written: whether a space comes before it, and its text. A quote token ('``', "''", '"') opens a
    quote where the quotes so far are even ("'' Dead Gorgeous ''"), '``' always."""
    glue_left, glue_right = (GLUE_LEFT, GLUE_RIGHT) if english else (TARGET_GLUE_LEFT, TARGET_GLUE_RIGHT)
    out: list[tuple[bool, str]] = []
    quotes, glue_next = 0, False
    for i, token in enumerate(tokens):
        previous = tokens[i - 1] if i else ""
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        space, text = not glue_next, token
        if token[:2] == "''" and token[2:] and not token[2:].isalnum():
            text = '"' + token[2:]  # a closing quote glued to its punctuation: "`` Autism Every Day '',"
        glue_next = token in glue_right
        if token in ('"', "``", "''"):
            text = '"'
            if token == "``" or quotes % 2 == 0:
                glue_next = True
            else:
                space = False
        elif text[:1] == '"' and quotes % 2 and not text[1:].isalnum():
            space = False  # a closing quote before its punctuation: '" Detection Unlimited ",'
        elif token in ('("', '["') and quotes % 2 == 0:
            glue_next = True  # an opening quote after its bracket: 'Adam Surat (" Force intérieure")'
        elif token in ("--", "-") and previous[-1:].isdigit() and DIGITS.match(following):
            space, glue_next, text = False, True, "–"  # a score or range: '6 -- 4', '7 - 5' -> '6–4', '7–5'
        elif english and token == "-" and previous[-1:].isalpha() and following[:1].isalnum():
            space, glue_next = False, True  # a compound: 'cult - favorite', 'C - 311' ('1867 - April' is a range)
        elif token == ":" and previous[-1:].isdigit() and DIGITS.match(following):
            space, glue_next = False, True  # a score or time: '6 : 4' -> '6:4'
        elif token == "#" and DIGITS.match(following):
            glue_next = True  # an issue number: '" The Avengers " # 71' -> '"The Avengers" #71'
        elif token in glue_left or (english and token == "'" and previous[-1:] in ("s", "S")):
            space = False  # ... and a plural possessive ('the players ' union')
        quotes += text.count('"')
        out.append((space, text))
    return out


def detokenize(text: str, offset: int | None = None, english: bool = True) -> tuple[str, int | None]:
    """``text`` without the tokenizer's spaces (French or German where ``english`` is false), and where character
    ``offset`` of ``text`` lands in it (None stays None)."""
    tokens = [t for t in text.split(" ") if t]
    out, new_offset, position = "", None, 0
    for token, (space, written) in zip(tokens, _spaced(tokens, english)):
        position = text.index(token, position)
        out += " " if space and out else ""
        if offset is not None and new_offset is None and offset < position + len(token):
            new_offset = len(out) + max(0, min(offset - position, len(written)))
        out += written
        position += len(token)
    return out, new_offset


def plain_text(row: dict) -> dict:
    """A translation row built from PAWS-X as plain text: its English (the source of en->X, both hypotheses of
    X->en) and the stray spaces of its French or German (the hypotheses of en->X, the source of X->en), the edit's
    offset following the hypotheses. Other rows are returned as they are."""
    if row.get("hyp_good_origin") != "pawsx":
        return row
    english = row["langpair"].endswith("-en")
    good, start = detokenize(row["hyp_good"], row["edit_start"], english)
    plain = {**row, "hyp_good": good, "hyp_bad": detokenize(row["hyp_bad"], english=english)[0], "edit_start": start}
    return {**plain, "source": detokenize(row["source"], english=not english)[0]}
