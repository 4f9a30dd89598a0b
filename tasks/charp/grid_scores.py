"""Scores of every CHARP grid cell: the automatic metrics (with the gold responses' own scores per
evaluation history, CHARP Table 4, and their control with mismatched knowledge), the judge's categories,
and the summary written to results.json."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from tasks.charp.cells import Cell
from tasks.charp.history_effect import bleu_statistics, cell_intervals, history_deltas, judge_critic_kappa, judge_flags
from tasks.charp.judge import judge_figures, judge_items, load_examples
from tasks.charp.metrics import bertscore_items, bleu, critic_flags
from tasks.charp.report import category_counts
from tasks.charp.rubric_judge import RubricJudge, Thresholds
from tasks.models.client import make_client
from tasks.scoring.intervals import paired_test, resample_indices

Cells = dict[Cell, tuple[list[dict], list[str]]]
Decide = Callable[[list[tuple[dict, str]]], tuple[list[list[int] | None], list[int]]]


def cell_metrics(cells: Cells, metrics: dict, seed: int) -> tuple[dict[Cell, dict], dict[Cell, dict]]:
    """BLEU and BERTScore F1 against gold, BERTScore against the knowledge and the critic's hallucination
    rate per cell; plus, per evaluation history, a gold cell scoring the gold responses against their
    knowledge (CHARP Table 4) and a control cell scoring them against another turn's knowledge, with the
    paired bootstrap difference of the critic rates (control - gold). Also each cell's per-turn values
    (turn ids, BLEU statistics, BERTScores, critic flags), which the intervals resample."""
    bs = (metrics["bertscore_model"], metrics["bertscore_layers"])
    results: dict[Cell, dict] = {}
    per_turn: dict[Cell, dict] = {}
    for cell, (turns, preds) in cells.items():
        gold, knowledge = [t["response"] for t in turns], [t["knowledge"] for t in turns]
        flags = critic_flags(knowledge, preds, metrics["critic"])
        per_turn[cell] = {"ids": [t["id"] for t in turns], "bleu": bleu_statistics(preds, gold),
                          "bertscore_gold": bertscore_items(preds, gold, *bs),
                          "bertscore_knowledge": bertscore_items(preds, knowledge, *bs), "critic": flags}
        results[cell] = {"n": len(preds), "bleu": bleu(preds, gold),
                         "bertscore_gold": _mean(per_turn[cell]["bertscore_gold"]),
                         "bertscore_knowledge": _mean(per_turn[cell]["bertscore_knowledge"]), "critic": _mean(flags)}
        if cell.gold() not in results:
            gold_cells, gold_turns = _gold_and_control(cell, turns, metrics, seed)
            results.update(gold_cells)
            per_turn.update(gold_turns)
    return results, per_turn


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def mismatched(knowledge: list[str]) -> list[str]:
    """Each turn's knowledge replaced by that of the turn half the list away (the next one with other text)."""
    n = len(knowledge)
    others = ((knowledge[(i + n // 2 + k) % n] for k in range(n)) for i in range(n))
    return [next((o for o in candidates if o != own), own) for own, candidates in zip(knowledge, others)]


def _gold_and_control(cell: Cell, turns: list[dict], metrics: dict, seed: int
                      ) -> tuple[dict[Cell, dict], dict[Cell, dict]]:
    bs = (metrics["bertscore_model"], metrics["bertscore_layers"])
    gold, knowledge = [t["response"] for t in turns], [t["knowledge"] for t in turns]
    other = mismatched(knowledge)
    own_flags = critic_flags(knowledge, gold, metrics["critic"])
    other_flags = critic_flags(other, gold, metrics["critic"])
    idx = np.vstack([np.arange(len(gold)), resample_indices(len(gold), seed)])
    delta = paired_test(np.array(other_flags, dtype=float)[idx].mean(1), np.array(own_flags, dtype=float)[idx].mean(1))
    ids = [t["id"] for t in turns]
    own = {"ids": ids, "bertscore_knowledge": bertscore_items(gold, knowledge, *bs), "critic": own_flags}
    control = {"ids": ids, "bertscore_knowledge": bertscore_items(gold, other, *bs), "critic": other_flags}
    empty = {"bleu": None, "bertscore_gold": None}
    results = {cell.gold(): {"n": len(gold), **empty, "bertscore_knowledge": _mean(own["bertscore_knowledge"]),
                             "critic": _mean(own_flags)},
               cell.control(): {"n": len(gold), **empty, "bertscore_knowledge": _mean(control["bertscore_knowledge"]),
                                "critic": _mean(other_flags),
                                "critic_minus_gold": delta["diff"], "critic_minus_gold_ci": delta["ci"]}}
    return results, {cell.gold(): own, cell.control(): control}


def judge_cells(cells: Cells, decide: Decide, max_per_cell: int | None) -> tuple[dict[Cell, list], dict[Cell, dict]]:
    """The judge's categories for the first ``max_per_cell`` predictions of each cell, and its figures per
    cell; every cell's predictions go to ``decide`` at once (categories and times asked again per item)."""
    picked = {cell: list(zip(turns, preds))[:max_per_cell] for cell, (turns, preds) in cells.items()}
    result, asked_again = decide([item for items in picked.values() for item in items])
    judged, stats, start = {}, {}, 0
    for cell, items in picked.items():
        end = start + len(items)
        judged[cell], stats[cell] = result[start:end], judge_figures(result[start:end], asked_again[start:end])
        start = end
    return judged, stats


def judge_grid(cells: Cells, params: dict, root: Path) -> tuple[dict[Cell, list], dict[Cell, dict], dict[str, int]]:
    """The judge of the charp params over every cell: the rubric judge (``judge.method: rubric``) or the
    checklist prompt through the judge's own client (``llm``, its examples file relative to ``root``); judged
    predictions and figures per cell, and the LLM client's failures by reason."""
    j = params["judge"]
    if j["method"] == "rubric":
        rubric = RubricJudge(j["rubric"]["encoder"], Thresholds(**{k: v for k, v in j["rubric"].items()
                                                                   if k != "encoder"}))
        judged, stats = judge_cells(cells, rubric.decide, j["max_per_cell"])
        return judged, stats, {}
    client, examples = make_client(j["client"]), load_examples(root / j["examples"])
    judged, stats = judge_cells(cells, partial(judge_items, examples=examples, client=client, retries=j["retries"]),
                                j["max_per_cell"])
    return judged, stats, dict(sorted(client.failures.items()))


def history_effect(results: dict[Cell, dict], per_turn: dict[Cell, dict], judged: dict[Cell, list], seed: int
                   ) -> dict:
    """Each cell's metric intervals (added to ``results``), the judge's verdicts per turn (added to
    ``per_turn``), the eval h=0 - h=full differences and the judge-critic agreement."""
    for cell, verdicts in judged.items():
        per_turn[cell]["judge"] = judge_flags(verdicts, len(per_turn[cell]["ids"]))
    for cell, ci in cell_intervals(per_turn, seed).items():
        results[cell].update(ci)
    return {"deltas": history_deltas(per_turn, seed), "judge_vs_critic": judge_critic_kappa(per_turn)}


def summary(results: dict[Cell, dict], judged: dict[Cell, list], judge_stats: dict[Cell, dict],
            client_failures: dict, history: dict) -> dict:
    """results.json: metrics and judge figures by cell name, the history effect and the judge-critic kappa."""
    return {"cells": {str(c): r for c, r in results.items()},
            "judge": {str(c): {"categories": category_counts(v), **judge_stats[c]} for c, v in judged.items()},
            "judge_client_failures": client_failures, "history_deltas": history["deltas"],
            "judge_vs_critic": history["judge_vs_critic"]}


def metrics_json(results: dict[Cell, dict]) -> dict:
    """metrics/charp.json: the metrics that have a single value, by cell name."""
    return {str(c): {m: v for m, v in r.items() if v is not None and not isinstance(v, list)}
            for c, r in results.items()}
