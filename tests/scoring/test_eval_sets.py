"""tasks/scoring/eval_sets.py: evaluation-set loading with bad rows."""
from __future__ import annotations

import json

import pytest

from tasks.errors import InputError
from tasks.scoring.eval_sets import load_eval_sets, shroom


def test_shroom_rows_with_bad_label_or_empty_text_are_counted(tmp_path):
    (tmp_path / "shroom").mkdir()
    rows = [{"hyp": "A cat.", "src": "Un chat.", "tgt": "A cat.", "ref": "either", "task": "MT",
             "label": "Not Hallucination"},
            {"hyp": "A dog.", "src": "x", "tgt": "The dog.", "ref": "tgt", "task": "DM", "label": "Hallucination"},
            {"hyp": "", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Hallucination"},
            {"hyp": "h", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Maybe"},
            {"hyp": "h", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Hallucination",
             "p(Hallucination)": float("nan")}]
    rows[1]["p(Hallucination)"] = 0.8
    (tmp_path / "shroom" / "trial-v1.json").write_text(json.dumps(rows))
    s = shroom(tmp_path, "shroom-trial")
    assert s.tally.as_dict() == {"read": 5, "kept": 2, "rejected": 3,
                                 "rejected_by_reason": {"bad_label": 1, "empty_text": 1, "bad_p_hallucination": 1}}
    assert [r["p_hallucination"] for r in s.rows] == [None, 0.8]
    assert [(r["source"], r["label"]) for r in s.rows] == [("Un chat.", False), ("The dog.", True)]


def test_unknown_eval_set_and_missing_artifact_fail_with_names(tmp_path):
    with pytest.raises(InputError, match="unknown evaluation set 'nope'"):
        load_eval_sets(["nope"], tmp_path, 13)
    with pytest.raises(InputError, match="test.detection.parquet: file not found"):
        load_eval_sets(["hallucigen-paraphrase-test"], tmp_path, 13)


def test_a_shroom_item_that_is_a_natural_example_leaves_the_evaluation_set(tmp_path):
    from tasks.io import write_parquet
    from tasks.schemas import HALLUCIGEN_GENERATION

    (tmp_path / "raw" / "shroom").mkdir(parents=True)
    items = [{"hyp": f"h{i}", "src": f"s{i}", "ref": "src", "task": "PG", "label": "Hallucination"} for i in range(3)]
    (tmp_path / "raw" / "shroom" / "trial-v1.json").write_text(json.dumps(items))
    row = {f.name: None for f in HALLUCIGEN_GENERATION}
    natural = {**row, "id": "en:test:0", "type": "natural", "origin": "shroom:trial-v1.json:1", "source": "s1",
               "hyp_good": "g", "hyp_bad": "h1", "scenario": "paraphrase", "langpair": "en", "split": "test"}
    edited = {**natural, "id": "en:test:1", "type": "number", "origin": "shroom:trial-v1.json:2"}
    write_parquet([natural, edited], HALLUCIGEN_GENERATION,
                  tmp_path / "hallucigen" / "paraphrase" / "test.generation.parquet")
    s = load_eval_sets(["shroom-trial"], tmp_path, 13)["shroom-trial"]
    assert [r["id"] for r in s.rows] == ["shroom-trial:trial-v1.json:0", "shroom-trial:trial-v1.json:2"]
    assert s.tally.as_dict()["rejected_by_reason"] == {"natural_example": 1}
