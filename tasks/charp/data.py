"""The dialogue turns an experiment uses: a split of data/dialogue/<dataset> in one history variant, cut to
a seeded subset of turn ids that is the same for every variant."""
from __future__ import annotations

import random
from pathlib import Path

import pyarrow.parquet as pq

from tasks.dialogue.truncate import variant_file
from tasks.errors import InputError


def load_turns(data: Path, dataset: str, split: str, h, size: int | None, seed: int) -> list[dict]:
    """Turns of ``split`` with history h (full, or a number), at most ``size`` of them (seeded by split)."""
    path = variant_file(data, dataset, split, h)
    if not path.is_file():
        raise InputError(f"{path}: not found (dialogue.truncation must include {h!r}; "
                         f"run dvc repro dialogue@{dataset})")
    rows = pq.read_table(path).to_pylist()
    if size is not None and size < len(rows):
        keep = set(random.Random(f"{seed}:{dataset}:{split}").sample(sorted(r["id"] for r in rows), size))
        rows = [r for r in rows if r["id"] in keep]
    return sorted(rows, key=lambda r: r["id"])


def eval_turns(data: Path, params: dict, h) -> list[dict]:
    """The evaluation turns of the charp params (eval_dataset, splits.eval, subsets.eval) with history h."""
    return load_turns(data, params["eval_dataset"], params["splits"]["eval"], h, params["subsets"]["eval"],
                      params["seed"])


def fewshot_demos(data: Path, params: dict) -> list[dict]:
    """The few-shot system's in-context examples: charp.fewshot.examples seeded turns of the training split."""
    return load_turns(data, params["dataset"], params["splits"]["train"], "full", params["fewshot"]["examples"],
                      params["seed"])
