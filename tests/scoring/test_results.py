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


def test_typed_pair_sets_get_per_type_figures_and_keep_the_other_keys():
    """Rows of type date are all right (F1 1); of type tense one right, one answered hyp1 for gold hyp2 (hyp1: P .5,
    R 1, F1 .6667; hyp2: F1 0; macro .3333); the whole set: macro (.8 + .6667) / 2 = .7333. A set whose rows carry no
    type gets no by_type."""
    from tasks.scoring.results import BY_TYPE, pair_metrics_ci, pair_results

    def typed(eval_set, i, gold, pred, kind, lp="en"):
        return {**_out(eval_set, "a", i, gold, pred, lp=lp), "type": kind}

    name = "hallucigen-translation-test"
    rows = [typed(name, 0, "hyp1", "hyp1", "date"), typed(name, 1, "hyp2", "hyp2", "date", "sv"),
            typed(name, 2, "hyp1", "hyp1", "tense"), typed(name, 3, "hyp2", "hyp1", "tense", "sv")]
    untyped = [{**r, "type": None} for r in rows]
    params = {"threshold_tuning_set": "tune", "generation_proxy": "none", "generation_sets": {}, "bootstrap": BOOT,
              "ensemble": {**ENSEMBLE, "enabled": False}}
    res = score_all({name: rows, "plain": untyped}, params, {"a": "llm_prompt"})
    a = res["detection"][name]["a"]
    assert list(a) == ["all", "en", "sv", BY_TYPE] and list(a[BY_TYPE]) == ["date", "tense"]
    assert {t: (m["n"], m["f1"]) for t, m in a[BY_TYPE].items()} == {"date": (2, 1.0), "tense": (2, 0.3333)}
    assert a[BY_TYPE]["date"]["ci"]["f1"] == [1.0, 1.0]
    assert a[BY_TYPE]["tense"] == pair_metrics_ci(rows[2:], BOOT)
    assert {k: v for k, v in a.items() if k != BY_TYPE} == pair_results(rows, BOOT)["a"]
    assert BY_TYPE not in res["detection"]["plain"]["a"]
    text = markdown(res, params)
    assert "| detector | en | sv |" in text and "| detector | en | sv | by_type |" not in text
    assert text.index("## Difficulty") < text.index(f"## {name}")
    assert "| a | 1.00 (n=2) | 0.33 (n=2) | 0.73 (n=4) | – |" in text


def test_each_generator_system_and_prompt_is_its_own_row():
    """Model-generated examples carry their system and prompt in the id (llm:<system>:<prompt>:...): Tables 4 and
    6 have a row per generator and prompt; the set's generator name labels only its other examples."""
    made = [("llama", "general"), ("llama", "mentions"), ("llama", "mentions"), ("mixtral", "mentions")]
    rows = [{**_out("cross", "a", i, "hyp1", "hyp1", 0.9, 0.1, "fr-en"), "id": f"llm:{s}:{p}:fr-en:test:{i}"}
            for i, (s, p) in enumerate(made)]
    rows[2].update(score_1=0.1, score_2=0.9)  # llama, mentions: the proxy takes hyp- for faithful once
    rows.append(_out("cross", "a", 9, "hyp1", "hyp1", 0.1, 0.9, "fr-en"))
    tune = [_out("tune", "a", i, g, s1=s) for i, (g, s) in enumerate([("hallucinated", 0.8), ("faithful", 0.2)])]
    params = {"threshold_tuning_set": "tune", "generation_proxy": "a", "generation_sets": {"cross": "gen"},
              "bootstrap": BOOT, "ensemble": {**ENSEMBLE, "enabled": False}}
    generators = score_all({"cross": rows, "tune": tune}, params, {"a": "cross_encoder"})["generation"]["generators"]
    assert generators == {"llama, general prompt (cross)": {"fr-en": {"n": 1, "hyp+": 1.0, "hyp-": 1.0}},
                          "llama, mentions prompt (cross)": {"fr-en": {"n": 2, "hyp+": 0.5, "hyp-": 0.5}},
                          "mixtral, mentions prompt (cross)": {"fr-en": {"n": 1, "hyp+": 1.0, "hyp-": 1.0}},
                          "gen (cross)": {"fr-en": {"n": 1, "hyp+": 0.0, "hyp-": 0.0}}}
