"""What the report site shows, read from the built artifacts; a part whose artifacts are absent is left out
(the site says so). Every list is in a fixed order, so the same artifacts give the same pages."""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pyarrow.parquet as pq

from tasks.charp.cells import Cell
from tasks.charp.report import METRICS, _eval_hs, _systems
from tasks.site.word_diff import word_diff

SCENARIOS = ("translation", "paraphrase")
SPLITS = ("trial", "test")
METRIC_KEYS = ("accuracy", "precision", "recall", "f1", "mcc", "kappa", "auroc", "spearman")
PAIR_GOLD, PAIR_PRED = ["hyp1", "hyp2"], ["hyp1", "hyp2", "none"]
BINARY = ["faithful", "hallucinated"]
ALL = "all"


def _json(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _rows(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist() if path.is_file() else []


def _flatten(value, prefix: str = "") -> list[tuple[str, str]]:
    """Nested figures as (dotted key, value) rows, for figures the site has no dedicated table for."""
    if isinstance(value, dict):
        return [row for k, v in value.items() for row in _flatten(v, f"{prefix}.{k}" if prefix else str(k))]
    return [(prefix, json.dumps(value, ensure_ascii=False) if isinstance(value, list) else str(value))]


PROBE_CLASSIFIER = "ngram"  # the artifact probe's classifier whose accuracy colours the type x direction matrix


def type_matrix(examples: dict[str, int], probe: dict | None) -> dict:
    """Examples per type (rows) and direction/language (columns), every split together, each cell with the
    artifact probe's accuracy on it (None where the probe did not run): {'langpairs': [...], 'rows': [{'type':
    'tense', 'cells': [{'examples': 24, 'accuracy': 0.52, 'n': 24}, ...]}]}."""
    counts: Counter = Counter()
    for key, n in examples.items():
        _, langpair, type_ = key.split("/")
        counts[(type_, langpair)] += n
    langpairs = sorted({lp for _, lp in counts})
    cells = ((probe or {}).get("classifiers", {}).get(PROBE_CLASSIFIER) or {}).get("by_type_langpair", {})
    rows = [{"type": t, "cells": [{"examples": counts.get((t, lp), 0), "accuracy": cells.get(f"{t}/{lp}", {}).get(
        "accuracy"), "n": cells.get(f"{t}/{lp}", {}).get("n")} for lp in langpairs]}
            for t in sorted({t for t, _ in counts})]
    return {"langpairs": langpairs, "rows": rows, "classifier": PROBE_CLASSIFIER if cells else None}


def hallucigen_dataset(root: Path, scenario: str) -> dict | None:
    stats = _json(root / "metrics" / f"hallucigen_{scenario}.json")
    if stats is None:
        return None
    by_split = Counter()
    for key, n in stats["examples"].items():
        by_split[key.split("/")[0]] += n
    probe = stats.get("artifact_probe")
    return {"name": f"hallucigen-{scenario}", "folder": f"data/hallucigen/{scenario}",
            "matrix": type_matrix(stats["examples"], probe), "splits": dict(by_split), "validity": stats.get("review"),
            "probe_overall": {name: c["overall"] for name, c in probe["classifiers"].items()} if probe else None,
            "other_figures": _flatten({k: stats[k] for k in ("source_blind",) if stats.get(k)})}


def dialogue_dataset(metrics_file: Path) -> dict:
    stats = _json(metrics_file)
    return {"name": f"dialogue-{metrics_file.stem}", "folder": f"data/dialogue/{metrics_file.stem}",
            "splits": {s: v["turns"] for s, v in stats["splits"].items()}, "files": stats["files"],
            "variants": stats["variants"]}


def datasets(root: Path) -> list[dict]:
    found = [d for d in (hallucigen_dataset(root, s) for s in SCENARIOS) if d]
    return found + [dialogue_dataset(p) for p in sorted((root / "metrics" / "dialogue").glob("*.json"))]


def examples_by_type(root: Path, per_type: int) -> dict[str, dict]:
    """Per scenario and type: the first examples of each split (trial, then test), edit marked as a word diff."""
    pages = {}
    for scenario in SCENARIOS:
        rows = [r for s in SPLITS for r in _rows(root / "data" / "hallucigen" / scenario / f"{s}.generation.parquet")]
        grouped = defaultdict(list)
        for r in rows:
            grouped[r["type"]].append(r)
        for hal_type, items in sorted(grouped.items()):
            shown = []
            for r in items[:per_type]:
                good, bad = word_diff(r["hyp_good"], r["hyp_bad"])
                shown.append({"id": r["id"], "split": r["split"], "langpair": r["langpair"], "source": r["source"],
                              "hyp_good": good, "hyp_bad": bad, "edit_detail": r.get("edit_detail") or ""})
            pages[f"{scenario}-{hal_type}"] = {"scenario": scenario, "type": hal_type, "total": len(items),
                                               "examples": shown}
    return pages


def pair_texts(root: Path, eval_set: str) -> dict[str, dict]:
    """id -> the example's texts, for the evaluation sets built from HalluciGen folders."""
    parts = eval_set.split("-")
    if len(parts) == 3 and parts[0] in ("hallucigen", "published") and parts[1] in SCENARIOS:
        name = f"{parts[2]}.detection.parquet" if parts[0] == "hallucigen" else "published.detection.parquet"
        return {r["id"]: r for r in _rows(root / "data" / "hallucigen" / parts[1] / name)}
    return {}


def metric_rows(dets: dict) -> list[dict]:
    """Per detector: n, every metric present over the whole set with its 95% interval where scored."""
    rows = []
    for det, m in dets.items():
        whole = m.get(ALL, {})
        if not whole.get("n"):
            continue
        cells = {k: {"value": whole[k], "ci": whole.get("ci", {}).get(k)} for k in METRIC_KEYS if k in whole}
        rows.append({"detector": det, "n": whole["n"], "metrics": cells, "no_answer": whole.get("no_answer"),
                     "threshold": m.get("threshold")})
    return rows


def pair_diff(hyp1: str | None, hyp2: str | None, gold: str):
    """hyp1, hyp2 marked as on the type pages: the faithful one's changed words struck, the hallucinated one's
    (the gold label) added words marked."""
    if gold == "hyp1":
        good, bad = word_diff(hyp2, hyp1)
        return bad, good
    return word_diff(hyp1, hyp2)


def _decision(row: dict, pair: bool, threshold: float | None) -> str:
    if pair:
        return row["prediction"] or "none"
    return "hallucinated" if row["score_1"] is not None and row["score_1"] >= threshold else "faithful"


def detector_page(name: str, outputs: list[dict], dets: dict, thresholds: dict, texts: dict[str, dict],
                  max_errors: int) -> dict:
    pair = bool(outputs) and outputs[0]["gold"] in PAIR_GOLD
    gold_labels, pred_labels = (PAIR_GOLD, PAIR_PRED) if pair else (BINARY, BINARY)
    by_det = defaultdict(list)
    for o in outputs:
        by_det[o["detector"]].append(o)
    detectors = []
    for det, rows in sorted(by_det.items()):
        if not pair and det not in thresholds:
            continue
        cm = Counter((r["gold"], _decision(r, pair, thresholds.get(det))) for r in rows)
        wrong = [r for r in rows if _decision(r, pair, thresholds.get(det)) != r["gold"]]
        errors = []
        for r in wrong[:max_errors]:
            t = texts.get(r["id"], {})
            hyp1, hyp2 = pair_diff(t.get("hyp1"), t.get("hyp2"), r["gold"])
            errors.append({"id": r["id"], "type": r["type"] or "–", "langpair": r["langpair"], "gold": r["gold"],
                           "predicted": _decision(r, pair, thresholds.get(det)), "source": t.get("source"),
                           "hyp1": hyp1 if t else None, "hyp2": hyp2 if t else None, "answer": r["answer"]})
        detectors.append({"name": det, "n": len(rows), "n_errors": len(wrong),
                          "confusion": [[cm[(g, p)] for p in pred_labels] for g in gold_labels],
                          "errors": errors, "types": sorted({e["type"] for e in errors})})
    metrics = metric_rows(dets)
    return {"name": name, "kind": "pair" if pair else "binary", "gold_labels": gold_labels,
            "pred_labels": pred_labels, "metrics": metrics, "detectors": detectors,
            "metric_names": [k for k in METRIC_KEYS if any(k in r["metrics"] for r in metrics)],
            "types": sorted({t for d in detectors for t in d["types"]}),
            "threshold_note": "" if pair else "decision: score >= threshold tuned on the tuning set"}


def detector_pages(root: Path, max_errors: int) -> list[dict]:
    results = _json(root / "data" / "reports" / "results.json")
    if results is None:
        return []
    pages = []
    for path in sorted((root / "data" / "detections").glob("*.parquet")):
        dets = {**results.get("detection", {}), **results.get("binary", {})}.get(path.stem)
        if dets is None:
            continue
        pages.append(detector_page(path.stem, _rows(path), dets, results.get("thresholds", {}),
                                   pair_texts(root, path.stem), max_errors))
    return pages


def _metric_order(metric: str) -> tuple[int, str]:
    """The grid's column order, a total one: the report's metrics in its order, then every other metric by name
    (e.g. bleu, critic, judge_2, judge_7)."""
    return (METRICS.index(metric) if metric in METRICS else len(METRICS), metric)


def charp(root: Path, eval_dataset: str, eval_split: str, per_cell: int) -> dict | None:
    """The grid table (rows system and train h, columns eval h), the plot, and sample predictions per cell
    beside the gold response, the knowledge and the history the system saw."""
    summary = _json(root / "data" / "charp" / "reports" / "results.json")
    if summary is None:
        return None
    cells = {Cell.parse(name): values for name, values in summary["cells"].items()}
    eval_hs, systems = _eval_hs(cells), _systems(cells)
    metrics = sorted({m for c in cells.values() for m, v in c.items() if m != "n" and v is not None}, key=_metric_order)
    grid = [{"system": s, "train_h": th, "values": [[cells.get(Cell(s, th, h), {}).get(m) for m in metrics]
                                                    for h in eval_hs]} for s, th in systems]
    samples = []
    for path in sorted((root / "data" / "charp" / "predictions").glob("*/*.parquet")):
        preds = _rows(path)[:per_cell]
        if not preds:
            continue
        eval_h = preds[0]["eval_h"]
        split_dir = root / "data" / "dialogue" / eval_dataset / eval_split
        turns = {r["id"]: r for r in _rows(split_dir / f"h-{eval_h}.parquet")}
        items = [{"id": p["id"], "prediction": p["prediction"], "gold": turns.get(p["id"], {}).get("response"),
                  "knowledge": turns.get(p["id"], {}).get("knowledge"),
                  "history": turns.get(p["id"], {}).get("history") or []} for p in preds]
        samples.append({"cell": f"{preds[0]['system']} · train h={preds[0]['train_h'] or 'few-shot'} · eval h={eval_h}",
                        "items": items})
    return {"eval_hs": eval_hs, "metrics": metrics, "grid": grid, "samples": samples}
