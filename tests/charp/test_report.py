"""tasks/charp/report.py: the report text and results by cell name, and one colour per series in the plot."""
from __future__ import annotations

from tasks.charp.cells import Cell
from tasks.charp.grid_scores import metrics_json, summary
from tasks.charp.report import report_text
from tests.charp.helpers import PARAMS


def test_charp_plot_gives_each_series_one_colour_in_every_panel():
    from tasks.charp.cells import Cell
    from tasks.charp.report import series_colours

    names = ["smollm2.train-h-full.eval-h-full", "smollm2.train-h-full.eval-h-0", "smollm2.train-h-2.eval-h-0",
             "fewshot.train-h-none.eval-h-0", "gold.train-h-none.eval-h-0"]
    colours = series_colours({Cell.parse(n): {} for n in names})
    assert list(colours) == [("fewshot", "none"), ("smollm2", "2"), ("smollm2", "full"), ("gold", "none")]
    assert len(set(colours.values())) == 4


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
