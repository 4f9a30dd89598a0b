"""tasks/scoring/results.py: results and reports from detector outputs."""
from __future__ import annotations

from tasks.scoring.report import markdown, plot_confusions, plot_f1
from tasks.scoring.results import score_all
from tests.scoring.helpers import BOOT, ENSEMBLE


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
