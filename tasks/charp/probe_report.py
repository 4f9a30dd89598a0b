"""The history probe's report (data/charp/probe/): one table of every system on both forms with the hard - easy
difference per metric, the judge's categories per form (Tables 5-6), a plot of each metric on the two forms, and
one paragraph stating, from the figures, which metrics notice the history failures the judge finds."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tasks.charp.cells import CONTROL, GOLD, NO_TRAINING, Cell
from tasks.charp.report import HEAD, category_counts, judge_table, series_colours
from tasks.io import save_png
from tasks.scoring.intervals import interval, resample_indices

NAMES = {**HEAD, "judge_correct": "Judge: correct (category 1)", "judge": "Judge: hallucination category"}
AUTOMATIC = ("bleu", "bertscore_gold", "bertscore_knowledge", "critic")
WORSE_WHEN_HIGHER = frozenset({"critic", "judge"})  # the others are better when higher
PLOTTED = (*AUTOMATIC, "judge_correct")


def system_label(system: str, train_h: str) -> str:
    return system if train_h == NO_TRAINING else f"{system} (train h={train_h})"


def _ci(ci) -> str:
    return f"[{ci[0]}, {ci[1]}]" if ci else "[–, –]"


def _v(value) -> str:
    return "–" if value is None else f"{value:.4g}"


def effects_table(effects: list[dict], easy: str, hard: str) -> str:
    """Rows (system, metric): the value on each form, hard - easy with its paired 95% interval, p, examples."""
    lines = [f"| system | metric | {easy} | {hard} | {hard} - {easy} [95% CI] | p | examples |", "|---" * 7 + "|"]
    for r in effects:
        lines.append(f"| {system_label(r['system'], r['train_h'])} | {NAMES[r['metric']]} | {_v(r['easy'])} | "
                     f"{_v(r['hard'])} | {_v(r['diff'])} {_ci(r['ci'])} | {_v(r['p'])} | {r['turns']} |")
    return "\n".join(lines)


def _worse(row: dict) -> bool:
    """The hard form's value is significantly worse than the easy one's (the interval excludes 0)."""
    if not row["ci"]:
        return False
    return row["ci"][0] > 0 if row["metric"] in WORSE_WHEN_HIGHER else row["ci"][1] < 0


def finding(effects: list[dict], easy: str, hard: str) -> str:
    """One paragraph per system, from the figures: does the judge find history failures (its correct share lower
    on the hard form, interval below 0), and which automatic metrics move with it (worse on the hard form, interval
    excluding 0). CHARP §5's finding is reproduced where the judge notices and the automatic metrics do not."""
    by_system: dict[tuple[str, str], dict[str, dict]] = {}
    for r in effects:
        if r["system"] not in (GOLD, CONTROL):
            by_system.setdefault((r["system"], r["train_h"]), {})[r["metric"]] = r
    out = []
    for (system, train_h), rows in by_system.items():
        judge = rows.get("judge_correct")
        noticed = [NAMES[m] for m in AUTOMATIC if m in rows and _worse(rows[m])]
        missed = [NAMES[m] for m in AUTOMATIC if m in rows and not _worse(rows[m])]
        name = system_label(system, train_h)
        if judge is None or judge["diff"] is None:
            out.append(f"{name}: no judge figures, so no history failures to compare the metrics with.")
            continue
        found = judge["ci"] is not None and judge["ci"][1] < 0
        head = (f"{name}: the judge's correct share is {_v(judge['easy'])} on {easy} and {_v(judge['hard'])} on {hard} "
                f"({_v(judge['diff'])} {_ci(judge['ci'])}), so it "
                + ("finds history failures" if found else "finds no significant history failure") + ". ")
        tail = (f"Worse on {hard} as well: {', '.join(noticed) or 'none'}; no significant change: "
                f"{', '.join(missed) or 'none'}.")
        verdict = ""
        if found and not noticed:
            verdict = " The paper's finding holds here: no automatic metric notices what the judge finds."
        elif found and missed:
            verdict = f" The paper's finding holds for {', '.join(missed)} only."
        elif found:
            verdict = " The paper's finding does not hold here: every automatic metric notices."
        out.append(head + tail + verdict)
    return "\n\n".join(out)


def form_judge_tables(scored: dict[str, dict]) -> str:
    """The judge's category distribution per form (Tables 5-6): one table per form, a column per system."""
    parts = []
    for split, scores in scored.items():
        if scores["judged"]:
            parts += [f"\n{split}:\n", judge_table(scores["judged"],
                                                   label=lambda c: system_label(c.system, c.train_h))]
    return "\n".join(parts)


def plot_forms(scored: dict[str, dict], path: Path, seed: int) -> None:
    """One panel per metric: its value on each form (x) with the 95% bootstrap interval, a line per system; the
    judge's correct share from the per-turn verdicts, its interval over resampled judged turns (``seed``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    splits = list(scored)
    colours = series_colours({c: None for s in scored.values() for c in s["results"]})
    fig, axes = plt.subplots(1, len(PLOTTED), figsize=(3.4 * len(PLOTTED), 3.6))
    for ax, metric in zip(axes, PLOTTED):
        for (system, train_h), colour in colours.items():
            cell = Cell(system, train_h, "full")
            values = [metric_value(scored[s], cell, metric, seed) for s in splits]
            if all(v is None for v in values):
                continue
            ys = [np.nan if v is None else v[0] for v in values]
            ax.plot(splits, ys, marker="o", color=colour)
            bars = [(s, v[0], v[1]) for s, v in zip(splits, values) if v is not None and v[1]]
            if bars:
                xs, centre, ci = zip(*bars)
                ax.errorbar(xs, centre, yerr=np.abs(np.array(ci).T - np.array(centre)), fmt="none", ecolor=colour,
                            capsize=3, alpha=0.6)
        ax.set_title(NAMES[metric], fontsize=9)
    handles = [plt.Line2D([], [], color=c, marker="o", label=system_label(s, h)) for (s, h), c in colours.items()]
    fig.legend(handles=handles, loc="lower center", ncol=min(6, len(handles)), fontsize=7)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    save_png(fig, path)


def metric_value(scores: dict, cell: Cell, metric: str, seed: int) -> tuple[float, list[float] | None] | None:
    """(value, 95% interval) of a cell's metric on one form. The judge's correct share is over its judged turns,
    the interval a percentile bootstrap over them: flags [1, 1, 0, nan] give 0.6667 and about [0.0, 1.0]."""
    if metric == "judge_correct":
        flags = np.asarray(scores["per_turn"].get(cell, {}).get("judge_correct") or [], dtype=float)
        usable = flags[~np.isnan(flags)]
        if not len(usable):
            return None
        return float(usable.mean()), interval(usable[resample_indices(len(usable), seed)].mean(1))
    found = scores["results"].get(cell, {})
    return None if found.get(metric) is None else (found[metric], found.get(f"{metric}_ci"))


def probe_text(params: dict, probe: dict, counts: dict) -> str:
    """data/charp/probe/README.md."""
    easy, hard = probe["easy"], probe["hard"]
    return "\n".join([
        "# CHARP history probe\n",
        f"Every system answers both forms of {counts['examples']} examples of {params['probe']['dataset']} with the "
        f"full history: {easy}, whose last user turn is self-contained, and {hard}, whose last turn needs the "
        f"history. The knowledge holds the relevant fact and a distracting one. Differences are paired over the "
        f"same examples (1,000 bootstrap resamples). Critic: {params['metrics']['critic']['name']}.\n",
        effects_table(probe["effects"], easy, hard),
        "\n## What the metrics notice\n", finding(probe["effects"], easy, hard),
        "\n## Judge categories per form (Tables 5-6)\n", form_judge_tables(probe["forms"]), ""])


def probe_json(probe: dict, counts: dict) -> dict:
    """results.json: counts, each form's metrics by cell name, the judge's categories
    per form and cell, and the effects."""
    forms = {split: {"cells": {str(c): r for c, r in s["results"].items()},
                     "judge": {str(c): {"categories": category_counts(v), **s["judge_stats"][c]}
                               for c, v in s["judged"].items()},
                     "judge_client_failures": s["client_failures"]}
             for split, s in probe["forms"].items()}
    return {**counts, "easy": probe["easy"], "hard": probe["hard"], "forms": forms, "effects": probe["effects"]}


def probe_metrics(probe: dict, counts: dict) -> dict:
    """metrics/charp_probe.json: the examples and, per system and metric, the value on each form and hard - easy."""
    out: dict = {"examples": counts["examples"]}
    for r in probe["effects"]:
        out.setdefault(f"{r['system']}.train-h-{r['train_h']}", {})[r["metric"]] = {
            k: r[k] for k in ("easy", "hard", "diff") if r[k] is not None}
    return out
