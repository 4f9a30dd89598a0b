"""The dialogue critic: the learned detector's head (tasks/detectors/learned.py) trained on BEGIN dev pairs
(knowledge, response), 1 = not faithful, split by knowledge passage so that no held-out passage was seen in
training; its figures are those of the held-out passages only. BEGIN test is never read. The CHARP stages
score predictions with it in place of the FaithDial critic, which needs the Hub."""
from __future__ import annotations

import random
from pathlib import Path

import pyarrow.parquet as pq

from tasks.detectors.splits import split_by_item
from tasks.dialogue.truncate import variant_file
from tasks.errors import InputError


def begin_pairs(data: Path, split: str, max_turns: int | None, seed: int) -> list[dict]:
    """(knowledge, response, label) rows of a BEGIN split, at most ``max_turns`` of them (seeded)."""
    path = variant_file(data, "begin", split, 0)
    if not path.is_file():
        raise InputError(f"{path}: not found (run dvc repro dialogue@begin)")
    rows = [{"origin": r["knowledge"], "source": r["knowledge"], "hypothesis": r["response"],
             "label": int(not r["faithful"]), "id": r["id"]} for r in pq.read_table(path).to_pylist()]
    if max_turns is not None and max_turns < len(rows):
        keep = set(random.Random(f"{seed}:begin:{split}").sample(sorted(r["id"] for r in rows), max_turns))
        rows = [r for r in rows if r["id"] in keep]
    return sorted(rows, key=lambda r: r["id"])


def critic_split(rows: list[dict], valid_fraction: float, seed: int) -> tuple[list[dict], list[dict]]:
    """(train, held out): whole knowledge passages held out."""
    return split_by_item(rows, valid_fraction, seed, key="origin")
