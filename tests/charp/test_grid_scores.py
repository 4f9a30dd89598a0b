"""tasks/charp/grid_scores.py: the judge per cell over a real local HTTP server, its labels matched to sheet
items and compared with filled sheets; the control knowledge of another turn."""
from __future__ import annotations

import csv
from functools import partial

from tasks.charp import human_eval
from tasks.charp.cells import Cell, cells_with_turns
from tasks.charp.grid_scores import judge_cells
from tasks.charp.judge import judge_items, load_examples
from tasks.models.http import OpenAIChatClient
from tasks.params import ROOT
from tests.charp.helpers import PARAMS
from tests.chat_server import ChatHandler, chat_server


def test_control_knowledge_is_another_turns():
    from tasks.charp.grid_scores import mismatched

    knowledge = ["a", "a", "b", "c", "d", "e"]
    other = mismatched(knowledge)
    assert other == ["c", "d", "e", "a", "a", "b"] and all(o != k for o, k in zip(other, knowledge))
    assert mismatched(["same", "same"]) == ["same", "same"]  # nothing else to pair with


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


def test_scoring_a_grid_loads_each_model_once(data, tmp_path, monkeypatch):
    """charp_score's two steps, the metrics (BERTScore twice per cell, the e5-head critic four times) and the rubric
    judge (MiniLM, spaCy), load MiniLM, e5 and spaCy once each; transformers reads MiniLM's weights once."""
    import numpy as np
    from transformers import AutoModel

    from tasks.charp.grid_scores import cell_metrics, judge_grid
    from tasks.detectors.learned import fit_head, pair_features, save_head
    from tasks.models.loaded import LOADS, forget_all
    from tasks.models.registry import model_path
    from tasks.params import load_params

    x = pair_features("e5", ["a cat", "a dog", "a car", "a bus"], ["a cat", "two dogs", "a car", "a red bus"])
    save_head({"encoder": "e5", "int8": False, **fit_head(x, np.array([0, 1, 0, 1]), 1.0, 13)}, tmp_path / "critic")
    charp = load_params("charp")
    params = {**PARAMS, "metrics": {**charp["metrics"], "critic": {"model": str(tmp_path / "critic")}},
              "judge": {**charp["judge"], "max_per_cell": None}}
    cells = cells_with_turns(data, params)
    forget_all()
    before, reads, real = LOADS.copy(), [], AutoModel.from_pretrained.__func__
    monkeypatch.setattr(AutoModel, "from_pretrained", classmethod(lambda cls, *a, **k: reads.append(a[0])
                                                                  or real(cls, *a, **k)))
    results, _ = cell_metrics(cells, params["metrics"], params["seed"])
    judged, _, _ = judge_grid(cells, params, ROOT)
    assert {k[0]: v for k, v in (LOADS - before).items()} == {
        "load_encoder": 1, "bertscore_tokenizer": 1, "engine_pool": 1, "load_english": 1}
    assert reads == [model_path("minilm")]
    assert len(judged) == 2 and results[Cell("smollm2", "full", "full")]["n"] == 3
