"""The files of data/charp/reports/ from a scored grid: the history effect, results.json, the plots, the blind
human-evaluation sheet (and agreement with filled sheets when there are some) and README.md."""
from __future__ import annotations

from pathlib import Path

from tasks.charp import human_eval
from tasks.charp.curves import load_curves, plot_curves
from tasks.charp.grid_scores import history_effect, summary
from tasks.charp.report import plot_metrics, report_text
from tasks.io import write_json


def write_reports(params: dict, cells: dict, results: dict, per_turn: dict, judge: tuple[dict, dict, dict],
                  root: Path, out: Path) -> str:
    """Write the report files of ``cells`` (their metrics ``results``/``per_turn`` and the judge's
    (judged, stats, client failures)) into ``out``; filled sheets and learning curves are read under ``root``.
    Returns the report's text."""
    judged, judge_stats, client_failures = judge
    history = history_effect(results, per_turn, judged, params["seed"])
    scores = summary(results, judged, judge_stats, client_failures, history)
    items = human_eval.sheet_items(cells, params["human"]["per_cell"])
    sheets = {name: Path(root) / path for name, path in (params["human"]["sheets"] or {}).items()}
    curves = load_curves(Path(root) / "metrics" / "charp")
    plot_metrics(results, out / "metrics_by_eval_h.png")
    if curves:
        plot_curves(curves, out / "learning_curves.png")
    human_eval.export_sheet(items, params["seed"], out / "human_sheet.csv", out / "human_key.csv")
    if sheets:
        scores["human"] = human_eval.compare_with_humans(items, judged, sheets, out / "judge_vs_human.png")
    text = report_text(params, results, judged, scores.get("human"), history, curves)
    (out / "README.md").write_text(text, encoding="utf-8")
    write_json(scores, out / "results.json")
    return text
