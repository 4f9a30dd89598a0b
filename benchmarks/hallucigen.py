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
from flows.hallucigen_translation import RAW
from tasks.hallucigen.sources import load_models
from tasks.hallucigen.translation import build_translation
from tasks.hallucigen.paraphrase import build_paraphrase
from tasks.params import ROOT, load_params
for _ in range({runs}):
    t = time.perf_counter()
    models = load_models(["en", "fr"])
    rows_t, _, _ = build_translation(RAW, load_params("hallucigen_translation"), models,
                                   ROOT / "data" / "pawsx_edits" / "examples.parquet")
    rows_p, _, _ = build_paraphrase(RAW, load_params("hallucigen_paraphrase"), models["en"])
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
