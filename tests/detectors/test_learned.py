"""tasks/detectors/learned.py on a small real run: PAWS-X dev pairs from the mirror perturbed by the library
(real spaCy), split by item without duplicate rows, a head over real e5 features whose validation loss falls
well below ln 2 (a coin's), saved as JSON and loaded back as a detector."""
from __future__ import annotations

import math

import pytest

from tasks.detectors.learned import LearnedDetector, save_head, train_head
from tasks.detectors.splits import items_per_direction, split_by_item
from tasks.errors import PipelineError
from tasks.hallucigen.training_pairs import training_pairs


@pytest.fixture(scope="module")
def pairs(mirror, tmp_path_factory):
    from tasks.hallucigen.sources import load_models

    # 300 items: since named entities are persons' first names and antonyms places, directions and sizes only, 80
    # items give 285 pairs (valid loss 0.662), 160 give 585 (0.637), 240 give 895 (0.633), 300 give 1112 (0.614,
    # AUROC 0.78)
    params = {"seed": 13, "directions": ["en-fr", "fr-en"], "items_per_direction": 300,
              "types": ["addition", "named-entity", "number", "date", "gender", "pronoun", "antonym", "tense",
                        "negation"]}
    rows, stats = training_pairs(mirror, tmp_path_factory.mktemp("hallucigen"), params, load_models(["en", "fr"]))
    return rows, stats


def test_pairs_have_no_duplicate_rows_and_split_by_item(pairs):
    rows, stats = pairs
    keys = [(r["source"], r["hypothesis"]) for r in rows]
    assert len(keys) == len(set(keys)) and sum(stats["pairs"].values()) == len(rows)
    assert stats["skipped_shared_source"]  # PAWS-X items that share a sentence: counted, the first item keeps it
    faithful = [r for r in rows if r["label"] == 0]
    assert len(faithful) == len({(r["langpair"], r["origin"]) for r in rows})  # hyp+ once per item
    train, valid = split_by_item(rows, 0.25, 13)
    assert not {r["origin"] for r in train} & {r["origin"] for r in valid}
    assert len(train) + len(valid) == len(rows)
    assert len({r["origin"] for r in valid}) == round(0.25 * len({r["origin"] for r in rows}))
    assert split_by_item(rows, 0.25, 13) == (train, valid)  # seeded
    small = items_per_direction(rows, 5, 13)
    assert {r["langpair"]: 0 for r in small} and all(
        len({r["origin"] for r in small if r["langpair"] == d}) == 5 for d in ("en-fr", "fr-en"))


def test_the_head_learns_well_below_ln2_and_scores_as_a_detector(pairs, tmp_path):
    rows, _ = pairs
    train, valid = split_by_item(rows, 0.25, 13)
    head, figures = train_head(train, valid, {"encoder": "e5", "c": 0.001, "seed": 13})
    assert figures["ln2"] == round(math.log(2), 4)
    assert figures["valid_loss"] < math.log(2) - 0.05, figures  # 0.638 measured: below ln 2, not far below
    assert figures["valid_auroc"] >= 0.7, figures
    save_head(head, tmp_path)
    detector = LearnedDetector("learned", str(tmp_path))
    bad = [r for r in valid if r["label"] == 1]
    good = {(r["origin"], r["langpair"]): r for r in valid if r["label"] == 0}
    pairs_ = [(good[(r["origin"], r["langpair"])], r) for r in bad]
    decisions = detector.decide([g["source"] for g, _ in pairs_], [g["hypothesis"] for g, _ in pairs_],
                                [b["hypothesis"] for _, b in pairs_], "translation")
    # the perturbed hypothesis scores higher on 4 in 5 validation pairs at least (0.87 of 126 measured), over all
    # of them: the first five were three tense edits, the hardest type for a frozen encoder
    assert list(decisions).count("hyp2") >= 0.8 * len(decisions), list(decisions).count("hyp2")
    again = LearnedDetector("learned", str(tmp_path)).scores([valid[0]["source"]], [valid[0]["hypothesis"]])
    assert again == detector.scores([valid[0]["source"]], [valid[0]["hypothesis"]])  # deterministic


def test_training_needs_both_labels_and_a_missing_head_is_named(tmp_path):
    one = [{"source": "a", "hypothesis": "b", "label": 0}]
    with pytest.raises(PipelineError, match="each need both labels"):
        train_head(one, one, {"encoder": "e5", "c": 0.001, "seed": 13})
    with pytest.raises(PipelineError, match="head.json: learned detector not found"):
        LearnedDetector("learned", str(tmp_path))
