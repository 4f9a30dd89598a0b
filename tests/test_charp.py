"""CHARP experiments: the judge's parsing over a real local HTTP server (canned completions, malformed
ones included, retries counted), agreement statistics against hand-computed values, the blind sheet's
round trip, the few-shot prompt and parsing, and a tiny train + generate + score run with SmolLM2."""
from __future__ import annotations

import csv

import numpy as np
import pytest

from tasks.charp import human_eval
from tasks.charp.cells import Cell
from tasks.charp.generate import fewshot_prompt, parse_response
from tasks.charp.judge import judge, judge_prompt, load_examples, parse_categories
from tasks.errors import InputError
from tasks.models.http import OpenAIChatClient
from tasks.params import ROOT
from tests.chat_server import ChatHandler, chat_server

TURN = {"id": "t1", "history": [{"speaker": "seeker", "text": "Is there a cheap hotel?"}],
        "knowledge": "The Alpha hotel is cheap. It has free parking.", "response": "Yes, the Alpha hotel is cheap."}


@pytest.mark.parametrize("answer, cats", [
    ('{"category": [1]}', [1]), ('Sure! {"category": [3, 5]} is my answer', [3, 5]), ('"category": [2]', [2]),
    ('{"category": 4}', [4]), ("[7]", [7]), ('{"category": [9]}', None), ("category one", None), ("", None),
    (None, None),
])
def test_parse_categories(answer, cats):
    assert parse_categories(answer) == cats


def test_judge_prompt_has_two_examples_per_category_and_the_input():
    examples = load_examples(ROOT / "tasks/charp/judge_examples.jsonl")
    prompt = judge_prompt(examples, TURN, "The Alpha hotel is cheap.")
    assert prompt.startswith("Your task is to assess the quality of a machine learning system's response")
    assert all(prompt.count(f'-> {{"category": [{c}]}}') == 2 for c in range(1, 8))
    assert prompt.rstrip().endswith('"prediction": "The Alpha hotel is cheap."}')


def test_bad_judge_example_file_names_the_row(tmp_path):
    bad = tmp_path / "ex.jsonl"
    bad.write_text('{"category": 1, "history": [], "knowledge": "k", "response": "r", "prediction": "p"}\nnot json\n')
    with pytest.raises(InputError, match="row 2"):
        load_examples(bad)


class Judge(ChatHandler):
    """Answers by the prediction: good JSON, prose around JSON, once malformed then fine, always malformed."""

    calls: dict[str, int] = {}
    auth: list[str] = []

    def reply(self, prompt: str):
        prediction = prompt.rsplit('"prediction": "', 1)[1].split('"')[0]
        Judge.calls[prediction] = Judge.calls.get(prediction, 0) + 1
        if prediction == "flaky" and Judge.calls[prediction] == 1:
            return self.completion("I think it is fine.")
        return self.completion({"good": '{"category": [1]}', "prose": 'Answer: {"category": [3, 5]}',
                                "flaky": '{"category": [2]}', "junk": "no idea"}[prediction])


def test_judge_over_http_retries_then_counts_unparsable():
    examples = load_examples(ROOT / "tasks/charp/judge_examples.jsonl")
    with chat_server(Judge) as url:
        client = OpenAIChatClient(url, "judge", api_key_env=None, retries=0)
        result, stats = judge([(TURN, p) for p in ("good", "prose", "flaky", "junk")], examples, client, retries=2)
    assert result == [[1], [3, 5], [2], None]
    assert stats == {"asked": 4, "retried": 3, "unparsable": 1}  # flaky once, junk twice
    assert Judge.calls == {"good": 1, "prose": 1, "flaky": 2, "junk": 3}


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


def test_fewshot_prompt_and_response_parsing():
    prompt = fewshot_prompt([TURN] * 3, TURN)
    assert prompt.startswith("You are given a chitchat conversation between a ``User'' and a ``Bot''.")
    assert prompt.count('Output: {"response": "Yes, the Alpha hotel is cheap."}') == 3 and prompt.endswith("Output:")
    assert parse_response('{"response": "It is cheap."}') == "It is cheap."
    assert parse_response("Sure: {``response'': ``It is cheap.''}") == "It is cheap."
    assert parse_response("It is cheap.") is None and parse_response(None) is None


def test_tiny_train_generate_and_score(tmp_path):
    """A few SmolLM2 training steps on four turns, beam-search generation, then every automatic metric."""
    from tasks.charp.generate import generate_beam
    from tasks.charp.metrics import bertscore_f1, bleu, critic_rate
    from tasks.charp.train import train_generator

    turns = [{**TURN, "id": f"t{k}", "response": r} for k, r in enumerate(
        ["Yes, the Alpha hotel is cheap.", "It has free parking.", "The Alpha is cheap.", "Parking is free there."])]
    params = {"seed": 13, "epochs": 1, "batch_size": 2, "max_length": 64, "learning_rate": 5e-5, "patience": 1}
    stats = train_generator(turns[:3], turns[3:], {"model": "smollm2", "arch": "causal"}, params, tmp_path)
    assert stats["train_turns"] == 3 and len(stats["epochs"]) == 1
    assert stats["epochs"][0]["valid_loss"] < stats["untrained_valid_loss"]  # it learned from three turns
    assert (tmp_path / "model.safetensors").is_file()
    preds = generate_beam(turns[:2], str(tmp_path), "causal",
                          {"batch_size": 2, "max_length": 128, "beam_size": 2, "max_new_tokens": 8})
    assert len(preds) == 2 and all(isinstance(p, str) for p in preds)
    gold = [t["response"] for t in turns[:2]]
    assert bleu(gold, gold) == 100.0 and bleu(["x y z"], ["a b c"]) < 5
    assert bertscore_f1(gold, gold, "minilm", 6) == pytest.approx(1.0, abs=1e-4)
    assert bertscore_f1(["Bananas."], ["The hotel is cheap."], "minilm", 6) < 0.9
    assert bertscore_f1(["", gold[1]], gold, "minilm", 6) == pytest.approx(0.5, abs=1e-4)  # empty scores 0
    rate = critic_rate([t["knowledge"] for t in turns[:2]], preds, {"model": "minilm", "hallucinated_label": 1})
    assert 0.0 <= rate <= 1.0


def test_charp_plot_gives_each_series_one_colour_in_every_panel():
    from tasks.charp.cells import Cell
    from tasks.charp.report import series_colours

    names = ["smollm2.train-h-full.eval-h-full", "smollm2.train-h-full.eval-h-0", "smollm2.train-h-2.eval-h-0",
             "fewshot.train-h-none.eval-h-0", "gold.train-h-none.eval-h-0"]
    colours = series_colours({Cell.parse(n): {} for n in names})
    assert list(colours) == [("fewshot", "none"), ("smollm2", "2"), ("smollm2", "full"), ("gold", "none")]
    assert len(set(colours.values())) == 4


def test_fewshot_answer_is_the_opened_json_string():
    from tasks.charp.generate import json_string_start

    assert json_string_start('The hotel is quiet."} trailing') == "The hotel is quiet."
    assert json_string_start("First line\nUser: next turn") == "First line"  # the turn boundary
    assert json_string_start('He said \\"hi\\" there"}') == 'He said "hi" there'
    assert json_string_start('"}') is None and json_string_start("  ") is None and json_string_start(None) is None


def test_control_knowledge_is_another_turns():
    from tasks.charp.scoring import mismatched

    knowledge = ["a", "a", "b", "c", "d", "e"]
    other = mismatched(knowledge)
    assert other == ["c", "d", "e", "a", "a", "b"] and all(o != k for o, k in zip(other, knowledge))
    assert mismatched(["same", "same"]) == ["same", "same"]  # nothing else to pair with


class ScoringClient:
    """A client that scores answers: the category whose number equals the prediction's length, mod 7, plus 1."""

    scores_answers = True

    def choose(self, prompts, options, prefix=""):
        assert options == [str(c) for c in range(1, 8)] and prefix == '{"category": ['
        picks = [len(p.rsplit('"prediction": "', 1)[1].split('"')[0]) % 7 for p in prompts]
        return [(k, [0.0 if i == k else -1.0 for i in range(7)]) for k in picks]


def test_judge_reads_a_category_for_every_prediction_from_scored_answers():
    examples = load_examples(ROOT / "tasks/charp/judge_examples.jsonl")
    result, stats = judge([(TURN, p) for p in ("", "ab", "abcdefgh")], examples, ScoringClient(), retries=2)
    assert result == [[1], [3], [2]] and stats == {"asked": 3, "retried": 0, "unparsable": 0}
