"""Benchmark the PAWS-X tense + negation build against a naive loop, and time a no-op `dvc repro`.

Prints wall time and sentences/s over all PAWS-X dev+test for (a) the pipeline's build: nlp.pipe with
batching and only the pipes the edits need; (b) the same build calling nlp(sentence) per sentence with
the full pipeline. Targets: (a) >= 5x (b); no-op `dvc repro` <= 1.5 s.
Usage: python -m benchmarks.pawsx_edits  (after `make run`, which fetches data/raw/pawsx)
"""
from __future__ import annotations

import statistics
import subprocess
import time

from tasks.edits.spacy_model import (
    TAG_PIPES,
    batched_parser,
    load_english,
    tag_receptive_field,
)
from tasks.edits.verbgroup import _verb_lemmas
from tasks.params import ROOT, load_params
from tasks.pawsx.build import build_examples

RAW_DIR = ROOT / "data" / "raw" / "pawsx"


def counting(parse):
    """Wrap a parse function to count the sentences it tags."""
    counter = {"n": 0}

    def wrapped(texts):
        texts = list(texts)
        counter["n"] += len(texts)
        return parse(texts)

    return wrapped, counter


def time_build(parse, tag, params, margin=None):
    wrapped_parse, counter = counting(parse)
    wrapped_tag, tag_counter = counting(tag)
    start = time.perf_counter()
    result = build_examples(RAW_DIR, params, wrapped_parse, wrapped_tag, margin)
    counter["n"] += tag_counter["n"]
    return time.perf_counter() - start, counter["n"], result


def time_noop_repro(runs: int = 5) -> list[float]:
    subprocess.run(["dvc", "repro"], cwd=ROOT, check=True, capture_output=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(["dvc", "repro"], cwd=ROOT, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    if not RAW_DIR.is_dir():
        raise SystemExit(f"{RAW_DIR} missing: run `make run` first")
    params = load_params("pawsx_edits")
    fast_nlp = load_english(params["spacy_model"])
    full_nlp = load_english(params["spacy_model"], full=True)
    _verb_lemmas()  # one-off per process, like model loading: paid before timing either build
    print(f"pipes: pipeline {fast_nlp.pipe_names}; naive {full_nlp.pipe_names}")
    fast_parse = batched_parser(fast_nlp, params["batch_size"], params["n_process"])
    fast_tag = batched_parser(fast_nlp, params["batch_size"], params["n_process"], pipes=TAG_PIPES)
    fast_s, n, fast = time_build(fast_parse, fast_tag, params, tag_receptive_field(fast_nlp))
    naive = lambda texts: [full_nlp(t) for t in texts]  # noqa: E731
    naive_s, n_naive, naive = time_build(naive, naive, params)
    same = (fast.examples, fast.rejects, fast.stats) == (naive.examples, naive.rejects, naive.stats)
    print(f"sentences tagged: {n} (good + edited), examples: {len(fast.examples)}")
    print(f"pipeline build (nlp.pipe, batch {params['batch_size']}, parse + tag-only re-tag around edits): "
          f"{fast_s:.2f} s, {n / fast_s:.0f} sentences/s")
    print(f"naive build (nlp(sentence), full pipeline):  {naive_s:.2f} s, {n_naive / naive_s:.0f} sentences/s")
    print(f"speed-up: {naive_s / fast_s:.1f}x (target >= 5x); identical examples, rejects and stats: {same}")
    noop = time_noop_repro()
    print(f"no-op dvc repro over {len(noop)} runs: median {statistics.median(noop):.2f} s, "
          f"max {max(noop):.2f} s (target <= 1.5 s)")


if __name__ == "__main__":
    main()
