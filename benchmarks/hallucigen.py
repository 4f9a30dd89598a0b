"""Benchmark the HalluciGen data builds: cold (a fresh process, model loading included) and warm (the
same builds again in one process) wall time of both datasets. Target: cold < 60 s on the 2-core machine.
Usage: python -m benchmarks.hallucigen  (after `make run`, which fetches data/raw)"""
from __future__ import annotations

import subprocess
import sys
import time

from tasks.params import ROOT

BUILD = """
import time
t0 = time.perf_counter()
from flows.hallucigen_tasks import RAW
from tasks.hallucigen.paraphrase import build_language
from tasks.hallucigen.sources import load_models
from tasks.hallucigen.translation import build_direction, merge_directions, translation_pool
from tasks.params import ROOT, load_params
for _ in range({runs}):
    t = time.perf_counter()
    models = load_models(["en", "fr"])
    tp = load_params("hallucigen_translation")
    pool = translation_pool(RAW, tp, ROOT / "data" / "pawsx_edits" / "examples.parquet")
    rows_t, _, _ = merge_directions(pool, tp, [build_direction(d, pool, models, tp) for d in tp["directions"]])
    pp = load_params("hallucigen_paraphrase")
    rows_p = [r for lang in pp["languages"] for r in build_language(lang, RAW, pp, models["en"])[0]]
    print(f"build: {{time.perf_counter() - t:.1f}} s "
          f"({{len(rows_t)}} translation + {{len(rows_p)}} paraphrase examples)")
print(f"process total: {{time.perf_counter() - t0:.1f}} s")
"""


def main() -> None:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", BUILD.format(runs=2)], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()
    wall = time.perf_counter() - start
    print(f"cold (new process: imports, spaCy en + fr loading, both builds): {wall - float(out[1].split()[1]):.1f} s "
          f"(target < 60 s); first build inside it: {out[0]}")
    print(f"warm (models loaded, same process): {out[1]}")


if __name__ == "__main__":
    main()
