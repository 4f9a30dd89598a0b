"""tasks/scoring/metrics_log.py: the nightly history comparison."""
from __future__ import annotations

from tasks.scoring.metrics_log import append_history, compare, flatten, last_successful, read_history, regression_report


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
