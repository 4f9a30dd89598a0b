"""Strict rows: write_parquet refuses a row whose keys differ from the schema (naming file, row and
column, writing nothing); votes join their members on (evaluation set, id); the CHARP `Cell` key."""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from tasks.charp.cells import Cell
from tasks.detectors.run import run_vote
from tasks.errors import SchemaError
from tasks.io import write_parquet
from tasks.schemas import CHARP_PREDICTION
from tasks.scoring.eval_sets import EvalSet

ROW = {"id": "t1", "system": "smollm2", "train_h": "full", "eval_h": "0", "prediction": "Yes."}


def test_exact_rows_are_written(tmp_path):
    write_parquet([ROW, {**ROW, "id": "t2"}], CHARP_PREDICTION, tmp_path / "p.parquet")
    assert [r["id"] for r in pq.read_table(tmp_path / "p.parquet").to_pylist()] == ["t1", "t2"]


@pytest.mark.parametrize("bad, message", [
    ({k: v for k, v in ROW.items() if k != "prediction"}, r"p\.parquet: row 1: missing column 'prediction'$"),
    ({**ROW, "predicton": "typo"}, r"p\.parquet: row 1: column 'predicton' not in the schema$"),
    ({**{k: v for k, v in ROW.items() if k != "eval_h"}, "evalh": "0"},
     r"row 1: missing column 'eval_h'; column 'evalh' not in the schema$"),
])
def test_a_row_with_other_keys_is_an_error_naming_row_and_column(tmp_path, bad, message):
    with pytest.raises(SchemaError, match=message):
        write_parquet([ROW, bad], CHARP_PREDICTION, tmp_path / "p.parquet")
    assert list(tmp_path.iterdir()) == []


def _output(eval_set: str, detector: str, prediction: str) -> dict:
    return {"eval_set": eval_set, "id": "x", "detector": detector, "prediction": prediction}


def test_votes_join_members_on_eval_set_and_id():
    row = {"id": "x", "langpair": "en-fr", "type": "number", "source": "s", "hyp1": "a", "hyp2": "b", "label": "hyp1"}
    sets = [EvalSet(name, "pair", "translation", rows=[row]) for name in ("set-a", "set-b")]
    outputs = [_output("set-a", m, p) for m, p in (("m1", "hyp1"), ("m2", "hyp1"), ("m3", "hyp2"))]
    outputs += [_output("set-b", m, p) for m, p in (("m1", "hyp2"), ("m2", "hyp2"), ("m3", "hyp1"))]
    votes = {s.name: run_vote("vote", ["m1", "m2", "m3"], s, outputs) for s in sets}
    assert [(v["eval_set"], v["id"], v["prediction"]) for s in ("set-a", "set-b") for v in votes[s]] == [
        ("set-a", "x", "hyp1"), ("set-b", "x", "hyp2")]


def test_cell_string_form_round_trips():
    cell = Cell("smollm2", "full", 2)
    assert cell.eval_h == "2" and str(cell) == "smollm2.train-h-full.eval-h-2"
    assert Cell.parse(str(cell)) == cell and cell.file_stem == "train-h-full.eval-h-2"
    assert cell.gold() == Cell("gold", "none", "2")
    assert sorted([Cell("b", "0", "0"), Cell("a", "full", "2"), Cell("a", "3", "0")]) == [
        Cell("a", "3", "0"), Cell("a", "full", "2"), Cell("b", "0", "0")]


@pytest.mark.parametrize("bad", [("sys.x", "full", "0"), ("s", "", "0"), ("s", "full", "a/b")])
def test_cell_parts_that_would_break_its_name_are_refused(bad):
    with pytest.raises(ValueError, match="cell"):
        Cell(*bad)


def test_a_name_that_is_not_a_cell_is_refused():
    with pytest.raises(ValueError, match="not a cell name"):
        Cell.parse("smollm2|full|0")
