"""The curated word lists of the perturbation library: pairs (tasks/edits/lexicon/<name>_<lang>.tsv, columns a
and b) and lists of one entry a line (tasks/edits/lexicon/<name>.txt; '#' lines are comments)."""
from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

LEXICON_DIR = Path(__file__).resolve().parent / "lexicon"
SYMMETRIC = {"antonym", "gender", "tense", "negation_affixes"}  # each pair also maps back


@lru_cache(maxsize=None)
def rows(name: str, lang: str) -> tuple[tuple[str, str], ...]:
    """The (a, b) rows of a list as written; none when the language has no such list."""
    path = LEXICON_DIR / f"{name}_{lang}.tsv"
    if not path.is_file():
        return ()
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t")
        return tuple((row["a"], row["b"] or "") for row in reader)


@lru_cache(maxsize=None)
def pairs(name: str, lang: str) -> dict[str, str]:
    """{word: replacement} (lower-cased keys); symmetric lists map both ways, the first pair winning."""
    out: dict[str, str] = {}
    for a, b in rows(name, lang):
        out.setdefault(a.lower(), b)
        if name in SYMMETRIC:
            out.setdefault(b.lower(), a)
    return out


def options(name: str, lang: str) -> dict[str, tuple[str, ...]]:
    """{word: every replacement listed for it, in list order} (lower-cased keys): numbers go down as well as up."""
    out: dict[str, tuple[str, ...]] = {}
    for a, b in rows(name, lang):
        out[a.lower()] = out.get(a.lower(), ()) + (b,)
    return out


def words(name: str, lang: str) -> tuple[str, ...]:
    """The first column of a list (months), as written."""
    return tuple(a for a, _ in rows(name, lang))


@lru_cache(maxsize=None)
def pattern(name: str, lang: str) -> re.Pattern | None:
    """A case-insensitive whole-word pattern matching any key of the list, longest first."""
    keys = sorted(pairs(name, lang), key=len, reverse=True)
    if not keys:
        return None
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w-])", re.IGNORECASE)


@lru_cache(maxsize=None)
def entries(name: str) -> tuple[str, ...]:
    """The entries of lexicon/<name>.txt in file order, one a line as written; blank and '#' lines aside."""
    with open(LEXICON_DIR / f"{name}.txt", encoding="utf-8") as fh:
        lines = (line.rstrip("\r\n") for line in fh)
        return tuple(line for line in lines if line and not line.startswith("#"))


def entry_set(name: str) -> frozenset[str]:
    """The entries of lexicon/<name>.txt as a set, for membership tests."""
    return frozenset(entries(name))


def alternation(name: str) -> str:
    """The entries of lexicon/<name>.txt joined by '|' unescaped and in file order: the alternatives of a regex,
    whose order decides which one matches first ('ancien' before 'ancienne')."""
    return "|".join(entries(name))
