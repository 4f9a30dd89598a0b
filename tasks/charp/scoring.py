"""Scores of every CHARP grid cell: the automatic metrics (with the gold responses' own scores per
evaluation history, CHARP Table 4, and their control with mismatched knowledge), the LLM judge's categories,
and the summary written to results.json."""
from __future__ import annotations

import numpy as np

from tasks.charp.cells import Cell
from tasks.charp.judge import judge_figures, judge_items
from tasks.charp.metrics import bertscore_f1, bleu, critic_flags, critic_rate
from tasks.charp.report import category_counts
from tasks.scoring.intervals import paired_test, resample_indices

Cells = dict[Cell, tuple[list[dict], list[str]]]


def cell_metrics(cells: Cells, metrics: dict, seed: int) -> dict[Cell, dict]:
    """BLEU and BERTScore F1 against gold, BERTScore against the knowledge and the critic's hallucination
    rate per cell; plus, per evaluation history, a gold cell scoring the gold responses against their
    knowledge (CHARP Table 4) and a control cell scoring them against another turn's knowledge, with the
    paired bootstrap difference of the critic rates (control - gold)."""
    bs = (metrics["bertscore_model"], metrics["bertscore_layers"])
    results: dict[Cell, dict] = {}
    for cell, (turns, preds) in cells.items():
        gold, knowledge = [t["response"] for t in turns], [t["knowledge"] for t in turns]
        results[cell] = {"n": len(preds), "bleu": bleu(preds, gold), "bertscore_gold": bertscore_f1(preds, gold, *bs),
                         "bertscore_knowledge": bertscore_f1(preds, knowledge, *bs),
                         "critic": critic_rate(knowledge, preds, metrics["critic"])}
        if cell.gold() not in results:
            results.update(_gold_and_control(cell, gold, knowledge, metrics, seed))
    return results


def mismatched(knowledge: list[str]) -> list[str]:
    """Each turn's knowledge replaced by that of the turn half the list away (the next one with other text)."""
    n = len(knowledge)
    others = ((knowledge[(i + n // 2 + k) % n] for k in range(n)) for i in range(n))
    return [next((o for o in candidates if o != own), own) for own, candidates in zip(knowledge, others)]


def _gold_and_control(cell: Cell, gold: list[str], knowledge: list[str], metrics: dict, seed: int
                      ) -> dict[Cell, dict]:
    bs = (metrics["bertscore_model"], metrics["bertscore_layers"])
    other = mismatched(knowledge)
    own_flags = np.array(critic_flags(knowledge, gold, metrics["critic"]), dtype=float)
    other_flags = np.array(critic_flags(other, gold, metrics["critic"]), dtype=float)
    idx = np.vstack([np.arange(len(gold)), resample_indices(len(gold), seed)])
    delta = paired_test(other_flags[idx].mean(1), own_flags[idx].mean(1))
    empty = {"bleu": None, "bertscore_gold": None}
    return {cell.gold(): {"n": len(gold), **empty, "bertscore_knowledge": bertscore_f1(gold, knowledge, *bs),
                          "critic": round(float(own_flags.mean()), 4)},
            cell.control(): {"n": len(gold), **empty, "bertscore_knowledge": bertscore_f1(gold, other, *bs),
                             "critic": round(float(other_flags.mean()), 4),
                             "critic_minus_gold": delta["diff"], "critic_minus_gold_ci": delta["ci"]}}


def judge_cells(cells: Cells, examples: dict, client, max_per_cell: int | None, retries: int
                ) -> tuple[dict[Cell, list], dict[Cell, dict]]:
    """The judge's categories for the first ``max_per_cell`` predictions of each cell, and its figures per
    cell; every cell's predictions go to the client at once."""
    picked = {cell: list(zip(turns, preds))[:max_per_cell] for cell, (turns, preds) in cells.items()}
    result, asked_again = judge_items([item for items in picked.values() for item in items], examples, client,
                                      retries)
    judged, stats, start = {}, {}, 0
    for cell, items in picked.items():
        end = start + len(items)
        judged[cell], stats[cell] = result[start:end], judge_figures(result[start:end], asked_again[start:end])
        start = end
    return judged, stats


def summary(results: dict[Cell, dict], judged: dict[Cell, list], judge_stats: dict[Cell, dict],
            client_failures: dict) -> dict:
    """results.json: metrics and judge figures by cell name."""
    return {"cells": {str(c): r for c, r in results.items()},
            "judge": {str(c): {"categories": category_counts(v), **judge_stats[c]} for c, v in judged.items()},
            "judge_client_failures": client_failures}


def metrics_json(results: dict[Cell, dict]) -> dict:
    """metrics/charp.json: the metrics that have a single value, by cell name."""
    return {str(c): {m: v for m, v in r.items() if v is not None and not isinstance(v, list)}
            for c, r in results.items()}
