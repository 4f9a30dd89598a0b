"""`detect` in shards: detector x evaluation set x a slice of at most detect.shard_rows rows (null: the whole
set). The plan depends on params only, never on the task runner, and results are merged in plan order, so
the local runner and a Dask cluster give byte-identical outputs (model batches, and int8 activation scales,
form inside a shard)."""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace

from tasks.detectors.registry import build_detector, pair_only
from tasks.detectors.run import applicable_rows, idle_figures, run_detector
from tasks.models.client import check_client_failures, client_label, lost_in_client, summed_failures
from tasks.scoring.eval_sets import EvalSet

COUNTED = ("examples", "no_answer")  # per-shard run figures that add up


@dataclass
class Shard:
    detector: str
    spec: dict
    eval_set: EvalSet  # name, kind and scenario; rows: this shard's only
    index: int
    pair_only: bool = False  # registry.pair_only: nothing to run on a binary set

    @property
    def key(self) -> str:
        return f"{self.detector}.{self.eval_set.name}.{self.index}"

    @property
    def idle(self) -> dict | None:
        """This shard's run figures when it has nothing to run (its model is not loaded, and it holds no gpu
        slot); None when it has work."""
        return idle_figures(self.pair_only, self.eval_set, self.eval_set.rows)


def plan(detectors: dict, sets: dict[str, EvalSet], seed: int, shard_rows: int | None,
         llm_params: dict | None = None) -> list[Shard]:
    """Shards of every non-vote detector on every set, in params order; an empty selection is one empty shard
    (so every detector reports every set). ``llm_params``: the LLM prompt detectors' client."""
    if shard_rows is not None and (not isinstance(shard_rows, int) or isinstance(shard_rows, bool) or shard_rows < 1):
        raise ValueError(f"detect.shard_rows: a positive integer or null, not {shard_rows!r}")
    shards = []
    for name, spec in detectors.items():
        if spec["kind"] == "vote":
            continue
        for eval_set in sets.values():
            rows = applicable_rows(eval_set, spec, seed)
            step = shard_rows or max(len(rows), 1)
            for index, start in enumerate(range(0, max(len(rows), 1), step)):
                shard_set = replace(eval_set, rows=rows[start:start + step], tally=None)
                shards.append(Shard(name, spec, shard_set, index, pair_only(spec, llm_params)))
    return shards


_DETECTORS: dict[str, tuple[object, threading.Lock]] = {}
_LOADING = threading.Lock()  # model loading is not thread-safe (transformers' empty-weight init)


def _detector(name: str, spec: dict, llm_params: dict) -> tuple[object, threading.Lock]:
    """One detector object per process and configuration (models load once per worker, not per shard), with
    the lock its shards hold while they use it: tokenizers and answer counters are not shared safely."""
    key = repr((name, sorted(spec.items()), sorted((llm_params or {}).items())))
    with _LOADING:
        if key not in _DETECTORS:
            _DETECTORS[key] = build_detector(name, spec, llm_params), threading.Lock()
    return _DETECTORS[key]


def _client_counts(detector) -> dict:
    client = getattr(detector, "client", None)
    return {} if client is None else {"unparsable": detector.unparsable, **client.failures}


def run_shard(shard: Shard, llm_params: dict) -> tuple[list[dict], dict, dict]:
    """Output rows, run figures and the LLM answer counts (unparsable, client failures) of one shard."""
    if shard.idle is not None:
        return [], shard.idle, {}
    detector, in_use = _detector(shard.detector, shard.spec, llm_params)
    with in_use:
        before = _client_counts(detector)
        rows, figures = run_detector(detector, shard.eval_set, shard.eval_set.rows)
        after = _client_counts(detector)
    return rows, figures, {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0)}


def merge(shards: list[Shard], results: list[tuple[list[dict], dict, dict]]) -> tuple[list[dict], dict]:
    """All output rows in plan order, and per detector: per set the summed figures (timings dropped: they vary
    run to run), plus unparsable_answers and client_failures for LLM detectors."""
    rows, stats = [], {}
    for shard, (out, figures, counts) in zip(shards, results):
        rows += out
        mine = stats.setdefault(shard.detector, {})
        merged = mine.setdefault(shard.eval_set.name, {})
        for key, value in figures.items():
            if key in COUNTED:
                merged[key] = merged.get(key, 0) + value
            elif key == "skipped":
                merged[key] = value
        if shard.spec["kind"] == "llm_prompt":
            mine["unparsable_answers"] = mine.get("unparsable_answers", 0) + counts.get("unparsable", 0)
            mine["client_failures"] = summed_failures(mine.get("client_failures", {}),
                                                      {k: n for k, n in counts.items() if k != "unparsable"})
    return rows, stats


def check_clients(detectors: dict, stats: dict, set_names: list[str], llm_params: dict) -> None:
    """The client-failure rule (tasks/models/client.py) per LLM prompt detector, in params order, over the
    examples of every set it ran on (merged figures of ``merge``), before anything is written."""
    for name, spec in detectors.items():
        mine = stats.get(name, {})
        if spec["kind"] != "llm_prompt" or "client_failures" not in mine:
            continue
        total = sum(mine.get(s, {}).get("examples", 0) for s in set_names)
        check_client_failures("detect", lost_in_client(mine["client_failures"]), total, f"examples of {name}",
                              client_label(llm_params))
