"""Which loader builds which dialogue dataset, from data/raw and the `dialogue` params."""
from __future__ import annotations

from pathlib import Path

from tasks.dialogue.begin import load_begin
from tasks.dialogue.charp import load_charp
from tasks.dialogue.charp_offline import load_charp_offline
from tasks.dialogue.dstc11 import load_dstc11
from tasks.dialogue.faithdial import load_faithdial
from tasks.dialogue.turns import LoadResult
from tasks.errors import PipelineError
from tasks.params import ROOT

# dataset -> the data/raw/<source> folders it reads (also shown in its dataset card)
RAW_SOURCES = {"dstc11": ["dstc11-track5"], "begin": ["begin", "begin-2021"], "faithdial": ["faithdial"],
               "charp": ["charp", "faithdial"], "charp_offline": ["dstc11-track5"]}


def load_dialogue(dataset: str, params: dict, raw_root: Path) -> LoadResult:
    """Load one dataset; its raw sources must have been fetched (the paper profile fetches FaithDial/CHARP)."""
    if dataset not in RAW_SOURCES:
        raise PipelineError(f"unknown dialogue dataset '{dataset}'; known: {sorted(RAW_SOURCES)}")
    missing = [s for s in RAW_SOURCES[dataset] if not (Path(raw_root) / s).is_dir()]
    if missing:
        raise PipelineError(f"dataset '{dataset}' needs data/raw/{{{','.join(missing)}}}: add them to "
                            "params.yaml fetch.sources (the paper profile does) or remove the dataset from "
                            "dialogue.datasets")
    result = _load(dataset, params["options"], params["seed"], Path(raw_root))
    require_turns(dataset, result)
    return result


def _load(dataset: str, config: dict, seed: int, raw_root: Path) -> LoadResult:
    if dataset == "dstc11":
        return load_dstc11(raw_root / "dstc11-track5", config["split_fractions"], seed)
    if dataset == "begin":
        return load_begin(raw_root, config["faithful"])
    if dataset == "charp_offline":
        return load_charp_offline(raw_root, ROOT, config, seed)
    if dataset == "faithdial":
        return load_faithdial(raw_root / "faithdial", config["splits"])[0]
    valid, counts = load_faithdial(raw_root / "faithdial", ["valid"])
    return load_charp(raw_root / "charp", config["files"], valid.splits["valid"], counts["valid"])


def require_turns(dataset: str, result: LoadResult) -> None:
    """A build that keeps no turn fails (the previous data/dialogue/<dataset> stays): empty raw files must
    never replace a built dataset with an empty one."""
    if any(result.splits.values()):
        return
    read = {file: tally.read for file, tally in sorted(result.tallies.items())}
    reasons = sorted({r["reason"] for r in result.rejects})
    raise PipelineError(f"dataset '{dataset}': no turn kept ({sum(read.values())} rows read"
                        + (f", rejected as {', '.join(reasons)}" if reasons else "")
                        + f"); data/dialogue/{dataset} is left as it was")
