"""The history probe (CHARP §4-5): every system answers both forms of each example, the easy one whose last user
turn is self-contained (eCHARP) and the hard one whose last turn needs the history (hCHARP), with history full.
Each metric gets its hard - easy difference over the same examples (paired bootstrap). A model that ignores the
history answers the easy form right and the hard one from the distracting fact; a metric notices that when it
moves the way the judge's correct share does."""
from __future__ import annotations

import random
from pathlib import Path

from tasks.charp.cells import CONTROL, GOLD, Cell
from tasks.charp.data import load_turns
from tasks.charp.grid_scores import cell_metrics, judge_grid
from tasks.charp.history_effect import cell_intervals, judge_correct, judge_flags, paired_rows
from tasks.errors import InputError

HISTORY = "full"


def pair_key(turn_id: str, split: str) -> str:
    """The id an example's two forms share: the turn id without its split prefix ('hcharp:dstc11:7' -> 'dstc11:7')."""
    prefix = f"{split}:"
    return turn_id[len(prefix):] if turn_id.startswith(prefix) else turn_id


def probe_forms(data: Path, params: dict) -> tuple[dict[str, list[dict]], dict[str, int]]:
    """({form: turns}, counts) of charp.probe: the easy and the hard split of its dataset at history full, the
    examples found in both forms (at most probe.size, seeded), in the same order in both; counts: paired examples
    and the turns of each form left out because the other form lacks them."""
    probe = params["probe"]
    forms = {split: {pair_key(t["id"], split): t for t in load_turns(data, probe["dataset"], split, HISTORY, None,
                                                                     params["seed"])}
             for split in (probe["easy"], probe["hard"])}
    easy, hard = forms[probe["easy"]], forms[probe["hard"]]
    keys = sorted(easy.keys() & hard.keys())
    if not keys:
        raise InputError(f"data/dialogue/{probe['dataset']}: no example has both a {probe['easy']} and a "
                         f"{probe['hard']} form (charp.probe)")
    if probe["size"] is not None and probe["size"] < len(keys):
        keys = sorted(random.Random(f"{params['seed']}:probe").sample(keys, probe["size"]))
    counts = {"examples": len(keys), **{f"unpaired_{split}": len(f.keys() - (easy.keys() & hard.keys()))
                                        for split, f in forms.items()}}
    return {split: [f[k] for k in keys] for split, f in forms.items()}, counts


def probe_cells(forms: dict[str, list[dict]], predictions: dict[Cell, dict[str, list[str]]]
                ) -> dict[str, dict[Cell, tuple[list[dict], list[str]]]]:
    """{form: {cell: (turns, predictions)}} from each system's predictions per form (in the forms' turn order)."""
    return {split: {cell: (turns, by_form[split]) for cell, by_form in predictions.items()}
            for split, turns in forms.items()}


def score_form(cells: dict[Cell, tuple[list[dict], list[str]]], params: dict, root: Path) -> dict:
    """The automatic metrics, the judge and the intervals of one form's cells (with the gold and control cells):
    {"results", "per_turn", "judged", "judge_stats", "client_failures"}; each per-turn series keyed by pair id."""
    results, per_turn = cell_metrics(cells, params["metrics"], params["seed"])
    judged, stats, failures = judge_grid(cells, params, root) if params["judge"]["enabled"] else ({}, {}, {})
    for cell, verdicts in judged.items():
        turns = len(per_turn[cell]["ids"])
        per_turn[cell]["judge"] = judge_flags(verdicts, turns)
        per_turn[cell]["judge_correct"] = judge_correct(verdicts, turns)
    for cell, ci in cell_intervals(per_turn, params["seed"]).items():
        results[cell].update(ci)
    split = next(iter(cells.values()))[0][0]["split"] if cells else ""
    for turns in per_turn.values():
        turns["ids"] = [pair_key(i, split) for i in turns["ids"]]
    return {"results": results, "per_turn": per_turn, "judged": judged, "judge_stats": stats,
            "client_failures": failures}


def form_effects(easy: dict[Cell, dict], hard: dict[Cell, dict], seed: int) -> list[dict]:
    """Per system (and the gold responses, and their control) and metric: the value on each form and the paired
    bootstrap difference hard - easy over the examples scored on both."""
    rows = []
    for cell in sorted(easy.keys() & hard.keys(), key=lambda c: (c.system in (GOLD, CONTROL), c)):
        for r in paired_rows(easy[cell], hard[cell], seed):
            rows.append({"system": cell.system, "train_h": cell.train_h, "metric": r["metric"], "turns": r["turns"],
                         "easy": r["first"], "hard": r["second"], "diff": r["diff"], "ci": r["ci"], "p": r["p"]})
    return rows


def score_probe(forms: dict[str, list[dict]], predictions: dict[Cell, dict[str, list[str]]], params: dict,
                root: Path) -> dict:
    """Each form scored (score_form) and the hard - easy effects: {"easy": split, "hard": split, "forms": {split:
    scores}, "effects": rows}."""
    probe = params["probe"]
    scored = {split: score_form(cells, params, root) for split, cells in probe_cells(forms, predictions).items()}
    effects = form_effects(scored[probe["easy"]]["per_turn"], scored[probe["hard"]]["per_turn"], params["seed"])
    return {"easy": probe["easy"], "hard": probe["hard"], "forms": scored, "effects": effects}
