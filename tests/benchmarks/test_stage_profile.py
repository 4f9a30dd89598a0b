"""benchmarks/stage_profile.py: the profile table, with the earlier figures beside the new ones."""
from __future__ import annotations

from benchmarks.stage_profile import format_profile

ROWS = [{"stage": "translation", "wall_s": 100.0, "cpu_s": 150.5, "peak_rss_mib": 2048,
         "model_loads": {"engine_pool e5": 1, "load_st_folder /cache/models/gemma": 2},
         "top_functions": [{"function": "tasks/a.py:f", "share": 0.5}, {"function": "tasks/b.py:g", "share": 0.25}]},
        {"stage": "site", "wall_s": 2.0, "cpu_s": 1.5, "peak_rss_mib": 300, "model_loads": {}, "top_functions": []}]


def test_the_table_gives_loads_totals_and_hot_functions_beside_the_earlier_figures():
    before = [{**ROWS[0], "wall_s": 200.0, "cpu_s": 400.0}]
    assert format_profile(ROWS, before, top=1).splitlines() == [
        "| stage | wall s (before) | CPU s (before) | peak RSS MiB | model loads |", "|---|---:|---:|---:|---|",
        "| translation | 100.0 (200.0) | 150.5 (400.0) | 2,048 | e5 (engine_pool), gemma (load_st_folder) x2 |",
        "| site | 2.0 (-) | 1.5 (-) | 300 | - |", "| **total** | 102.0 | 152.0 | | |", "",
        "- translation: tasks/a.py:f 50%", "- site: (nothing sampled in tasks/)"]
