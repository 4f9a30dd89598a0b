"""tasks/hallucigen/aces.py: ACES rows mapped to types, rejects counted."""

from tasks.edits.library import TYPES
from tasks.hallucigen.aces import ACES_TYPES, PHENOMENA, aces_candidates
from tests.paths import FIXTURES


def test_aces_rows_map_phenomena_and_count_rejects():
    cands, tally = aces_candidates(FIXTURES / "aces" / "challenge_set.jsonl", ["de-en", "fr-en"])
    assert [(c.type, c.row["hyp_bad"]) for c in cands["de-en"]] == [
        ("date", "He has lived in Berlin since 2014."), ("conversion", "She ran 5 miles.")]
    assert tally.as_dict()["rejected_by_reason"] == {"empty_text": 1, "good_equals_incorrect": 1,
                                                     "other_langpair": 1, "unmapped_phenomenon": 1}


def test_the_mapping_gives_the_nine_aces_types_of_the_overview():
    """Every type but tense, negation (PAWS-X edits) and natural (model output) comes from ACES (overview §2)."""
    assert ACES_TYPES == set(TYPES) - {"tense", "negation", "natural"}
    assert PHENOMENA["hallucination-unit-conversion-unit-matches-ref"] == "conversion"
    assert PHENOMENA["coreference-based-on-commonsense"] == "pronoun"
