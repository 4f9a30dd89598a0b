"""Name comparison shared by entity swaps and paraphrase checks: two spellings of one name are one name."""
from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

VARIANT_RATIO = 0.65  # 'McLennan'/'MacLennan' 0.94, 'König'/'King' 0.67; 'Jackson'/'Johnson' 0.57 is another name


def spelling(name: str) -> str:
    """A name without case, accents and punctuation: 'sr' and 'Sr.', 'König' and 'Konig' are one name."""
    return re.sub(r"\W", "", unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()).lower()


def spelling_variant(a: str, b: str) -> bool:
    """Two names that read as spellings or translations of one ('McLennan'/'MacLennan', 'König'/'King',
    'Fourçans'/'Fourans'): a swap between them is no hallucination."""
    return SequenceMatcher(None, spelling(a), spelling(b)).ratio() >= VARIANT_RATIO
