"""tasks/charp/cells.py: predictions joined to evaluation turns by cell and id, and the `Cell` key's string
form."""
from __future__ import annotations

import pytest

from tasks.charp.cells import Cell, cells_with_turns
from tasks.errors import InputError
from tests.charp.helpers import PARAMS, _predictions


def test_predictions_join_their_turns_by_cell_and_id(data):
    cells = cells_with_turns(data, PARAMS)
    assert sorted(cells) == [Cell("fewshot", "none", "0"), Cell("smollm2", "full", "full")]
    turns, preds = cells[Cell("smollm2", "full", "full")]
    assert [t["id"] for t in turns] == ["t2", "t0", "t1"] and preds == ["p-t2", "p-t0", "p-t1"]
    assert [len(t["history"]) for t in turns] == [1, 1, 1]
    turns, preds = cells[Cell("fewshot", "none", "0")]
    assert [t["id"] for t in turns] == ["t1", "t0"] and [t["history"] for t in turns] == [[], []]


def test_a_prediction_for_an_unknown_turn_names_the_file(data):
    _predictions(data, Cell("smollm2", "full", "0"), ["t0", "t9"])
    with pytest.raises(InputError, match=r"smollm2/train-h-full\.eval-h-0\.parquet: prediction for turn 't9'"):
        cells_with_turns(data, PARAMS)


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
