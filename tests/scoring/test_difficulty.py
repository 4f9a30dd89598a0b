"""tasks/scoring/difficulty.py and its report section: F1 per type on the built test beside human-labelled sets."""
from __future__ import annotations

from tasks.scoring.difficulty import difficulty_rows, f1_cell
from tasks.scoring.report import difficulty_section

RES = {
    "detection": {
        "hallucigen-paraphrase-test": {
            "b": {"all": {"n": 0}},
            "a": {"all": {"n": 60, "f1": 0.8}, "en": {"n": 60, "f1": 0.8},
                  "by_type": {"tense": {"n": 20, "f1": 0.9}, "date": {"n": 40, "f1": 0.834}}}},
        "published-paraphrase-trial": {"a": {"all": {"n": 36, "f1": 0.712}}, "c": {"all": {"n": 36, "f1": 0.5}}},
        "published-translation-trial": {"a": {"all": {"n": 40, "f1": 0.6}}}},
    "binary": {"shroom-val": {"a": {"threshold": 0.5, "all": {"n": 100, "f1": 0.6, "auroc": 0.75}},
                              "c": {"threshold": 0.4, "all": {"n": 100, "f1": 0.55, "auroc": None}}}},
}


def test_cells_show_f1_and_n_or_a_dash():
    assert f1_cell({"n": 40, "f1": 0.8333}) == "0.83 (n=40)"
    assert f1_cell({"n": 0}) == f1_cell(None) == "–"


def test_rows_are_sorted_and_missing_sets_or_detectors_are_dashes():
    header, rows = difficulty_rows(RES, "paraphrase")
    assert header == ["detector", "date", "tense", "built test: all", "published trial (human)",
                      "shroom-val F1 (human)", "shroom-val AUROC (human)"]
    assert rows == [["a", "0.83 (n=40)", "0.90 (n=20)", "0.80 (n=60)", "0.71 (n=36)", "0.60 (n=100)", "0.75"],
                    ["b", "–", "–", "–", "–", "–", "–"],
                    ["c", "–", "–", "–", "0.50 (n=36)", "0.55 (n=100)", "–"]]
    assert difficulty_rows(RES, "translation") == (["detector", "built test: all", "published trial (human)"],
                                                   [["a", "–", "0.60 (n=40)"]])
    assert difficulty_rows({"detection": {}, "binary": {}}, "translation") is None


def test_difficulty_section_exact_lines():
    lines = difficulty_section(RES).splitlines()
    assert lines[0] == "## Difficulty"
    t = lines.index("### translation")
    assert lines[t:t + 9] == [
        "### translation", "", "Built test: `hallucigen-translation-test`; human-labelled: "
        "`published-translation-trial`.", "",
        "| detector | built test: all | published trial (human) |", "|---|---|---|", "| a | – | 0.60 (n=40) |", "",
        "A detector much better on the built test than on the human-labelled sets means the built benchmark is easier "
        "than real data; much worse, harder."]
    p = lines.index("### paraphrase")
    assert t < p and lines[p + 2:p + 9] == [
        "Built test: `hallucigen-paraphrase-test`; human-labelled: `published-paraphrase-trial` and `shroom-val` "
        "(binary).", "",
        "| detector | date | tense | built test: all | published trial (human) | shroom-val F1 (human) | "
        "shroom-val AUROC (human) |", "|---|---|---|---|---|---|---|",
        "| a | 0.83 (n=40) | 0.90 (n=20) | 0.80 (n=60) | 0.71 (n=36) | 0.60 (n=100) | 0.75 |",
        "| b | – | – | – | – | – | – |",
        "| c | – | – | – | 0.50 (n=36) | 0.55 (n=100) | – |"]
    assert difficulty_section({"detection": {}, "binary": {}}) == ""
