"""Scoring: metrics against hand-computed values, threshold tuning, results and reports from detector
outputs, evaluation-set loading with bad rows, and the nightly history comparison."""
from __future__ import annotations

import json

import pytest

from tasks.errors import InputError
from tasks.scoring.eval_sets import load_eval_sets, shroom
from tasks.scoring.history import append_history, compare, flatten, last_successful, read_history, regression_report
from tasks.scoring.metrics import binary_metrics, pair_metrics, pairwise_agreement, tune_threshold
from tasks.scoring.report import markdown, plot_confusions, plot_f1
from tasks.scoring.results import score_all


def test_pair_metrics_count_no_answer_as_wrong():
    m = pair_metrics(["hyp1", "hyp1", "hyp2", "hyp2", "hyp2"], ["hyp1", None, "hyp2", "hyp1", "hyp2"])
    # None -> hyp2 (wrong). hyp1: TP 1, FP 1, FN 1; hyp2: TP 2, FP 1, FN 1
    assert m["accuracy"] == 0.6 and m["no_answer"] == 1 and m["n"] == 5
    assert m["precision"] == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-4)
    assert m["recall"] == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-4)
    assert m["f1"] == pytest.approx((0.5 + 2 / 3) / 2, abs=1e-4)
    assert m["kappa"] == pytest.approx((0.6 - 0.52) / 0.48, abs=1e-4)  # po .6; pe .4*.4 + .6*.6


def test_binary_metrics_positive_class_is_hallucinated():
    m = binary_metrics([True, True, False, False], [True, False, True, False])
    assert (m["precision"], m["recall"], m["f1"], m["kappa"], m["mcc"]) == (0.5, 0.5, 0.5, 0.0, 0.0)
    m = binary_metrics([True, True, True, False], [True, True, False, False])
    assert (m["precision"], m["recall"]) == (1.0, pytest.approx(0.6667, abs=1e-4))


def test_pairwise_kappa_matches_hand_computation():
    a = dict(zip("abcde", ["hyp1", "hyp1", "hyp2", "hyp2", "hyp1"]))
    b = dict(zip("abcde", ["hyp1", "hyp2", "hyp2", "hyp2", "hyp1"]))
    out = pairwise_agreement({"x": a, "y": b})
    assert out["x"]["y"]["kappa"] == pytest.approx((0.8 - 0.48) / 0.52, abs=1e-4)  # po .8, pe .6*.4 + .4*.6
    assert out["x"]["y"]["n"] == 5 and out["y"]["x"] == out["x"]["y"]


def test_threshold_tuned_for_accuracy_lowest_first():
    assert tune_threshold([0.1, 0.4, 0.35, 0.8], [False, False, True, True]) == pytest.approx(0.225)


def _out(eval_set, det, i, gold, pred=None, s1=None, s2=None, lp="en"):
    return {"eval_set": eval_set, "id": str(i), "langpair": lp, "type": "t", "detector": det, "gold": gold,
            "prediction": pred, "score_1": s1, "score_2": s2, "answer": None}


def test_results_and_reports_from_detector_outputs(tmp_path):
    outputs = {
        "pairs": [_out("pairs", "a", 0, "hyp1", "hyp1", 0.9, 0.1),
                  _out("pairs", "a", 1, "hyp2", "hyp2", 0.2, 0.7, "sv"),
                  _out("pairs", "b", 0, "hyp1", None), _out("pairs", "b", 1, "hyp2", "hyp1", lp="sv")],
        "tune": [_out("tune", "a", i, g, s1=s) for i, (g, s) in enumerate([("hallucinated", 0.8), ("faithful", 0.2)])],
        "bin": [_out("bin", "a", i, g, s1=s) for i, (g, s) in enumerate([("hallucinated", 0.6), ("faithful", 0.4),
                                                                           ("hallucinated", 0.3)])],
    }
    params = {"threshold_tuning_set": "tune", "generation_proxy": "a", "generation_sets": {"pairs": "gen"}}
    res = score_all(outputs, params, {"a": "cross_encoder", "b": "llm_prompt"})
    assert res["thresholds"] == {"a": 0.5}
    pairs = res["detection"]["pairs"]
    assert pairs["a"]["all"]["f1"] == 1.0 and pairs["b"]["all"]["accuracy"] == 0.0
    assert res["binary"]["bin"]["a"]["all"]["recall"] == 0.5 and res["binary"]["bin"]["a"]["all"]["precision"] == 1.0
    assert res["generation"]["generators"]["gen (pairs)"]["en"] == {"n": 1, "hyp+": 1.0, "hyp-": 1.0}
    text = markdown(res, params)
    assert "| detector | en | sv |" in text and "| a | 1.00 | 1.00 |" in text
    plot_f1("pairs", res["detection"]["pairs"], tmp_path / "f1.png")
    plot_confusions("pairs", outputs["pairs"], res["thresholds"], tmp_path / "cm.png")
    assert (tmp_path / "f1.png").read_bytes()[:4] == b"\x89PNG" and (tmp_path / "cm.png").stat().st_size > 1000


def test_shroom_rows_with_bad_label_or_empty_text_are_counted(tmp_path):
    (tmp_path / "shroom").mkdir()
    rows = [{"hyp": "A cat.", "src": "Un chat.", "tgt": "A cat.", "ref": "either", "task": "MT",
             "label": "Not Hallucination"},
            {"hyp": "A dog.", "src": "x", "tgt": "The dog.", "ref": "tgt", "task": "DM", "label": "Hallucination"},
            {"hyp": "", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Hallucination"},
            {"hyp": "h", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Maybe"}]
    (tmp_path / "shroom" / "trial-v1.json").write_text(json.dumps(rows))
    s = shroom(tmp_path, "shroom-trial")
    assert s.tally.as_dict() == {"read": 4, "kept": 2, "rejected": 2,
                                 "rejected_by_reason": {"bad_label": 1, "empty_text": 1}}
    assert [(r["source"], r["label"]) for r in s.rows] == [("Un chat.", False), ("The dog.", True)]


def test_unknown_eval_set_and_missing_artifact_fail_with_names(tmp_path):
    with pytest.raises(InputError, match="unknown evaluation set 'nope'"):
        load_eval_sets(["nope"], tmp_path, 13)
    with pytest.raises(InputError, match="test.detection.parquet: file not found"):
        load_eval_sets(["hallucigen-paraphrase-test"], tmp_path, 13)


def test_history_compares_with_the_last_successful_run(tmp_path):
    path = tmp_path / "metrics.jsonl"
    assert last_successful(read_history(path)) is None
    append_history(path, {"started": "d1", "name": "r1", "status": "ok", "metrics": {"s/a/f1": 0.8, "s/b/f1": 0.5}})
    append_history(path, {"started": "d2", "name": "r2", "status": "regression", "metrics": {"s/a/f1": 0.1}})
    previous = last_successful(read_history(path))
    assert previous["name"] == "r1"
    rows = compare(previous["metrics"], flatten({"s": {"a": {"f1": 0.79}, "b": {"f1": 0.45}}}), 0.02)
    assert [(r["metric"], r["regression"]) for r in rows] == [("s/a/f1", False), ("s/b/f1", True)]
    rows = compare(previous["metrics"], {"s/a/f1": 0.8}, 0.02)
    assert rows[1]["current"] is None and rows[1]["regression"]  # a metric that disappeared
    report = regression_report(rows, previous, {"started": "d3", "name": "r3"}, 0.02)
    assert "**1 regression(s).**" in report and "| s/b/f1 | 0.5000 | missing | – |" in report
    assert "baseline" in regression_report([], None, {"started": "d1", "name": "r1"}, 0.02)
