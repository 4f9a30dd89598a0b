"""Name comparison shared by entity swaps and paraphrase checks: two spellings of one name are one name."""
from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache

import gender_guesser.detector as gender_guesser
from nicknames import NickNamer

VARIANT_RATIO = 0.65  # 'McLennan'/'MacLennan' 0.94, 'König'/'King' 0.67; 'Jackson'/'Johnson' 0.57 is another name


def spelling(name: str) -> str:
    """A name without case, accents and punctuation: 'sr' and 'Sr.', 'König' and 'Konig' are one name."""
    return re.sub(r"\W", "", unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()).lower()


def spelling_variant(a: str, b: str) -> bool:
    """Two names that read as spellings or translations of one ('McLennan'/'MacLennan', 'König'/'King',
    'Fourçans'/'Fourans'): a swap between them is no hallucination."""
    return SequenceMatcher(None, spelling(a), spelling(b)).ratio() >= VARIANT_RATIO


FIRST_NAME_KIND = "FIRST@"  # entity-pool key of first names by gender: 'FIRST@male', 'FIRST@female'
FIRST_NAME_TITLES = {"sir", "saint", "st", "king", "queen", "prince", "princess", "lord", "lady", "dr", "mr", "mrs",
                     "ms", "san", "santa", "pope", "general", "captain"}


@lru_cache(maxsize=1)
def _gender_detector():
    return gender_guesser.Detector(case_sensitive=False)


@lru_cache(maxsize=None)
def first_name_gender(word: str) -> str | None:
    """'male' or 'female' where ``word`` is a first name of that gender only (gender-guesser's lexicon of 40,000
    first names across countries); None for an unknown, ambiguous or mostly-one-gender name, or a title."""
    word = word.strip(".,")
    if len(word) < 3 or not word[:1].isupper() or word.lower() in FIRST_NAME_TITLES:
        return None
    gender = _gender_detector().get_gender(word)
    return gender if gender in ("male", "female") else None


@lru_cache(maxsize=1)
def _nicknames():
    return NickNamer()


@lru_cache(maxsize=None)
def same_first_name(a: str, b: str) -> bool:
    """Two forms of one first name: a nickname or its full form (the nicknames package: 'Bob'/'Robert',
    'Tony'/'Antonio'), a shared three-letter start ('Andy'/'Andrew', 'Markus'/'Marc'), a spelling variant, or
    the same first letter and a close spelling ('John'/'Jan')."""
    x, y = spelling(a), spelling(b)
    names = _nicknames()
    related = names.nicknames_of(x) | names.canonicals_of(x)
    return (y in related or x in names.nicknames_of(y) | names.canonicals_of(y) or x[:3] == y[:3]
            or spelling_variant(a, b) or (x[:1] == y[:1] and SequenceMatcher(None, x, y).ratio() >= 0.5))


MIN_ORIGIN_COSINE = 0.6


@lru_cache(maxsize=None)
def first_name_countries(word: str) -> dict[int, int]:
    """{country (gender-guesser's column): frequency 1-13} where ``word`` is a first name: 'Gianni' Italy and
    Switzerland, 'Danny' Britain and the US."""
    entry = _gender_detector().names.get(word.strip(".,").lower(), {})
    freqs: dict[int, int] = {}
    for freq in entry.values():
        for i, c in enumerate(freq):
            if c.strip():
                freqs[i] = max(freqs.get(i, 0), int(c, 16))
    return freqs


def same_origin(a: str, b: str) -> bool:
    """Two first names of one origin: their frequencies over gender-guesser's countries at a cosine of
    MIN_ORIGIN_COSINE or more ('William'/'Thomas', 'Hans'/'Peter'; not 'Bob'/'Mohammad', 'Robert'/'Francesco',
    'Philip'/'Filippo')."""
    x, y = first_name_countries(a), first_name_countries(b)
    dot = sum(v * y.get(i, 0) for i, v in x.items())
    norm = (sum(v * v for v in x.values()) * sum(v * v for v in y.values())) ** 0.5
    return bool(norm) and dot / norm >= MIN_ORIGIN_COSINE
