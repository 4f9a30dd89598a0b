"""Scoring: metrics against hand-computed values, threshold tuning, results and reports from detector
outputs, evaluation-set loading with bad rows, and the nightly history comparison."""
from __future__ import annotations

import json
import math

import pytest

from tasks.errors import InputError
from tasks.scoring.ensemble import in_tuning_part
from tasks.scoring.eval_sets import load_eval_sets, shroom
from tasks.scoring.history import append_history, compare, flatten, last_successful, read_history, regression_report
from tasks.scoring.metrics import binary_metrics, pair_metrics, pairwise_agreement, tune_threshold
from tasks.scoring.report import f1_bars, markdown, plot_confusions, plot_f1
from tasks.scoring.results import score_all

BOOT = {"resamples": 200, "seed": 13}
ENSEMBLE = {"enabled": True, "members": ["a", "b", "c"], "split_set": "val", "tuning_fraction": 0.5, "c": 1.0,
            "seed": 13}


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
    params = {"threshold_tuning_set": "tune", "generation_proxy": "a", "generation_sets": {"pairs": "gen"},
              "bootstrap": BOOT, "ensemble": {**ENSEMBLE, "enabled": False}}
    res = score_all(outputs, params, {"a": "cross_encoder", "b": "llm_prompt"})
    assert res["thresholds"] == {"a": 0.5}
    pairs = res["detection"]["pairs"]
    assert pairs["a"]["all"]["f1"] == 1.0 and pairs["b"]["all"]["accuracy"] == 0.0
    assert res["binary"]["bin"]["a"]["all"]["recall"] == 0.5 and res["binary"]["bin"]["a"]["all"]["precision"] == 1.0
    assert res["generation"]["generators"]["gen (pairs)"]["en"] == {"n": 1, "hyp+": 1.0, "hyp-": 1.0}
    text = markdown(res, params)
    assert "| detector | en | sv |" in text and "| a | 1.00 [1.00, 1.00] | 1.00 [1.00, 1.00] |" in text
    plot_f1("pairs", res["detection"]["pairs"], tmp_path / "f1.png")
    plot_confusions("pairs", outputs["pairs"], res["thresholds"], tmp_path / "cm.png")
    assert (tmp_path / "f1.png").read_bytes()[:4] == b"\x89PNG" and (tmp_path / "cm.png").stat().st_size > 1000


def test_f1_bars_carry_the_bootstrap_interval():
    dets = {"x": {"en": {"f1": 0.6, "ci": {"f1": [0.4, 0.7]}}}, "y": {"en": {"f1": 0.5, "ci": {"f1": None}}}, "z": {}}
    vals, (below, above) = f1_bars(dets, "en")
    assert vals == [0.6, 0.5, 0.0]
    assert below == pytest.approx([0.2, 0.0, 0.0]) and above == pytest.approx([0.1, 0.0, 0.0])


def test_shroom_rows_with_bad_label_or_empty_text_are_counted(tmp_path):
    (tmp_path / "shroom").mkdir()
    rows = [{"hyp": "A cat.", "src": "Un chat.", "tgt": "A cat.", "ref": "either", "task": "MT",
             "label": "Not Hallucination"},
            {"hyp": "A dog.", "src": "x", "tgt": "The dog.", "ref": "tgt", "task": "DM", "label": "Hallucination"},
            {"hyp": "", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Hallucination"},
            {"hyp": "h", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Maybe"},
            {"hyp": "h", "src": "x", "tgt": "y", "ref": "src", "task": "PG", "label": "Hallucination",
             "p(Hallucination)": float("nan")}]
    rows[1]["p(Hallucination)"] = 0.8
    (tmp_path / "shroom" / "trial-v1.json").write_text(json.dumps(rows))
    s = shroom(tmp_path, "shroom-trial")
    assert s.tally.as_dict() == {"read": 5, "kept": 2, "rejected": 3,
                                 "rejected_by_reason": {"bad_label": 1, "empty_text": 1, "bad_p_hallucination": 1}}
    assert [r["p_hallucination"] for r in s.rows] == [None, 0.8]
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


def test_auroc_and_spearman_match_hand_computation():
    from sklearn.metrics import roc_auc_score

    from tasks.scoring.intervals import auroc, spearman

    gold, scores = [True, False, True, False], [0.9, 0.8, 0.4, 0.1]
    assert auroc(gold, scores)[0] == pytest.approx(0.75)  # pos > neg in 3 of the 4 pairs
    assert auroc([True, False, False], [0.5, 0.5, 0.1])[0] == pytest.approx(0.75)  # a tie counts one half
    assert auroc(gold, scores)[0] == pytest.approx(roc_auc_score(gold, scores))
    assert math.isnan(auroc([True, True], [0.1, 0.2])[0])
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4])[0] == pytest.approx(0.8)  # 1 - 6 * 2 / (4 * 15)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1])[0] == pytest.approx(-1.0)


def test_confusion_metrics_for_all_resamples_match_hand_computation_and_sklearn():
    from tasks.scoring.intervals import confusion_metrics

    gold = [True, True, False, False, False]
    pred = [True, False, True, False, False]  # tp 1, fn 1, fp 1, tn 2
    m = {k: float(v[0]) for k, v in confusion_metrics(gold, pred, macro=False).items()}
    assert m == pytest.approx({"accuracy": 0.6, "precision": 0.5, "recall": 0.5, "f1": 0.5, "mcc": 1 / 6,
                               "kappa": 1 / 6})
    macro = {k: float(v[0]) for k, v in confusion_metrics(gold, pred, macro=True).items()}
    assert macro["f1"] == pytest.approx((0.5 + 2 / 3) / 2) and macro["precision"] == pytest.approx((0.5 + 2 / 3) / 2)
    g = ["hyp1" if x else "hyp2" for x in gold]
    p = ["hyp1" if x else "hyp2" for x in pred]
    assert macro["f1"] == pytest.approx(pair_metrics(g, p)["f1"], abs=1e-4)
    assert m["kappa"] == pytest.approx(binary_metrics(gold, pred)["kappa"], abs=1e-4)
    assert float(confusion_metrics([True, False], [True, False], macro=False)["mcc"][0]) == 1.0  # identical
    assert float(confusion_metrics([True, True], [True, False], macro=False)["mcc"][0]) == 0.0  # constant gold


def test_interval_and_paired_test_match_hand_computation():
    import numpy as np

    from tasks.scoring.intervals import interval, paired_test

    assert interval(np.arange(1, 101, dtype=float)) == [3.475, 97.525]  # numpy's linear percentiles
    assert interval(np.array([np.nan, np.nan])) is None
    a = np.array([0.8, 0.7, 0.9, 0.6, 0.8])  # index 0: the full sample, then four resamples
    b = np.array([0.6, 0.6, 0.6, 0.7, 0.6])
    # differences 0.2 | 0.1, 0.3, -0.1, 0.2: one resample of four has the other sign, p = 2 * 1/4
    assert paired_test(a, b) == {"diff": 0.2, "ci": [-0.085, 0.2925], "p": 0.5}
    assert paired_test(b, a)["p"] == 0.5 and paired_test(b, a)["diff"] == -0.2


def test_binary_sets_get_auroc_spearman_intervals_and_paired_tests():
    gold = ["hallucinated", "faithful"] * 10
    p_hall = [0.8, 0.2] * 10
    rows = [{**_out("bin", det, i, g, s1=(0.9 if g == "hallucinated" else 0.1) if det == "good" else
                     (0.1 if g == "hallucinated" else 0.9)), "p_hallucination": p}
            for det in ("good", "bad") for i, (g, p) in enumerate(zip(gold, p_hall))]
    tune = [_out("tune", det, i, g, s1=s) for det in ("good", "bad")
            for i, (g, s) in enumerate([("hallucinated", 0.8), ("faithful", 0.2)])]
    params = {"threshold_tuning_set": "tune", "generation_proxy": "none", "generation_sets": {}, "bootstrap": BOOT,
              "ensemble": {**ENSEMBLE, "enabled": False}}
    res = score_all({"bin": rows, "tune": tune}, params, {"good": "similarity", "bad": "similarity"})
    good, bad = res["binary"]["bin"]["good"]["all"], res["binary"]["bin"]["bad"]["all"]
    assert (good["auroc"], bad["auroc"], good["spearman"], bad["spearman"]) == (1.0, 0.0, 1.0, -1.0)
    assert good["ci"]["auroc"] == [1.0, 1.0] and good["ci"]["accuracy"] == [1.0, 1.0]
    assert bad["ci"]["accuracy"] == [0.0, 0.0]
    assert res["paired"]["bin"] == {"bad vs good": {"n": 20, "metric": "auroc", "diff": -1.0, "ci": [-1.0, -1.0],
                                                   "p": 0.0}}
    text = markdown(res, params)
    assert "| good | 20 | 1.00 [1.00, 1.00] |" in text
    assert "| bad vs good | 20 | auroc | -1.000 | [-1.000, -1.000] | 0.000 |" in text


def test_f1_levels_chance_and_majority_are_exact():
    from tasks.scoring.baselines import f1_levels, set_gold

    assert f1_levels(["hyp1", "hyp2"] * 5, pair=True) == {"chance": 0.5, "majority": 0.3333}
    assert f1_levels(["hyp1"] * 3 + ["hyp2"], pair=True) == {"chance": 0.4667, "majority": 0.4286}
    assert f1_levels(["hallucinated"] + ["faithful"] * 3, pair=False) == {"chance": 0.3333, "majority": 0.0}
    assert f1_levels(["hallucinated"] * 3 + ["faithful"], pair=False) == {"chance": 0.6, "majority": 0.8571}
    outputs = [{"id": i, "gold": g, "detector": d} for d in ("a", "b") for i, g in (("2", "hyp2"), ("1", "hyp1"))]
    assert set_gold(outputs) == ["hyp1", "hyp2"]


def test_calibrated_ensemble_is_fitted_on_tuning_items_and_beats_its_noisy_members():
    """Members a and b are the gold label plus independent noise, so their stack averages the noise away;
    c has no output (no tuned threshold) and is left out of the stack."""
    import numpy as np

    rng = np.random.default_rng(0)

    def rows(name: str, n: int) -> list[dict]:
        gold = rng.random(n) < 0.5
        out = []
        for det in ("a", "b"):
            noise = rng.normal(0, 1.0, n)
            out += [{"eval_set": name, "id": f"{name}:{i}", "langpair": "en", "detector": det, "score_1": float(g + e),
                     "gold": "hallucinated" if g else "faithful", "p_hallucination": None}
                    for i, (g, e) in enumerate(zip(gold, noise))]
        return out

    outputs = {"tune": rows("tune", 100), "val": rows("val", 400), "other": rows("other", 300)}
    params = {"threshold_tuning_set": "tune", "generation_proxy": "none", "generation_sets": {}, "bootstrap": BOOT,
              "ensemble": ENSEMBLE}
    res = score_all(outputs, params, {"a": "similarity", "b": "similarity", "c": "similarity"})
    ens = res["ensemble"]
    assert ens["members"] == ["a", "b"] and all(c > 0.5 for c in ens["coef"])
    tuning = [i for i in range(400) if in_tuning_part(f"val:{i}", 0.5, 13)]
    assert ens["tuning_items"] == 100 + len(tuning) and 150 < len(tuning) < 250
    held = ens["held_out"]
    assert set(held) == {"other", "val"} and held["val"]["stack"]["n"] == 400 - len(tuning)
    assert held["other"]["stack"]["n"] == held["other"]["a"]["n"] == 300
    for name in ("val", "other"):
        assert held[name]["stack"]["auroc"] > max(held[name]["a"]["auroc"], held[name]["b"]["auroc"]) + 0.03, name
    text = markdown(res, params)
    assert "## Calibrated ensemble" in text and f"fitted on {ens['tuning_items']} tuning items only" in text
