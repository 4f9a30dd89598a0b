"""tasks/dialogue/charp.py on fixtures that mimic the documented schema: joined on row_idx, bad rows
rejected."""
from __future__ import annotations

import json

import pytest

from tasks.dialogue.charp import SUBSET_SPLIT, load_charp
from tasks.dialogue.faithdial import load_faithdial
from tasks.errors import PipelineError
from tests.dialogue.helpers import _accounted
from tests.paths import FIXTURES


def test_charp_fixture_joins_row_idx_and_rejects_bad_rows():
    valid, counts = load_faithdial(FIXTURES / "faithdial", ["valid"])
    result = load_charp(FIXTURES / "charp", {"echarp": "echarp.json", "hcharp": "hcharp.jsonl"},
                        valid.splits["valid"], counts["valid"])
    _accounted(result)
    assert [r["id"] for r in result.splits["echarp"]] == ["echarp:1", "echarp:4"]
    assert [r["id"] for r in result.splits["hcharp"]] == ["hcharp:1", "hcharp:4"]
    assert sorted((r["index"], r["reason"]) for r in result.rejects) == [
        (2, "row_idx_out_of_range"), (3, "row_idx_unusable_faithdial_turn"), (4, "duplicate_row_idx")]
    subset = result.splits[SUBSET_SPLIT]
    assert [r["id"] for r in subset] == ["faithdial:valid:1", "faithdial:valid:4"]
    assert all(r["split"] == SUBSET_SPLIT for r in subset)
    assert result.splits["hcharp"][0]["dialogue_id"] == "faithdial:valid:0"


def test_charp_files_with_different_row_idx_sets_fail(tmp_path):
    valid, counts = load_faithdial(FIXTURES / "faithdial", ["valid"])
    rows = json.loads((FIXTURES / "charp" / "echarp.json").read_text())
    (tmp_path / "e.json").write_text(json.dumps(rows[:2]))
    (tmp_path / "h.json").write_text(json.dumps(rows[:1]))
    with pytest.raises(PipelineError, match=r"do not hold the same row_idx set \(1 row_idx differ\)"):
        load_charp(tmp_path, {"echarp": "e.json", "hcharp": "h.json"}, valid.splits["valid"], counts["valid"])
