"""The conversion edit: the unit after a number changes and the value stays ('25 km' -> '25 miles')."""
from __future__ import annotations

import re

from tasks.edits import lexicons
from tasks.edits.context import Context
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import swap_match

# an article right before the number makes number and unit a name ('the 2-liter', 'le 2 litres' of a car model)
MODEL_NAME = re.compile(r"\b(?:the|le|la|l'|der|die|das|den|dem)\s*\d(?:[.,]\d+)*\s?-?$", re.IGNORECASE)


def conversion(text: str, ctx: Context) -> Edit | Skip:
    """Change a unit written exactly as listed right after a number, without converting the value (km ->
    miles, °C -> °F, ...): '25 km', '3,5 m'; not 'En 1914, M.', nor a model name ('the 2-liter'). A sentence
    naming two units ('5 miles (8 km)') is left: one unit changed beside the other reads as a mix-up, not as a
    fact."""
    units = {a for a, _ in lexicons.rows("units", ctx.lang)}
    every = {w for row in lexicons.rows("units", ctx.lang) for w in row}
    named = [w for w in re.findall(r"[^\s\d(),;.]+", text) if w in every]
    if len(named) > 1:
        return Skip("several_units")
    return swap_match(text, lexicons.pattern("units", ctx.lang), lexicons.pairs("units", ctx.lang), "conversion",
                      ctx.rng, keep=lambda m: m.group(0) in units
                      and re.search(r"\d(?:[.,]\d+)*\s?$", text[:m.start()]) is not None
                      and MODEL_NAME.search(text[:m.start()]) is None)
