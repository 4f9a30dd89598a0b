"""Scores of every CHARP grid cell: the automatic metrics (with the gold responses' own scores per
evaluation history, CHARP Table 4) and the LLM judge's categories, and the summary written to results.json."""
from __future__ import annotations

from tasks.charp.cells import Cell
from tasks.charp.judge import judge
from tasks.charp.metrics import bertscore_f1, bleu, critic_rate
from tasks.charp.report import category_counts

Cells = dict[Cell, tuple[list[dict], list[str]]]


def cell_metrics(cells: Cells, metrics: dict) -> dict[Cell, dict]:
    """BLEU and BERTScore F1 against gold, BERTScore against the knowledge and the critic's hallucination
    rate per cell; plus one gold cell per evaluation history scoring the gold response against the knowledge."""
    bs = (metrics["bertscore_model"], metrics["bertscore_layers"])
    results: dict[Cell, dict] = {}
    for cell, (turns, preds) in cells.items():
        gold, knowledge = [t["response"] for t in turns], [t["knowledge"] for t in turns]
        results[cell] = {"n": len(preds), "bleu": bleu(preds, gold), "bertscore_gold": bertscore_f1(preds, gold, *bs),
                         "bertscore_knowledge": bertscore_f1(preds, knowledge, *bs),
                         "critic": critic_rate(knowledge, preds, metrics["critic"])}
        if cell.gold() not in results:
            results[cell.gold()] = {"n": len(gold), "bleu": None, "bertscore_gold": None,
                                    "bertscore_knowledge": bertscore_f1(gold, knowledge, *bs),
                                    "critic": critic_rate(knowledge, gold, metrics["critic"])}
    return results


def judge_cells(cells: Cells, examples: dict, client, max_per_cell: int | None, retries: int
                ) -> tuple[dict[Cell, list], dict[Cell, dict]]:
    """The judge's categories for the first ``max_per_cell`` predictions of each cell, and its figures."""
    judged, stats = {}, {}
    for cell, (turns, preds) in cells.items():
        judged[cell], stats[cell] = judge(list(zip(turns, preds))[:max_per_cell], examples, client, retries)
    return judged, stats


def summary(results: dict[Cell, dict], judged: dict[Cell, list], judge_stats: dict[Cell, dict],
            client_failures: dict) -> dict:
    """results.json: metrics and judge figures by cell name."""
    return {"cells": {str(c): r for c, r in results.items()},
            "judge": {str(c): {"categories": category_counts(v), **judge_stats[c]} for c, v in judged.items()},
            "judge_client_failures": client_failures}


def metrics_json(results: dict[Cell, dict]) -> dict:
    """metrics/charp.json: the metrics that have a value, by cell name."""
    return {str(c): {m: v for m, v in r.items() if v is not None} for c, r in results.items()}
