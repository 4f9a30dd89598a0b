"""tasks/detectors/consistency.py: the consistency rules and detector."""
from __future__ import annotations

import pytest

from tasks.detectors.consistency import ConsistencyDetector, unsupported


@pytest.mark.parametrize("source, hyp, rule", [
    ("He paid 250 euros in 1998.", "He paid 350 euros in 1998.", "numbers"),
    ("Il est né en mai 1950.", "He was born in June 1950.", "months"),
    ("Il est né en mai 1950.", "He was born in May 1950.", None),  # the same month across languages
    ("She met Anna in the park.", "She met Maria in the park.", "names"),
    ("The road is 5 km long.", "The road is 5 miles long.", "units"),
    ("He did not go.", "He went.", "negation"),
    ("Er ging nicht nach Hause.", "He did not go home.", None),
    ("You may go in May.", "You may go in May.", None),
])
def test_consistency_rules(source, hyp, rule):
    found = {k for k, v in unsupported(source, hyp).items() if v}
    assert found == ({rule} if rule else set())


def test_consistency_detector_prefers_the_unsupported_hypothesis():
    d = ConsistencyDetector("consistency").decide(["Il a 3 chats."], ["He has 4 cats."], ["He has 3 cats."])
    assert list(d) == ["hyp1"]
