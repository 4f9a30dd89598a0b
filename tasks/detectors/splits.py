"""Train/validation splits of detector training rows by item, so that no item is on both sides."""
from __future__ import annotations

import random


def split_by_item(rows: list[dict], valid_fraction: float, seed: int, key: str = "origin"
                  ) -> tuple[list[dict], list[dict]]:
    """(train, validation): a seeded ``valid_fraction`` of the distinct ``key`` values (at least one)
    validates, with all their rows."""
    items = sorted({r[key] for r in rows})
    random.Random(f"{seed}:split").shuffle(items)
    held = set(items[: max(1, round(valid_fraction * len(items)))])
    return [r for r in rows if r[key] not in held], [r for r in rows if r[key] in held]


def items_per_direction(rows: list[dict], n: int, seed: int) -> list[dict]:
    """The rows of a seeded ``n`` items of each direction (a smaller training set from the same build)."""
    keep = set()
    for direction in sorted({r["langpair"] for r in rows}):
        items = sorted({r["origin"] for r in rows if r["langpair"] == direction})
        keep |= {(direction, o) for o in random.Random(f"{seed}:{direction}:subset").sample(items, min(n, len(items)))}
    return [r for r in rows if (r["langpair"], r["origin"]) in keep]
