"""tasks/charp/probe_report.py: the finding paragraph follows the figures (judge drop with or without the automatic
metrics moving, no judge figures), the effects table prints every row with its interval, the judge table goes per
form, and the plot and metrics files are written."""
from __future__ import annotations

import numpy as np
import pytest

from tasks.charp.cells import Cell
from tasks.charp.probe_report import effects_table, finding, form_judge_tables, metric_value, plot_forms, probe_metrics


def _row(metric, easy, hard, ci, system="smollm2", train_h="full"):
    return {"system": system, "train_h": train_h, "metric": metric, "turns": 10, "easy": easy, "hard": hard,
            "diff": round(hard - easy, 4), "ci": ci, "p": 0.01}


FLAT = [_row("bleu", 10.0, 9.5, [-2.0, 1.0]), _row("bertscore_gold", 0.8, 0.79, [-0.03, 0.01]),
        _row("bertscore_knowledge", 0.7, 0.7, [-0.02, 0.02]), _row("critic", 0.1, 0.12, [-0.05, 0.09])]
JUDGE_DROP = _row("judge_correct", 0.9, 0.6, [-0.4, -0.2])


def test_judge_drop_without_metric_drop_reproduces_the_finding():
    text = finding([*FLAT, JUDGE_DROP], "echarp", "hcharp")
    assert "smollm2 (train h=full): the judge's correct share is 0.9 on echarp and 0.6 on hcharp" in text
    assert "finds history failures" in text and "Worse on hcharp as well: none" in text
    assert "The paper's finding holds here" in text


def test_metrics_that_move_with_the_judge_are_named():
    moved = [_row("bleu", 10.0, 5.0, [-7.0, -3.0]), *FLAT[1:3], _row("critic", 0.1, 0.4, [0.2, 0.4])]
    text = finding([*moved, JUDGE_DROP], "echarp", "hcharp")
    assert "Worse on hcharp as well: BLEU, Critic; no significant change: BERTScore gold, BERTScore knowledge." in text
    assert "The paper's finding holds for BERTScore gold, BERTScore knowledge only." in text
    everything = [_row(m, 1.0, 0.5, [-0.6, -0.4]) for m in ("bleu", "bertscore_gold", "bertscore_knowledge")]
    text = finding([*everything, _row("critic", 0.1, 0.4, [0.2, 0.4]), JUDGE_DROP], "echarp", "hcharp")
    assert "does not hold here: every automatic metric notices" in text


def test_no_judge_drop_and_no_judge_are_said_so():
    flat = [{**r, "system": "fewshot", "train_h": "none"} for r in FLAT]
    text = finding([*flat, _row("judge_correct", 0.8, 0.75, [-0.1, 0.02], system="fewshot", train_h="none")],
                   "echarp", "hcharp")
    assert text.startswith("fewshot: the judge's correct share is 0.8") and "finds no significant history" in text
    assert "paper's finding" not in text
    assert "no judge figures" in finding(FLAT, "echarp", "hcharp")
    assert finding([_row("judge_correct", 1.0, 0.5, [-0.6, -0.4], system="gold", train_h="none")], "e", "h") == ""


def test_effects_table_has_a_row_per_system_and_metric():
    table = effects_table([*FLAT, JUDGE_DROP], "echarp", "hcharp").splitlines()
    assert table[0] == "| system | metric | echarp | hcharp | hcharp - echarp [95% CI] | p | examples |"
    assert len(table) == 2 + 5
    assert table[-1] == ("| smollm2 (train h=full) | Judge: correct (category 1) | 0.9 | 0.6 | -0.3 [-0.4, -0.2] | "
                         "0.01 | 10 |")


def _scored(correct: list[float]) -> dict:
    cell = Cell("smollm2", "full", "full")
    return {"results": {cell: {"bleu": 3.0, "bleu_ci": [2.0, 4.0], "critic": 0.2, "critic_ci": [0.1, 0.3]}},
            "per_turn": {cell: {"judge_correct": correct}}, "judged": {cell: [[1]] * len(correct)},
            "judge_stats": {cell: {}}, "client_failures": {}}


def test_judge_tables_go_per_form_and_the_plot_is_written(tmp_path):
    scored = {"echarp": _scored([1.0, 1.0]), "hcharp": _scored([0.0, np.nan])}
    text = form_judge_tables(scored)
    assert "\necharp:\n" in text and "\nhcharp:\n" in text and "| category | smollm2 (train h=full) |" in text
    plot_forms(scored, tmp_path / "probe.png", seed=0)
    assert (tmp_path / "probe.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_judges_correct_share_comes_with_a_bootstrap_interval_over_its_judged_turns():
    cell = Cell("smollm2", "full", "full")
    value, ci = metric_value(_scored([1.0, 1.0, 0.0, np.nan]), cell, "judge_correct", seed=0)
    assert value == pytest.approx(2 / 3) and ci[0] < value < ci[1] and 0.0 <= ci[0] and ci[1] <= 1.0
    assert metric_value(_scored([1.0, 1.0, np.nan]), cell, "judge_correct", seed=0) == (1.0, [1.0, 1.0])
    assert metric_value(_scored([np.nan]), cell, "judge_correct", seed=0) is None
    assert metric_value(_scored([1.0]), cell, "bleu", seed=0) == (3.0, [2.0, 4.0])


def test_metrics_file_keys_systems_and_metrics():
    out = probe_metrics({"effects": [JUDGE_DROP, _row("bleu", 1.0, 1.0, None, system="fewshot", train_h="none")]},
                        {"examples": 10})
    assert out == {"examples": 10, "smollm2.train-h-full": {"judge_correct": {"easy": 0.9, "hard": 0.6, "diff": -0.3}},
                   "fewshot.train-h-none": {"bleu": {"easy": 1.0, "hard": 1.0, "diff": 0.0}}}
