"""tasks/charp/human_eval.py: agreement statistics against hand-computed values and the blind sheet's round
trip."""
from __future__ import annotations

import csv

import numpy as np
import pytest

from tasks.charp import human_eval
from tasks.charp.cells import Cell
from tasks.errors import InputError
from tests.charp.helpers import TURN


def test_cohen_kappa_over_checklist_decisions_by_hand():
    a = {"i1": frozenset({1}), "i2": frozenset({3})}
    b = {"i1": frozenset({1}), "i2": frozenset({5})}
    # 14 decisions, 2 disagree: po 12/14; both tick 2 of 14: pe (2/14)^2 + (12/14)^2
    assert human_eval.cohen(a, b) == pytest.approx(20 / 48, abs=1e-4)


def test_fleiss_kappa_by_hand():
    counts = np.array([[3, 0], [0, 3], [2, 1], [1, 2]])
    assert human_eval.fleiss(counts) == pytest.approx(1 / 3, abs=1e-4)  # P 2/3, Pe 1/2


def test_sheet_round_trip_agreement_and_heatmap(tmp_path):
    items = [{"cell": Cell(s, "full", h), "turn": {**TURN, "id": f"t{k}"}, "prediction": f"p{k}"}
             for k, (s, h) in enumerate([("a", "0"), ("b", "0"), ("a", "2"), ("b", "2")])]
    human_eval.export_sheet(items, 13, tmp_path / "sheet.csv", tmp_path / "key.csv")
    sheet = list(csv.DictReader(open(tmp_path / "sheet.csv", encoding="utf-8")))
    assert "system" not in sheet[0] and all(r[c] == "" for r in sheet for c in human_eval.CATS)
    key = (tmp_path / "key.csv").read_text()
    assert "a.train-h-full.eval-h-0" not in (tmp_path / "sheet.csv").read_text()
    assert "a,a.train-h-full.eval-h-0,t0" in key
    filled = {}
    for name, ticks in (("ann1", ["1", "3", "1", "1"]), ("ann2", ["1", "3", "1", "5"]), ("ann3", ["1", "3", "2", "5"])):
        path = tmp_path / f"{name}.csv"
        with open(path, "w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, human_eval.SHEET_FIELDS)
            w.writeheader()
            for row, tick in zip(sheet, ticks):
                w.writerow({**row, f"cat_{tick}": "x"})
        filled[name] = human_eval.read_sheet(path)
    agree = human_eval.agreement(filled)
    # 28 (item, category) decisions. ann1~ann2: 4 ticks each, 2 disagreements: po 26/28, pe 592/784 -> 17/24.
    # Fleiss: 24 unanimous decisions (P 1) and 4 split 2:1 (P 1/3): P 19/21; 12 ticks of 84: Pe 37/49 -> 11/18.
    assert set(agree["pairwise"]) == {"ann1~ann2", "ann1~ann3", "ann2~ann3"}
    assert agree["pairwise"]["ann1~ann2"] == round(17 / 24, 4) and agree["fleiss"] == round(11 / 18, 4)
    humans = human_eval.majority(filled)
    assert [humans[r["item"]] for r in sheet] == [{1}, {3}, {1}, {5}]
    table = human_eval.contingency(humans, humans)
    assert np.allclose(np.diag(table)[[0, 2, 4]], 100)
    human_eval.plot_heatmap(table, "t", tmp_path / "h.png")
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"


def test_unticked_or_duplicate_sheet_rows_are_errors(tmp_path):
    path = tmp_path / "s.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, human_eval.SHEET_FIELDS)
        w.writeheader()
        w.writerow({"item": "x1", "cat_1": "1"})
        w.writerow({"item": "x2"})
    with pytest.raises(InputError, match="row 3: item x2 has no category ticked"):
        human_eval.read_sheet(path)
