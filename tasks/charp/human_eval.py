"""Human evaluation: a blind annotation sheet (CSV: shuffled, system names hidden behind item ids, the
seven category checkboxes) with a separate key, filled sheets read back, agreement between annotators
(Cohen's kappa pairwise, Fleiss' kappa for three or more) and between the judge and the humans, and a
normalised judge-vs-human contingency heatmap (CHARP Figure 2). Agreement is computed over the binary
(item, category) decisions of the checklist."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
from sklearn.metrics import cohen_kappa_score

from tasks.charp.cells import Cell
from tasks.charp.formatting import history_lines
from tasks.errors import InputError
from tasks.io import save_png
from tasks.sheets import item_id as sheet_item_id
from tasks.sheets import read_filled_sheet, write_blind_sheet

CATS = [f"cat_{c}" for c in range(1, 8)]
SHEET_FIELDS = ["item", "history", "knowledge", "response", "prediction", *CATS]


def item_id(cell: Cell, turn_id: str) -> str:
    return sheet_item_id(str(cell), turn_id)


def sheet_items(cells: dict[Cell, tuple[list[dict], list[str]]], per_cell: int | None) -> list[dict]:
    """The first ``per_cell`` predictions of every cell as sheet items {cell, turn, prediction, pos}."""
    return [{"cell": cell, "turn": t, "prediction": p, "pos": pos}
            for cell, (turns, preds) in cells.items() for pos, (t, p) in enumerate(list(zip(turns, preds))[:per_cell])]


def export_sheet(items: list[dict], seed: int, sheet: Path, key: Path) -> None:
    """items: {cell, turn, prediction}. The sheet shows no system; the key maps items back."""
    rows = [{"item": item_id(it["cell"], it["turn"]["id"]), "history": "\n".join(history_lines(it["turn"]["history"])),
             "knowledge": it["turn"]["knowledge"], "response": it["turn"]["response"], "prediction": it["prediction"],
             "system": it["cell"].system, "cell": str(it["cell"]), "turn_id": it["turn"]["id"]} for it in items]
    write_blind_sheet(rows, SHEET_FIELDS, ["item", "system", "cell", "turn_id"], seed, sheet, key)


def read_sheet(path: Path) -> dict[str, frozenset[int]]:
    """{item: ticked categories} of a filled sheet; a tick is 1/x/yes/true; rows with no tick are errors."""
    out = {}
    for n, row in read_filled_sheet(path, CATS):
        ticked = frozenset(k for k, c in enumerate(CATS, 1)
                           if str(row[c]).strip().lower() in ("1", "x", "yes", "true"))
        if not ticked:
            raise InputError(f"{path}: row {n}: item {row['item']} has no category ticked")
        out[row["item"]] = ticked
    return out


def _binary(labels: dict[str, frozenset[int]], items: list[str]) -> list[int]:
    return [int(c in labels[i]) for i in items for c in range(1, 8)]


def cohen(a: dict[str, frozenset[int]], b: dict[str, frozenset[int]]) -> float:
    """Cohen's kappa over the (item, category) decisions of the items both labelled."""
    items = sorted(set(a) & set(b))
    x, y = _binary(a, items), _binary(b, items)
    return round(float(cohen_kappa_score(x, y)), 4) if len(set(x) | set(y)) > 1 else 1.0


def fleiss(ratings: np.ndarray) -> float:
    """Fleiss' kappa of a subjects x categories count matrix (every row sums to the number of raters)."""
    n = ratings.sum(axis=1)[0]
    p_j = ratings.sum(axis=0) / ratings.sum()
    p_i = ((ratings ** 2).sum(axis=1) - n) / (n * (n - 1))
    p_bar, p_e = p_i.mean(), (p_j ** 2).sum()
    return round(float((p_bar - p_e) / (1 - p_e)), 4) if p_e < 1 else 1.0


def agreement(sheets: dict[str, dict[str, frozenset[int]]]) -> dict:
    """Pairwise Cohen's kappa, and Fleiss' kappa over the items every annotator labelled (2+ annotators)."""
    out = {"pairwise": {f"{a}~{b}": cohen(sheets[a], sheets[b]) for a, b in combinations(sorted(sheets), 2)}}
    if len(sheets) >= 2:
        items = sorted(set.intersection(*(set(s) for s in sheets.values())))
        counts = np.array([[sum(int(c in s[i]) for s in sheets.values()) for c in range(1, 8)] for i in items])
        out["fleiss"] = fleiss(np.stack([len(sheets) - counts.ravel(), counts.ravel()], axis=1))
    return out


def majority(sheets: dict[str, dict[str, frozenset[int]]]) -> dict[str, frozenset[int]]:
    """Per item, the categories more than half of its annotators ticked (at least one: the most ticked)."""
    out = {}
    for item in sorted(set().union(*sheets.values())):
        votes = [s[item] for s in sheets.values() if item in s]
        counts = {c: sum(c in v for v in votes) for c in range(1, 8)}
        chosen = frozenset(c for c, k in counts.items() if k * 2 > len(votes))
        out[item] = chosen or frozenset([max(counts, key=lambda c: (counts[c], -c))])
    return out


def contingency(judge: dict[str, frozenset[int]], human: dict[str, frozenset[int]]) -> np.ndarray:
    """7x7 row-normalised percentages: judge category (rows) against human category (columns)."""
    table = np.zeros((7, 7))
    for item in set(judge) & set(human):
        for j in judge[item]:
            for h in human[item]:
                table[j - 1, h - 1] += 1
    sums = table.sum(axis=1, keepdims=True)
    return np.divide(100 * table, sums, out=np.zeros_like(table), where=sums > 0)


def plot_heatmap(table: np.ndarray, title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4.4))
    im = ax.imshow(table, cmap="Blues", vmin=0, vmax=100)
    for i in range(7):
        for j in range(7):
            ax.text(j, i, f"{table[i, j]:.0f}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(7), [str(c) for c in range(1, 8)])
    ax.set_yticks(range(7), [str(c) for c in range(1, 8)])
    ax.set_xlabel("human category")
    ax.set_ylabel("judge category")
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, label="% of judge row")
    fig.tight_layout()
    save_png(fig, path)


def judge_labels(items: list[dict], judged: dict[Cell, list]) -> dict[str, frozenset[int]]:
    """The judge's categories by sheet item id, for the sheet items the judge labelled."""
    out = {}
    for it in items:
        labels = judged.get(it["cell"], [])
        if it["pos"] < len(labels) and labels[it["pos"]]:
            out[item_id(it["cell"], it["turn"]["id"])] = frozenset(labels[it["pos"]])
    return out


def compare_with_humans(items: list[dict], judged: dict[Cell, list], sheets: dict[str, Path], heatmap: Path) -> dict:
    """Agreement between the filled sheets and between the judge and the humans' majority; the judge-vs-human
    heatmap is written to ``heatmap`` and its table (% of each judge row) returned with the figures."""
    filled = {name: read_sheet(path) for name, path in sheets.items()}
    by_judge, humans = judge_labels(items, judged), majority(filled)
    table = contingency(by_judge, humans)
    plot_heatmap(table, "judge vs human categories (%)", heatmap)
    return {**agreement(filled), "judge_vs_human_kappa": cohen(by_judge, humans), "judged_items": len(by_judge),
            "judge_vs_human_table": np.round(table, 2).tolist()}
