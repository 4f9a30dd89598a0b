"""The overview's Table 1: examples per hallucination type in each published split and direction/language, and the
per-type quotas a build with ``type_distribution: paper`` fills as far as its pool allows. A configured split
size other than the table's total scales every count by the largest-remainder rule, e.g. en-fr test at 20
examples: addition 2, number 5, date 7, pronoun 6."""
from __future__ import annotations

# Table 1's columns, in the overview's order of the eleven types; None: a dash (no example).
COLUMNS = ("addition", "named-entity", "number", "conversion", "date", "gender", "pronoun", "antonym", "tense",
           "negation", "natural")
_ = None
TABLE_1: dict[tuple[str, str], tuple[int | None, ...]] = {
    ("test", "en"): (11, 16, 5, 3, 9, 14, 9, 11, 4, 3, 33),
    ("test", "sv"): (42, 11, _, 3, 15, 12, 9, 1, 5, 1, 20),
    ("trial", "en"): (2, 2, 1, 1, 2, 1, 1, 2, _, 1, 3),
    ("trial", "sv"): (5, 1, 1, 1, 3, 2, 3, 1, 1, _, 2),
    ("test", "en-fr"): (10, _, 24, _, 33, _, 33, _, _, _, _),
    ("test", "fr-en"): (9, 13, 4, 12, 12, 12, 13, _, 12, 13, _),
    ("test", "en-de"): (10, 16, 14, _, 15, _, 13, 16, _, _, 16),
    ("test", "de-en"): (10, 10, 7, 11, 10, 10, 10, _, 10, 11, 11),
    ("trial", "en-fr"): (1, _, 3, _, 3, _, 3, _, _, _, _),
    ("trial", "fr-en"): (1, 1, 1, 1, 1, 2, 1, _, 1, 1, _),
    ("trial", "en-de"): (1, 1, 2, _, 1, _, 3, 1, _, _, 1),
    ("trial", "de-en"): (1, 1, 1, 1, 1, 1, 1, _, 1, 1, 1),
}


def table_counts(split: str, group: str) -> dict[str, int]:
    """Table 1's examples per type of one split and direction/language (types with a dash left out)."""
    if (split, group) not in TABLE_1:
        known = sorted({g for _, g in TABLE_1})
        raise ValueError(f"Table 1 has no {split} split for {group!r} (it has {', '.join(known)})")
    return {t: n for t, n in zip(COLUMNS, TABLE_1[split, group]) if n}


def paper_quotas(group: str, sizes: dict[str, int]) -> dict[str, dict[str, int]]:
    """Per split of ``sizes``: Table 1's count of each type, scaled to the split's size (largest remainder, ties
    in Table 1's column order)."""
    out = {}
    for split, size in sizes.items():
        counts = table_counts(split, group)
        total = sum(counts.values())
        exact = {t: n * size / total for t, n in counts.items()}
        quota = {t: int(v) for t, v in exact.items()}
        rest = sorted(counts, key=lambda t: (-(exact[t] - quota[t]), COLUMNS.index(t)))
        for t in rest[: size - sum(quota.values())]:
            quota[t] += 1
        out[split] = {t: n for t, n in quota.items() if n}
    return out
