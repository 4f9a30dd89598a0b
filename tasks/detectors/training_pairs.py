"""Training pairs for the cross-encoder, built by the HalluciGen perturbation library from PAWS-X dev
items that no HalluciGen split uses: (source, hyp+) -> 0 and (source, hyp-) -> 1 per perturbed item."""
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
    items, _ = pawsx_pool(Path(raw_dir) / "pawsx", ["dev"])
    held_out = evaluation_origins(hallucigen_dir)
    usable = [it for it in items if it["key"] not in held_out]
    build = {"seed": params["seed"], "types": params["types"], "pool_per_direction": params["items_per_direction"]}
    rows, stats = [], {"pawsx_dev_items": len(items), "held_out_for_evaluation": len(items) - len(usable), "pairs": {}}
    for direction in params["directions"]:
        candidates, _ = direction_candidates(direction, usable, nlp, build)
        n = 0
        for type_ in sorted(candidates):
            for cand in candidates[type_]:
                r = cand.row
                common = {"type": type_, "langpair": direction, "origin": cand.key, "source": r["source"]}
                rows += [{**common, "hypothesis": r["hyp_good"], "label": 0},
                         {**common, "hypothesis": r["hyp_bad"], "label": 1}]
                n += 2
        stats["pairs"][direction] = n
    random.Random(f"{params['seed']}:cross-encoder").shuffle(rows)
    return rows, stats
