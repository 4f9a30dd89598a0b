"""Writing a dialogue dataset: one parquet per split and history variant, rejects, card and metrics."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from tasks.dialogue.card import render_card, split_stats
from tasks.dialogue.truncate import truncated_rows, variant_name
from tasks.dialogue.turns import LoadResult
from tasks.errors import PipelineError
from tasks.io import atomic_dir, write_json, write_parquet
from tasks.schemas import DIALOGUE_REJECT, DIALOGUE_TURN
from tasks.share.hub_card import CHARP_CITATION, dialogue_metadata, write_hub_files

SPLIT_ORDER = ["train", "valid", "test", "dev", "dev_2021", "echarp", "hcharp", "faithdial_valid_charp"]


def ordered_splits(result: LoadResult) -> list[str]:
    return sorted(result.splits, key=lambda s: (SPLIT_ORDER.index(s) if s in SPLIT_ORDER else len(SPLIT_ORDER), s))


def dataset_stats(result: LoadResult, variants: list) -> dict:
    return {"files": {f: t.as_dict() for f, t in sorted(result.tallies.items())},
            "splits": {split: split_stats(result.splits[split]) for split in ordered_splits(result)},
            "variants": [variant_name(h) for h in variants]}


def write_dialogue(dataset: str, result: LoadResult, variants: list, raw_sources: list[str], params: dict,
                   out_dir: Path, metrics_file: Path) -> dict:
    """Replace out_dir as a whole; fail on duplicate ids within a split."""
    for split, rows in result.splits.items():
        dupes = [i for i, n in Counter(r["id"] for r in rows).items() if n > 1]
        if dupes:
            raise PipelineError(f"dataset '{dataset}', split '{split}': duplicate ids {dupes[:5]}")
    stats = dataset_stats(result, variants)
    with atomic_dir(out_dir) as tmp:
        for split, rows in result.splits.items():
            for h in variants:
                write_parquet(truncated_rows(rows, h), DIALOGUE_TURN, Path(tmp) / split / f"{variant_name(h)}.parquet")
        write_parquet(result.rejects, DIALOGUE_REJECT, Path(tmp) / "rejects.parquet")
        meta = dialogue_metadata(dataset, raw_sources, {s: v["turns"] for s, v in stats["splits"].items()},
                                 stats["variants"])
        write_hub_files(tmp, meta, render_card(dataset, raw_sources, stats, params),
                        f"Knowledge-grounded dialogue turns ({dataset}) with history-truncated variants.",
                        CHARP_CITATION)
    write_json(stats, metrics_file)
    return stats
