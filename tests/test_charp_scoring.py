"""CHARP scoring modules behind flows/charp_score.py: predictions joined to evaluation turns by cell, the
judge over a real local HTTP server per cell, the judge labels matched to sheet items and compared with
filled sheets, and the report text."""
from __future__ import annotations

import csv
import json
from functools import partial

import pytest

from tasks.charp import human_eval
from tasks.charp.cells import Cell, cells_with_turns, prediction_path
from tasks.charp.curves import curves_text, load_curves, plot_curves
from tasks.charp.judge import judge_items, load_examples
from tasks.charp.report import report_text
from tasks.charp.scoring import judge_cells, metrics_json, summary
from tasks.errors import InputError
from tasks.io import write_parquet
from tasks.models.http import OpenAIChatClient
from tasks.params import ROOT
from tasks.schemas import CHARP_PREDICTION, DIALOGUE_TURN
from tests.chat_server import ChatHandler, chat_server

PARAMS = {"eval_dataset": "dstc11", "dataset": "dstc11", "splits": {"train": "train", "eval": "test"},
          "subsets": {"eval": None}, "seed": 13, "metrics": {"critic": {"name": "critic X"}},
          "judge": {"method": "llm"}, "client": {"backend": "openai", "openai": {"model": "gpt-4-turbo"}}}


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
        examples = load_examples(ROOT / "tasks/charp/judge_examples.jsonl")
        judged, stats = judge_cells(cells, partial(judge_items, examples=examples, client=client, retries=0), 2)
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
    half = [0.0, 0.0, 50.0, 0.0, 50.0, 0.0, 0.0]  # judge rows 3 and 5: half their pairs meet human 3, half 5
    table = [[0.0] * 7, [0.0] * 7, half, [0.0] * 7, half, [0.0] * 7, [0.0] * 7]
    assert human == {"pairwise": {"ann1~ann2": 1.0}, "fleiss": 1.0, "judge_vs_human_kappa": 1.0, "judged_items": 2,
                     "judge_vs_human_table": table}
    assert (tmp_path / "heat.png").read_bytes()[:4] == b"\x89PNG"


def test_report_text_and_results_by_cell_name():
    full, gold = Cell("smollm2", "full", "full"), Cell("gold", "none", "full")
    results = {full: {"n": 2, "bleu": 12.5, "bertscore_gold": 0.5, "bertscore_knowledge": 0.25, "critic": 0.5},
               gold: {"n": 2, "bleu": None, "bertscore_gold": None, "bertscore_knowledge": 0.75, "critic": 0.0}}
    judged = {full: [[1], None]}
    history = {"deltas": [{"system": "smollm2", "train_h": "full", "metric": "critic", "turns": 2, "full": 0.5,
                           "0": 1.0, "diff": 0.5, "ci": [0.0, 1.0], "p": 0.5}],
               "judge_vs_critic": {"n": 1, "kappa": None, "judge_flags": 0, "critic_flags": 1}}
    curves = {"smollm2 (train h=full)": {"train_turns": 16, "valid_turns": 4, "untrained_valid_loss": 3.5,
                                         "epochs": [{"epoch": 1, "train_loss": 3.1, "valid_loss": 3.25, "best": True}]}}
    text = report_text(PARAMS, results, judged, {"pairwise": {"a~b": 0.5}, "judge_vs_human_kappa": 0.25}, history,
                       curves)
    lines = text.splitlines()
    assert lines[0] == "# CHARP experiments" and "Critic: critic X." in text
    assert "| smollm2 | full | 12.50 | 0.50 | 0.25 | 0.50 |" in lines
    assert "| gold | none | – | – | 0.75 | 0.00 |" in lines
    assert (lines.index("| smollm2 | full | 12.50 | 0.50 | 0.25 | 0.50 |")
            < lines.index("| gold | none | – | – | 0.75 | 0.00 |"))
    assert "| category | smollm2 (train h=full, eval h=full) |" in lines and "| 1 | 100% |" in lines
    assert "| unparsable | 1 |" in lines
    assert "LLM judge: the checklist prompt through openai model gpt-4-turbo." in lines
    assert "| smollm2 | full | Critic | 2 | 0.5 | 1.0 | 0.5 [0.0, 1.0] | 0.5 |" in lines
    assert "| smollm2 (train h=full) | 16 | 4 | 3.5 | 3.25 | 1 | 0.2500 |" in lines
    assert "over 1 judged predictions" in text and "): –; the judge flags 0, the critic 1." in text
    assert lines[-1] == "Cohen's kappa: {'a~b': 0.5}; Fleiss' kappa: –; judge vs human: 0.25."
    assert metrics_json(results) == {
        "smollm2.train-h-full.eval-h-full": results[full],
        "gold.train-h-none.eval-h-full": {"n": 2, "bertscore_knowledge": 0.75, "critic": 0.0}}
    s = summary(results, judged, {full: {"asked": 2, "retried": 0, "unparsable": 1}}, {"timeout": 1}, history)
    assert s["history_deltas"] == history["deltas"] and s["judge_vs_critic"] == history["judge_vs_critic"]
    assert s["judge"] == {"smollm2.train-h-full.eval-h-full": {"categories": {"1": 1}, "asked": 2, "retried": 0,
                                                                "unparsable": 1}}
    assert s["judge_client_failures"] == {"timeout": 1} and set(s["cells"]) == set(metrics_json(results))


def test_history_delta_pairs_turns_by_id_and_bleu_resamples_corpus_bleu():
    import sacrebleu

    from tasks.charp.history import bleu_from_statistics, bleu_statistics, history_deltas

    gold = ["the hotel has free parking for guests", "the museum opens at nine every day",
            "trains leave the station every hour", "the pool is heated all year round"]
    wrong = ["I like green apples very much", "what a lovely day it is", "no idea sorry", "bananas are yellow"]
    stats = bleu_statistics(wrong[:2] + gold[2:], gold)
    assert bleu_from_statistics(stats.sum(0))[0] == pytest.approx(sacrebleu.corpus_bleu(wrong[:2] + gold[2:],
                                                                                         [gold]).score)
    ids = ["a", "b", "c", "d"]
    full = {"ids": ids, "bleu": bleu_statistics(gold, gold), "bertscore_gold": [0.9, 0.8, 0.9, 0.8],
            "critic": [0, 0, 0, 0]}
    rev = ids[::-1]  # the h=0 cell lists the same turns in another order
    zero = {"ids": rev, "bleu": bleu_statistics(wrong[::-1], gold[::-1]), "bertscore_gold": [0.5, 0.5, 0.4, 0.4],
            "critic": [1, 1, 1, 1]}
    rows = {r["metric"]: r for r in history_deltas({Cell("s", "full", "full"): full, Cell("s", "full", "0"): zero,
                                                    Cell("gold", "none", "0"): {"ids": ids, "critic": [0] * 4}}, 13)}
    assert set(rows) == {"bleu", "bertscore_gold", "critic"}  # the gold cell is no system
    assert rows["critic"] == {"system": "s", "train_h": "full", "metric": "critic", "turns": 4, "full": 0.0,
                                   "0": 1.0, "diff": 1.0, "ci": [1.0, 1.0], "p": 0.0}
    low_bleu = round(sacrebleu.corpus_bleu(wrong, [gold]).score, 4)
    assert rows["bleu"]["full"] == 100.0 and rows["bleu"]["0"] == low_bleu < 5
    assert rows["bleu"]["diff"] == pytest.approx(low_bleu - 100) and rows["bleu"]["ci"][1] < -90
    # paired by id: a = 0.4 (h=0) against 0.9, b = 0.4 against 0.8, c = d = 0.5 against 0.9 / 0.8
    assert rows["bertscore_gold"]["diff"] == pytest.approx(-0.4) and rows["bertscore_gold"]["0"] == 0.45
    lo, hi = rows["bertscore_gold"]["ci"]
    assert -0.5 <= lo < -0.4 < hi <= -0.3


def test_judge_critic_kappa_by_hand_and_cell_intervals():
    import numpy as np

    from tasks.charp.history import cell_intervals, history_deltas, judge_critic_kappa, judge_flags

    assert judge_flags([[1], [3, 7], None], 4)[:2] == [0.0, 1.0] and np.isnan(judge_flags([None], 2)).all()
    judged = {"ids": ["a", "b", "c", "d"], "critic": [1, 0, 0, 1], "judge": judge_flags([[6], [1], [2], None], 4)}
    # pairs (1,1) (0,0) (1,0): po 2/3; judge 2/3 and critic 1/3 flagged: pe 4/9; kappa (2/9) / (5/9)
    assert judge_critic_kappa({Cell("s", "full", "0"): judged}) == {"n": 3, "kappa": 0.4, "judge_flags": 2,
                                                                     "critic_flags": 1}
    same = {"ids": ["a", "b"], "critic": [1, 1], "judge": judge_flags([[7], [7]], 2)}
    assert judge_critic_kappa({Cell("s", "full", "0"): same})["kappa"] is None  # both constant: 0/0
    rows = history_deltas({Cell("s", "full", "full"): {**judged, "critic": [1] * 4, "judge": judge_flags([[1]], 4)},
                           Cell("s", "full", "0"): judged}, 13)
    assert [(r["metric"], r["turns"], r["diff"]) for r in rows] == [("critic", 4, -0.5), ("judge", 1, 1.0)]
    ci = cell_intervals({Cell("s", "full", "0"): {"ids": ["a", "b", "c", "d"], "critic": [1, 1, 1, 1],
                                                  "bertscore_gold": [0.2, 0.4, 0.6, 0.8]}}, 13)
    (only,) = ci.values()
    assert only["critic_ci"] == [1.0, 1.0] and 0.2 <= only["bertscore_gold_ci"][0] < 0.5 < only["bertscore_gold_ci"][1]


def test_learning_curves_from_the_training_metrics(tmp_path):
    epochs = [{"epoch": 1, "train_loss": 3.0, "valid_loss": 3.2, "best": False},
              {"epoch": 2, "train_loss": 2.5, "valid_loss": 3.1, "best": True}]
    for name, untrained in (("train.smollm2.h-full.json", 3.6), ("train.flan-t5.h-2.json", None)):
        stats = {"train_turns": 8, "valid_turns": 2, "epochs": epochs}
        (tmp_path / name).write_text(json.dumps(stats | ({"untrained_valid_loss": untrained} if untrained else {})))
    (tmp_path / "generate.smollm2.train-h-full.eval-h-0.json").write_text("{}")
    curves = load_curves(tmp_path)
    assert list(curves) == ["flan-t5 (train h=2)", "smollm2 (train h=full)"]
    text = curves_text(curves)
    assert "| smollm2 (train h=full) | 8 | 2 | 3.6 | 3.1 | 2 | 0.5000 |" in text.splitlines()
    assert "| flan-t5 (train h=2) | 8 | 2 | – | 3.1 | 2 | – |" in text.splitlines()
    plot_curves(curves, tmp_path / "curves.png")
    assert (tmp_path / "curves.png").read_bytes()[:4] == b"\x89PNG"


def test_a_training_record_without_the_best_epoch_names_its_file(tmp_path):
    record = {"train_turns": 8, "valid_turns": 2, "epochs": [{"epoch": 1, "train_loss": 3.0, "valid_loss": 3.2}]}
    (tmp_path / "train.smollm2.h-full.json").write_text(json.dumps(record))
    with pytest.raises(InputError, match=r"train\.smollm2\.h-full\.json: epochs\[0\] has no 'best'"):
        load_curves(tmp_path)
    (tmp_path / "train.smollm2.h-full.json").write_text(json.dumps(record | {"epochs": []}))
    with pytest.raises(InputError, match=r"epochs\[0\] has no 'epoch'"):
        load_curves(tmp_path)
