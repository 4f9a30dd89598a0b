"""CHARP scoring modules behind flows/charp_score.py: predictions joined to evaluation turns by cell, the
judge over a real local HTTP server per cell, the judge labels matched to sheet items and compared with
filled sheets, and the report text."""
from __future__ import annotations

import csv

import pytest

from tasks.charp import human_eval
from tasks.charp.cells import Cell, cells_with_turns, prediction_path
from tasks.charp.judge import load_examples
from tasks.charp.report import report_text
from tasks.charp.scoring import judge_cells, metrics_json, summary
from tasks.errors import InputError
from tasks.io import write_parquet
from tasks.models.http import OpenAIChatClient
from tasks.params import ROOT
from tasks.schemas import CHARP_PREDICTION, DIALOGUE_TURN
from tests.chat_server import ChatHandler, chat_server

PARAMS = {"eval_dataset": "dstc11", "dataset": "dstc11", "splits": {"train": "train", "eval": "test"},
          "subsets": {"eval": None}, "seed": 13, "metrics": {"critic": {"name": "critic X"}}}


def _turn(k: int, h: str) -> dict:
    history = [{"speaker": "seeker", "text": f"question {k}"}] if h == "full" else []
    return {"id": f"t{k}", "split": "test", "dialogue_id": f"d{k}", "history": history, "knowledge": f"knowledge {k}",
            "response": f"response {k}", "original_response": None, "begin": None, "vrm": None, "fine_label": None,
            "faithful": None, "provenance": {"source": "dstc11", "file": "f", "index": k}}


def _predictions(data, cell: Cell, ids: list[str]) -> None:
    rows = [{"id": i, "system": cell.system, "train_h": cell.train_h, "eval_h": cell.eval_h, "prediction": f"p-{i}"}
            for i in ids]
    write_parquet(rows, CHARP_PREDICTION, prediction_path(data, cell))


@pytest.fixture
def data(tmp_path):
    for h in ("full", "0"):
        write_parquet([_turn(k, h) for k in range(3)], DIALOGUE_TURN, tmp_path / f"dialogue/dstc11/test/h-{h}.parquet")
    _predictions(tmp_path, Cell("smollm2", "full", "full"), ["t2", "t0", "t1"])
    _predictions(tmp_path, Cell("fewshot", "none", "0"), ["t1", "t0"])
    return tmp_path


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


class Judge(ChatHandler):
    def reply(self, prompt):
        return self.completion('{"category": [1]}' if '"prediction": "p-t0"' in prompt.rsplit("evaluate", 1)[1]
                               else '{"category": [3, 5]}')


def test_judge_labels_per_cell_meet_the_sheet_items(data, tmp_path):
    cells = cells_with_turns(data, PARAMS)
    with chat_server(Judge) as url:
        client = OpenAIChatClient(url, "judge", api_key_env=None, retries=0)
        judged, stats = judge_cells(cells, load_examples(ROOT / "tasks/charp/judge_examples.jsonl"), client, 2, 0)
    assert judged == {Cell("smollm2", "full", "full"): [[3, 5], [1]], Cell("fewshot", "none", "0"): [[3, 5], [1]]}
    assert stats[Cell("smollm2", "full", "full")] == {"asked": 2, "retried": 0, "unparsable": 0}
    items = human_eval.sheet_items(cells, 1)
    assert [(str(it["cell"]), it["turn"]["id"], it["pos"]) for it in items] == [
        ("fewshot.train-h-none.eval-h-0", "t1", 0), ("smollm2.train-h-full.eval-h-full", "t2", 0)]
    by_item = human_eval.judge_labels(items, judged)
    assert by_item == {human_eval.item_id(it["cell"], it["turn"]["id"]): {3, 5} for it in items}
    human_eval.export_sheet(items, 13, tmp_path / "sheet.csv", tmp_path / "key.csv")
    with open(tmp_path / "sheet.csv", encoding="utf-8") as fh:
        sheet = list(csv.DictReader(fh))
    sheets = {}
    for name in ("ann1", "ann2"):
        path = tmp_path / f"{name}.csv"
        with open(path, "w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, human_eval.SHEET_FIELDS)
            w.writeheader()
            for row in sheet:
                w.writerow({**row, "cat_3": "x", "cat_5": "x"})
        sheets[name] = path
    human = human_eval.compare_with_humans(items, judged, sheets, tmp_path / "heat.png")
    assert human == {"pairwise": {"ann1~ann2": 1.0}, "judge_vs_human_kappa": 1.0, "judged_items": 2}
    assert (tmp_path / "heat.png").read_bytes()[:4] == b"\x89PNG"


def test_report_text_and_results_by_cell_name():
    full, gold = Cell("smollm2", "full", "full"), Cell("gold", "none", "full")
    results = {full: {"n": 2, "bleu": 12.5, "bertscore_gold": 0.5, "bertscore_knowledge": 0.25, "critic": 0.5},
               gold: {"n": 2, "bleu": None, "bertscore_gold": None, "bertscore_knowledge": 0.75, "critic": 0.0}}
    judged = {full: [[1], None]}
    text = report_text(PARAMS, results, judged, {"pairwise": {"a~b": 0.5}, "judge_vs_human_kappa": 0.25})
    lines = text.splitlines()
    assert lines[0] == "# CHARP experiments" and "Critic: critic X." in text
    assert "| smollm2 | full | 12.50 | 0.50 | 0.25 | 0.50 |" in lines
    assert "| gold | none | – | – | 0.75 | 0.00 |" in lines
    assert (lines.index("| smollm2 | full | 12.50 | 0.50 | 0.25 | 0.50 |")
            < lines.index("| gold | none | – | – | 0.75 | 0.00 |"))
    assert "| category | smollm2 (train h=full, eval h=full) |" in lines and "| 1 | 100% |" in lines
    assert "| unparsable | 1 |" in lines
    assert lines[-1] == "Cohen's kappa: {'a~b': 0.5}; Fleiss' kappa: –; judge vs human: 0.25."
    assert metrics_json(results) == {
        "smollm2.train-h-full.eval-h-full": results[full],
        "gold.train-h-none.eval-h-full": {"n": 2, "bertscore_knowledge": 0.75, "critic": 0.0}}
    s = summary(results, judged, {full: {"asked": 2, "retried": 0, "unparsable": 1}}, {"timeout": 1})
    assert s["judge"] == {"smollm2.train-h-full.eval-h-full": {"categories": {"1": 1}, "asked": 2, "retried": 0,
                                                                "unparsable": 1}}
    assert s["judge_client_failures"] == {"timeout": 1} and set(s["cells"]) == set(metrics_json(results))
