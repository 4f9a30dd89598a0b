"""The CHARP grid of a params file on a machine without Prefect or DVC (a lent GPU machine has neither): the
task functions of the charp_train, charp_generate/charp_fewshot and charp_score stages, in stage order, into
the files those stages write; the cells of a phase run side by side in ``--jobs`` processes. Prints each
phase's wall time, and each cell's as it ends.

    python -m benchmarks.charp_grid [--params FILE] [--phase train|generate|score|all] [--jobs N] [--save FILE]
"""
from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from tasks.charp.cells import (
    NO_TRAINING,
    Cell,
    cells_with_turns,
    checkpoint_path,
    generate_metrics_path,
    prediction_path,
    prediction_rows,
    train_metrics_path,
)
from tasks.charp.data import eval_turns, fewshot_demos
from tasks.io import atomic_dir, write_json, write_parquet
from tasks.params import PARAMS_FILE, ROOT, load_params

DATA = ROOT / "data"
PHASES = ("train", "generate", "score")


def train(system: str, h: str, params: dict) -> str:
    from tasks.charp.train import train_cell

    write_json(train_cell(DATA, system, h, params), train_metrics_path(ROOT, system, h))
    return f"{system} h-{h}"


def generate(cell: Cell, params: dict) -> str:
    from tasks.charp.generate import fewshot_cell, generate_beam
    from tasks.schemas import CHARP_PREDICTION

    rows, stats = eval_turns(DATA, params, cell.eval_h), {}
    if cell.system == "fewshot":
        predictions, stats = fewshot_cell(rows, fewshot_demos(DATA, params), params["client"])
    else:
        predictions = generate_beam(rows, checkpoint_path(DATA, cell), params["systems"][cell.system]["arch"],
                                    params["generation"])
    write_parquet(prediction_rows(cell, rows, predictions), CHARP_PREDICTION, prediction_path(DATA, cell))
    write_json({"predictions": len(rows), **stats}, generate_metrics_path(ROOT, cell))
    return str(cell)


def score(params: dict) -> str:
    """Metrics and the judge side by side (the critic's encoder runs on the CPU, the judge on the device).
    transformers' lazy imports are not thread-safe, so they are resolved before the threads start."""
    from concurrent.futures import ThreadPoolExecutor

    import bert_score  # noqa: F401
    from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer  # noqa: F401

    from tasks.charp.grid_scores import cell_metrics, judge_grid, metrics_json
    from tasks.charp.report_files import write_reports

    cells = cells_with_turns(DATA, params)
    with ThreadPoolExecutor(2) as pool:
        metrics = pool.submit(cell_metrics, cells, params["metrics"], params["seed"])
        judge = pool.submit(judge_grid, cells, params, ROOT) if params["judge"]["enabled"] else None
        results, per_turn = metrics.result()
        judge = judge.result() if judge else ({}, {}, {})
    with atomic_dir(DATA / "charp" / "reports") as tmp:
        write_reports(params, cells, results, per_turn, judge, ROOT, tmp)
    write_json(metrics_json(results), ROOT / "metrics" / "charp.json")
    return f"{len(cells)} cells"


def in_processes(jobs: list[tuple], workers: int) -> None:
    """Run (function, *args) jobs in ``workers`` spawned processes, printing each one's end."""
    start = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(*job) for job in jobs]
        for future in as_completed(futures):
            print(f"  done {future.result()} at {time.perf_counter() - start:.1f} s", flush=True)


def phase_jobs(phase: str, params: dict) -> list[tuple]:
    grid = params["grid"]
    hs = [str(h) for h in grid["eval_h"]]
    if phase == "train":
        return [(train, s, str(h), params) for s in grid["systems"] for h in grid["train_h"]]
    cells = [Cell(s, str(t), e) for s in grid["systems"] for t in grid["train_h"] for e in hs]
    return [(generate, c, params) for c in [Cell("fewshot", NO_TRAINING, e) for e in hs] + cells]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--params", type=Path, default=PARAMS_FILE)
    ap.add_argument("--phase", choices=[*PHASES, "all"], default="all")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--save", type=Path)
    args = ap.parse_args()
    params = load_params("charp", args.params)
    times = {}
    for phase in PHASES if args.phase == "all" else [args.phase]:
        start = time.perf_counter()
        print(f"{phase}:", flush=True)
        if phase == "score":
            print(f"  done {score(params)}", flush=True)
        else:
            in_processes(phase_jobs(phase, params), args.jobs)
        times[phase] = round(time.perf_counter() - start, 1)
        print(f"{phase}: {times[phase]} s", flush=True)
    if args.save:
        write_json(times, args.save)


if __name__ == "__main__":
    main()
