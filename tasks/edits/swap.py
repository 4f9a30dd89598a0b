"""Span replacement helpers shared by the rule-based perturbations."""
from __future__ import annotations

import random
import re

from tasks.edits.result import Edit, Skip


def match_case(original: str, new: str) -> str:
    """Give ``new`` the capitalisation of ``original`` (ALL CAPS, Title, or as is); ALL CAPS takes two capital
    letters, so an abbreviation of one stays Title case ('M.' -> 'Mme', 'USA' -> 'UK')."""
    if sum(c.isalpha() for c in original) > 1 and original.isupper():
        return new.upper()
    if original[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def replace_span(text: str, start: int, end: int, new: str, type_: str, detail: str) -> Edit:
    return Edit(type=type_, good=text, bad=text[:start] + new + text[end:], start=start, source=text[start:end],
                target=new, detail=detail)


def swap_match(text: str, pat: re.Pattern | None, table: dict[str, str | tuple[str, ...]], type_: str,
               rng: random.Random, keep: callable = lambda m: True) -> Edit | Skip:
    """Replace one seeded-random match of ``pat`` (kept by ``keep``) by its entry in ``table`` (one of its entries,
    seeded-random, where it lists several)."""
    matches = [m for m in pat.finditer(text) if keep(m)] if pat is not None else []
    if not matches:
        return Skip("no_candidate")
    m = rng.choice(matches)
    listed = table[m.group(0).lower()]
    new = match_case(m.group(0), rng.choice(listed) if isinstance(listed, tuple) else listed)
    return replace_span(text, m.start(), m.end(), new, type_, f"{m.group(0)}->{new}")
