"""CHARP results: automatic metrics per grid cell (Tables 1-4 layout: rows systems and their training
history, columns evaluation history), the judge's category distribution per system and cell (Tables
5-6), and a plot of each metric against the evaluation history."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tasks.charp.cells import CONTROL, GOLD, NO_TRAINING, Cell
from tasks.charp.curves import curves_text
from tasks.io import save_png

METRICS = ("bleu", "bertscore_gold", "bertscore_knowledge", "critic")
HEAD = {"bleu": "BLEU", "bertscore_gold": "BERTScore gold", "bertscore_knowledge": "BERTScore knowledge",
        "critic": "Critic"}


def _h_order(h: str) -> tuple[int, int, str]:
    """A total order of history values: full first, then by turns, most first; equal counts by spelling
    (e.g. full, 3, 2, 0)."""
    return (0, 0, h) if h == "full" else (1, -int(h), h)


def _eval_hs(cells) -> list[str]:
    return sorted({c.eval_h for c in cells}, key=_h_order)


def _systems(cells) -> list[tuple[str, str]]:
    """(system, train h) pairs, gold and its control last."""
    return sorted({(c.system, c.train_h) for c in cells}, key=lambda s: (s[0] in (GOLD, CONTROL), s))


def summary_table(cells: dict[Cell, dict], critic_name: str) -> str:
    """Rows (system, train h), columns metric per evaluation history; the gold rows last."""
    eval_hs = _eval_hs(cells)
    systems = _systems(cells)
    header = ["system", "train h"] + [f"{HEAD[m]} (h={h})" for h in eval_hs for m in METRICS]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for system, train_h in systems:
        vals = []
        for h in eval_hs:
            m = cells.get(Cell(system, train_h, h), {})
            vals += ["–" if m.get(k) is None else f"{m[k]:.2f}" for k in METRICS]
        lines.append("| " + " | ".join([system, train_h, *vals]) + " |")
    return (f"Critic: {critic_name}. BERTScore: F1 of the prediction against the gold response and against the "
            "knowledge; the gold rows score the gold response against the knowledge (Table 4).\n\n" + "\n".join(lines))


def control_text(results: dict[Cell, dict]) -> str:
    """The critic's control: gold responses with another turn's knowledge against the same responses with
    their own, per evaluation history, with the paired bootstrap interval of the difference."""
    lines = ["\nCritic control (the gold responses, each paired with another turn's knowledge): a critic that "
             "reads the knowledge flags these more often than the gold rows.\n",
             "| eval h | critic, gold | critic, control | control - gold [95% CI] |", "|---|---|---|---|"]
    for cell in sorted((c for c in results if c.system == CONTROL), key=lambda c: _h_order(c.eval_h)):
        m, g = results[cell], results.get(Cell(GOLD, NO_TRAINING, cell.eval_h), {})
        ci = m.get("critic_minus_gold_ci") or ["–", "–"]
        lines.append(f"| {cell.eval_h} | {g.get('critic', '–')} | {m['critic']} | "
                     f"{m['critic_minus_gold']} [{ci[0]}, {ci[1]}] |")
    return "\n".join(lines)


def history_text(history: dict) -> str:
    """The eval h=0 - h=full differences with their intervals, and the judge-critic agreement."""
    lines = ["\n## History effect (eval h=0 - h=full, the same turns)\n",
             "A model that uses the conversation history scores differently without it; an interval that holds 0 "
             "shows no effect at this number of turns.\n",
             "| system | train h | metric | turns | h=full | h=0 | h=0 - h=full [95% CI] | p |", "|---" * 8 + "|"]
    for r in history["deltas"]:
        ci = r["ci"] or ["–", "–"]
        name = HEAD.get(r["metric"], "Judge: hallucination category")
        lines.append(f"| {r['system']} | {r['train_h']} | {name} | {r['turns']} | {_value(r['full'])} | "
                     f"{_value(r['0'])} | {_value(r['diff'])} [{ci[0]}, {ci[1]}] | {_value(r['p'])} |")
    k = history["judge_vs_critic"]
    lines.append(f"\nJudge vs critic (Cohen's kappa over {k['n']} judged predictions; the judge's categories 2, 6 and "
                 f"7 count as hallucinated): {_value(k['kappa'])}; the judge flags {k['judge_flags']}, the critic "
                 f"{k['critic_flags']}.")
    return "\n".join(lines)


def _value(v) -> str:
    return "–" if v is None else str(v)


def cell_label(cell: Cell) -> str:
    return f"{cell.system} (train h={cell.train_h}, eval h={cell.eval_h})"


def judge_table(judged: dict[Cell, list[list[int] | None]], label: Callable[[Cell], str] = cell_label) -> str:
    """Share of judged predictions per category (a prediction may fall in several) per system/cell, each column
    named by ``label``."""
    cols = sorted(judged)
    labels = [label(c) for c in cols]
    lines = ["| category | " + " | ".join(labels) + " |", "|" + "---|" * (len(cols) + 1)]
    for c in range(1, 8):
        row = []
        for col in cols:
            usable = [j for j in judged[col] if j is not None]
            row.append(f"{100 * sum(c in j for j in usable) / len(usable):.0f}%" if usable else "–")
        lines.append(f"| {c} | " + " | ".join(row) + " |")
    lines.append("| unparsable | " + " | ".join(str(sum(j is None for j in judged[col])) for col in cols) + " |")
    return "\n".join(lines)


def category_counts(judged: list[list[int] | None]) -> dict[str, int]:
    return dict(sorted(Counter(str(c) for j in judged if j for c in j).items()))


def series_colours(cells: dict[Cell, dict]) -> dict[tuple[str, str], str]:
    """One colour per (system, train h) series, the same in every panel (tab10, in sorted order, gold last)."""
    from matplotlib import colormaps

    keys = _systems(cells)
    palette = colormaps["tab10" if len(keys) <= 10 else "tab20"].colors
    return {key: palette[i % len(palette)] for i, key in enumerate(keys)}


def plot_metrics(cells: dict[Cell, dict], path: Path) -> None:
    """One panel per metric: its value against the evaluation history with its 95% bootstrap interval as a bar, a
    line per system and train h, each series one colour in every panel and in the one legend (a series with no
    value in a panel is absent there)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    eval_hs = _eval_hs(cells)
    colours = series_colours(cells)
    fig, axes = plt.subplots(1, len(METRICS), figsize=(4 * len(METRICS), 3.6))
    for ax, metric in zip(axes, METRICS):
        for (system, train_h), colour in colours.items():
            found = [cells.get(Cell(system, train_h, h), {}) for h in eval_hs]
            ys = [float("nan") if m.get(metric) is None else m[metric] for m in found]
            if all(np.isnan(ys)):
                continue
            ax.plot(eval_hs, ys, marker="o", color=colour)
            bars = [(h, y, m[f"{metric}_ci"]) for h, y, m in zip(eval_hs, ys, found) if m.get(f"{metric}_ci")]
            if bars:
                xs, centre, ci = zip(*bars)
                err = np.abs(np.array(ci).T - np.array(centre))
                ax.errorbar(xs, centre, yerr=err, fmt="none", ecolor=colour, capsize=3, alpha=0.6)
        ax.set_title(HEAD[metric], fontsize=9)
        ax.set_xlabel("evaluation history h")
    handles = [plt.Line2D([], [], color=c, marker="o", label=s if h == NO_TRAINING else f"{s} (train h={h})")
               for (s, h), c in colours.items()]
    fig.legend(handles=handles, loc="lower center", ncol=min(6, len(handles)), fontsize=7)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    save_png(fig, path)


def judge_method(params: dict) -> str:
    """One line naming how the categories were decided."""
    if params["judge"]["method"] == "rubric":
        return ("Rubric judge (`tasks/charp/rubric_judge.py`): each category decided from measured evidence "
                "(agreement with the gold, the knowledge sentences used, copied knowledge, stated ignorance, facts "
                "found nowhere in the turn), standing in offline for the paper's GPT-4 judge.")
    client = params["judge"]["client"]
    return f"LLM judge: the checklist prompt through {client['backend']} model {client[client['backend']]['model']}."


def report_text(params: dict, results: dict[Cell, dict], judged: dict[Cell, list], human: dict | None,
                history: dict, curves: dict[str, dict]) -> str:
    """data/charp/reports/README.md: the data, the generators' training, the metrics table, the judge table and
    the human agreement."""
    data = (f"Trained on {params['dataset']} ({params['splits']['train']}); evaluated on {params['eval_dataset']} "
            f"({params['splits']['eval']}, {params['subsets']['eval'] or 'all'} turns per cell).\n")
    text = ["# CHARP experiments\n", data, summary_table(results, params["metrics"]["critic"]["name"]),
            control_text(results), history_text(history)] + ([curves_text(curves)] if curves else [])
    if judged:
        text += ["\n## Judge (Appendix C.3 categories)\n", judge_method(params) + "\n", judge_table(judged)]
    if human:
        agreement = (f"Cohen's kappa: {human['pairwise']}; Fleiss' kappa: {human.get('fleiss', '–')}; "
                     f"judge vs human: {human['judge_vs_human_kappa']}.")
        text += ["\n## Human evaluation\n", agreement]
    return "\n".join(text) + "\n"
