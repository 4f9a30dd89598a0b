"""The generators' learning curves: the validation loss before training and after every epoch, the training
loss per epoch, read from the `charp_train` metrics (metrics/charp/train.<system>.h-<h>.json), as a table for
the CHARP report and a plot (learning_curves.png)."""
from __future__ import annotations

import json
from pathlib import Path

from tasks.errors import InputError
from tasks.io import save_png

EPOCH_KEYS = ("epoch", "train_loss", "valid_loss", "best")


def load_curves(metrics_dir: Path) -> dict[str, dict]:
    """{'<system> (train h=<h>)': training metrics} of every trained generator, in file-name order. A record
    whose epochs lack a key (one an older charp_train wrote) is an error naming the file and the key."""
    out = {}
    for path in sorted(Path(metrics_dir).glob("train.*.json")):
        system, h = path.name[len("train."):-len(".json")].rsplit(".h-", 1)
        stats = json.loads(path.read_text())
        for k, epoch in enumerate(stats.get("epochs") or [None]):
            missing = [key for key in EPOCH_KEYS if not isinstance(epoch, dict) or key not in epoch]
            if missing:
                raise InputError(f"{path}: epochs[{k}] has no {missing[0]!r} (rerun dvc repro charp_train)")
        out[f"{system} (train h={h})"] = stats
    return out


def curves_text(curves: dict[str, dict]) -> str:
    """The report's training section: turns, validation loss untrained and at the best epoch, the drop."""
    lines = ["\n## Generator training (validation loss)\n",
             "| system | train turns | valid turns | untrained | best | best epoch | drop |", "|---|" + "---:|" * 6]
    for name, c in curves.items():
        best = next(e for e in c["epochs"] if e["best"])
        before = c.get("untrained_valid_loss")
        drop = "–" if before is None else f"{before - best['valid_loss']:.4f}"
        lines.append(f"| {name} | {c['train_turns']} | {c['valid_turns']} | {'–' if before is None else before} | "
                     f"{best['valid_loss']} | {best['epoch']} | {drop} |")
    return "\n".join(lines) + "\n\nCurves: `learning_curves.png` (epoch 0: before training).\n"


def plot_curves(curves: dict[str, dict], path: Path) -> None:
    """Validation loss (solid, from epoch 0) and training loss (dashed) against the epoch, one colour per
    generator."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    for k, (name, c) in enumerate(curves.items()):
        colour = f"C{k % 10}"
        epochs = [e["epoch"] for e in c["epochs"]]
        valid = [e["valid_loss"] for e in c["epochs"]]
        if c.get("untrained_valid_loss") is not None:
            epochs, valid = [0, *epochs], [c["untrained_valid_loss"], *valid]
        ax.plot(epochs, valid, marker="o", color=colour, label=f"{name} valid")
        ax.plot([e["epoch"] for e in c["epochs"]], [e["train_loss"] for e in c["epochs"]], marker="x",
                linestyle="--", color=colour, label=f"{name} train")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("epoch (0: before training)")
    ax.set_ylabel("loss per response token")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_png(fig, path)
