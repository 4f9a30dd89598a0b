"""CHARP results: automatic metrics per grid cell (Tables 1-4 layout: rows systems and their training
history, columns evaluation history), the judge's category distribution per system and cell (Tables
5-6), and a plot of each metric against the evaluation history."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from tasks.io import atomic_path

METRICS = ("bleu", "bertscore_gold", "bertscore_knowledge", "critic")
HEAD = {"bleu": "BLEU", "bertscore_gold": "BERTScore gold", "bertscore_knowledge": "BERTScore knowledge",
        "critic": "Critic"}


def _h_order(h: str) -> tuple[int, int]:
    return (0, 0) if h == "full" else (1, -int(h))


def summary_table(cells: dict[str, dict], critic_name: str) -> str:
    """cells: {"<system>|<train h>|<eval h>": metrics}; gold rows have system "gold"."""
    eval_hs = sorted({k.split("|")[2] for k in cells}, key=_h_order)
    systems = sorted({tuple(k.split("|")[:2]) for k in cells}, key=lambda s: (s[0] == "gold", s))
    header = ["system", "train h"] + [f"{HEAD[m]} (h={h})" for h in eval_hs for m in METRICS]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for system, train_h in systems:
        vals = []
        for h in eval_hs:
            m = cells.get(f"{system}|{train_h}|{h}", {})
            vals += ["–" if m.get(k) is None else f"{m[k]:.2f}" for k in METRICS]
        lines.append("| " + " | ".join([system, train_h, *vals]) + " |")
    return (f"Critic: {critic_name}. BERTScore: F1 of the prediction against the gold response and against the "
            "knowledge; the gold rows score the gold response against the knowledge (Table 4).\n\n" + "\n".join(lines))


def judge_table(judged: dict[str, list[list[int] | None]]) -> str:
    """Share of judged predictions per category (a prediction may fall in several) per system/cell."""
    cols = sorted(judged)
    labels = [f"{c.split('|')[0]} (train h={c.split('|')[1]}, eval h={c.split('|')[2]})" for c in cols]
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


def plot_metrics(cells: dict[str, dict], path: Path) -> None:
    """One panel per metric: its value against the evaluation history, a line per system and train h."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    eval_hs = sorted({k.split("|")[2] for k in cells}, key=_h_order)
    fig, axes = plt.subplots(1, len(METRICS), figsize=(4 * len(METRICS), 3.2))
    for ax, metric in zip(axes, METRICS):
        for key in sorted({tuple(k.split("|")[:2]) for k in cells}):
            ys = [cells.get(f"{key[0]}|{key[1]}|{h}", {}).get(metric) for h in eval_hs]
            if any(y is not None for y in ys):
                ax.plot(eval_hs, [y if y is not None else float("nan") for y in ys], marker="o",
                        label=f"{key[0]} ({key[1]})")
        ax.set_title(HEAD[metric], fontsize=9)
        ax.set_xlabel("evaluation history h")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
