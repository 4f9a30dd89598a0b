"""Training pairs for the trained detectors, built by the HalluciGen perturbation library from PAWS-X dev
items that no HalluciGen split uses: (source, hyp+) -> 0 once per item and (source, hyp-) -> 1 per type that
applies (hard negatives: one edit away from the faithful hypothesis); split into train and validation by
PAWS-X item, so no source, and no row, is on both sides."""
from __future__ import annotations

import random
from pathlib import Path

import pyarrow.parquet as pq

from tasks.hallucigen.translation import direction_candidates, pawsx_pool


def evaluation_origins(hallucigen_dir: Path) -> set[str]:
    """PAWS-X keys ("pawsx:<split>:<id>") behind any built HalluciGen translation example."""
    keys = set()
    for path in sorted(Path(hallucigen_dir).glob("translation/*.generation.parquet")):
        keys |= set(pq.read_table(path, columns=["origin"]).column("origin").to_pylist())
    return keys


def training_pairs(raw_dir: Path, hallucigen_dir: Path, params: dict, nlp: dict) -> tuple[list[dict], dict]:
    """Shuffled rows {source, hypothesis, label, type, langpair, origin} and their accounting."""
    items, _, corpus = pawsx_pool(Path(raw_dir) / "pawsx", ["dev"])
    held_out = evaluation_origins(hallucigen_dir)
    usable = [it for it in items if it["key"] not in held_out]
    build = {"seed": params["seed"], "types": params["types"], "pool_per_direction": params["items_per_direction"]}
    rows, stats = [], {"pawsx_dev_items": len(items), "held_out_for_evaluation": len(items) - len(usable), "pairs": {},
                       "skipped_shared_source": {}}
    for direction in params["directions"]:
        candidates, _ = direction_candidates(direction, usable, nlp, build, corpus=corpus)
        seen: set[tuple[str, str]] = set()
        owner: dict[str, str] = {}  # a source sentence two PAWS-X items share is one item's: no source in both splits
        for type_ in sorted(candidates):
            for cand in candidates[type_]:
                r = cand.row
                if owner.setdefault(r["source"], r["origin"]) != r["origin"]:
                    stats["skipped_shared_source"][direction] = stats["skipped_shared_source"].get(direction, 0) + 1
                    continue
                common = {"langpair": direction, "origin": r["origin"], "source": r["source"]}
                for hyp, label, kind in ((r["hyp_good"], 0, "faithful"), (r["hyp_bad"], 1, type_)):
                    if (r["source"], hyp) not in seen:
                        seen.add((r["source"], hyp))
                        rows.append({**common, "type": kind, "hypothesis": hyp, "label": label})
        stats["pairs"][direction] = len(seen)
    random.Random(f"{params['seed']}:cross-encoder").shuffle(rows)
    return rows, stats
