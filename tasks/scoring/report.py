"""Reports in the overview's layout (rows: detectors; columns: directions or languages), as markdown,
PNG plots (F1 by detector and direction; confusion matrices) and rows for a Prefect table artifact."""
from __future__ import annotations

from pathlib import Path

from tasks.io import save_png
from tasks.scoring.difficulty import NOTE, SCENARIOS, difficulty_rows, scenario_sets
from tasks.scoring.metrics import NO_ANSWER, PAIR_LABELS, confusion
from tasks.scoring.results import ALL, BY_TYPE

METRICS = ("accuracy", "precision", "recall", "f1", "mcc", "kappa")
RANKING = ("auroc", "spearman")


def _table(header: list[str], rows: list[list]) -> str:
    fmt = [" | ".join(str(c) if not isinstance(c, float) else f"{c:.2f}" for c in row) for row in [header] + rows]
    return "\n".join([f"| {fmt[0]} |", "|" + "---|" * len(header)] + [f"| {line} |" for line in fmt[1:]])


def with_ci(m: dict, key: str) -> str:
    """A metric with its 95% bootstrap interval, e.g. "0.75 [0.70, 0.80]"; "–" where undefined."""
    value = m.get(key)
    if value is None:
        return "–"
    ci = m.get("ci", {}).get(key)
    return f"{value:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else f"{value:.2f}"


def _columns(dets: dict) -> list[str]:
    return sorted({lp for m in dets.values() for lp in m if lp not in (ALL, "threshold", BY_TYPE)})


def set_tables(name: str, dets: dict, note: str) -> str:
    """F1 (AUROC too on binary sets) by direction/language, then every metric over the whole set, each with
    its 95% bootstrap interval, for one evaluation set."""
    cols = _columns(dets)
    binary = any("threshold" in m for m in dets.values())
    keys = ("f1", "auroc") if binary else ("f1",)
    by_col = "\n\n".join(
        f"{key.upper() if key == 'auroc' else 'F1'} by direction / language:\n\n" + _table(
            ["detector", *cols], [[d, *[with_ci(m[c], key) if m.get(c, {}).get("n") else "–" for c in cols]]
                                  for d, m in dets.items()]) for key in keys)
    metrics = METRICS + (RANKING if binary else ())
    full = _table(["detector", "n", *metrics, "no answer", "threshold"],
                  [[d, m[ALL]["n"], *[with_ci(m[ALL], k) for k in metrics], m[ALL].get("no_answer", "–"),
                    m.get("threshold", "–")] for d, m in dets.items() if m[ALL].get("n")])
    return f"## {name}\n\n{note}\n\n{by_col}\n\nWhole set:\n\n{full}\n"


def difficulty_section(res: dict) -> str:
    """The "## Difficulty" section (tasks/scoring/difficulty.py): per HalluciGen scenario with a scored set, a
    table of each detector's F1 per type on the built test beside its F1 on human-labelled data, then the reading
    rule; "" where no scenario has a scored set. E.g. a row "| a | 0.83 (n=40) | 0.80 (n=60) | 0.71 (n=36) |"."""
    parts = []
    for scenario in SCENARIOS:
        table = difficulty_rows(res, scenario)
        if table is None:
            continue
        test, trial, binary = scenario_sets(scenario)
        human = f"`{trial}`" + (f" and `{binary}` (binary)" if binary else "")
        parts.append(f"### {scenario}\n\nBuilt test: `{test}`; human-labelled: {human}.\n\n{_table(*table)}\n\n"
                     f"{NOTE}\n")
    if not parts:
        return ""
    return "\n".join(["## Difficulty\n", "Each detector's F1 per hallucination type on the built test split, beside "
                      "its F1 on the whole built test and on human-labelled pairs (the published HalluciGen trial "
                      "items) and, for paraphrase, its F1 at the tuned threshold and AUROC on SHROOM val. Cells: F1 "
                      "(n = examples); – where the set or detector is missing.\n", *parts])


def ensemble_text(ens: dict) -> str:
    """The calibrated ensemble beside its members on each binary set's held-out items, and its weights."""
    weights = ", ".join(f"{m} {c:+.3f}" for m, c in zip(ens["members"], ens["coef"]))
    parts = ["## Calibrated ensemble\n",
             f"A logistic-regression stack over the members' standardised scores (weights: {weights}; intercept "
             f"{ens['intercept']:+.3f}), fitted on {ens['tuning_items']} tuning items only; its threshold "
             f"{ens['threshold']} is tuned there too. Every row below is on the same held-out items.\n"]
    keys = ("auroc", "spearman", "accuracy", "f1")
    for name, dets in ens["held_out"].items():
        parts.append(f"### {name} (held-out items)\n\n" + _table(
            ["detector", "n", *keys], [[d, m["n"], *[with_ci(m, k) for k in keys]] for d, m in dets.items()]) + "\n")
    return "\n".join(parts)


def paired_table(name: str, tests: dict) -> str:
    """The paired bootstrap tests of one set: difference, its 95% interval, two-sided p."""
    rows = [[pair, t["n"], t["metric"], "–" if t["diff"] is None else f"{t['diff']:+.3f}",
             f"[{t['ci'][0]:+.3f}, {t['ci'][1]:+.3f}]" if t["ci"] else "–", "–" if t["p"] is None else f"{t['p']:.3f}"]
            for pair, t in tests.items()]
    return f"### {name}\n\n" + _table(["detectors", "n", "metric", "difference", "95% interval", "p"], rows) + "\n"


def off_section(off: dict[str, str]) -> str:
    """The "## Detectors off" section: each detector switched off with a reason (params off_because)."""
    lines = [f"- `{name}`: {why}" for name, why in sorted(off.items())]
    return "## Detectors off in this profile\n\n" + "\n".join(lines) + "\n" if lines else ""


def markdown(res: dict, params: dict, off: dict[str, str] | None = None) -> str:
    parts = ["# Detector scores\n",
             ("Pair sets: which of hyp1/hyp2 is hallucinated; precision/recall/F1 are macro averages over the classes "
              "hyp1 and hyp2, and a missing or unusable answer is classified as the wrong hypothesis. Binary sets: one "
              "hypothesis, positive class *hallucinated*, score >= threshold; thresholds tuned on "
              f"`{params['threshold_tuning_set']}` only; AUROC of the score, and Spearman's rho between the score and "
              "the annotators' p(Hallucination) where the set has it (SHROOM). Brackets: 95% percentile bootstrap "
              f"interval ({params['bootstrap']['resamples']} resamples of the examples).\n")]
    if off and (section := off_section(off)):
        parts.append(section)
    if difficulty := difficulty_section(res):
        parts.append(difficulty)
    for name, dets in res["detection"].items():
        parts.append(set_tables(name, dets, "Pair set."))
    for name, dets in res["binary"].items():
        parts.append(set_tables(name, dets, "Binary set (detectors without a per-hypothesis score are not listed)."))
    if res["cross_model"]:
        parts.append("## Cross-model evaluation\n\nF1 against the generator's own labels; kappa: mean Cohen's kappa "
                     "with the other evaluators on the same examples.\n")
        for name, dets in res["cross_model"].items():
            cols = sorted({lp for d in dets.values() for lp in d["f1"] if lp != ALL})
            parts.append(f"### {name}\n\n" + _table(["detector", *cols, "avg kappa"], [
                [d, *[v["f1"].get(c, "–") for c in cols], v["avg_kappa"] if v["avg_kappa"] is not None else "–"]
                for d, v in dets.items()]) + "\n")
    if res.get("ensemble") and "skipped" not in res["ensemble"]:
        parts.append(ensemble_text(res["ensemble"]))
    if any(res.get("paired", {}).values()):
        parts.append("## Paired bootstrap tests\n\nPer pair of detectors on the examples both ran on, over the same "
                     "resamples: the difference of F1 (pair sets) or AUROC (binary sets), first minus second, its 95% "
                     "interval and the two-sided p-value.\n")
        parts.extend(paired_table(name, tests) for name, tests in res["paired"].items() if tests)
    gen = res["generation"]
    if gen.get("generators"):
        parts.append(f"## Generation (proxy: {gen['proxy']}, threshold {gen['threshold']})\n\nhyp+: share judged "
                     "faithful; hyp-: share judged hallucinated (overview Tables 4 and 6).\n")
        cols = sorted({lp for g in gen["generators"].values() for lp in g})
        parts.append(_table(["generator", *[f"{c} {h}" for c in cols for h in ("hyp+", "hyp-")]], [
            [g, *[v[c][h] if c in v else "–" for c in cols for h in ("hyp+", "hyp-")]]
            for g, v in gen["generators"].items()]) + "\n")
    return "\n".join(parts)


def artifact_rows(res: dict) -> list[dict]:
    """One row per set and detector (whole set), for the Prefect table artifact."""
    return [{"eval_set": name, "detector": det, **{k: m[ALL].get(k) for k in ("n", "accuracy", "f1", "mcc", "kappa")}}
            for section in ("detection", "binary") for name, dets in res[section].items() for det, m in dets.items()]


LEVEL_STYLES = {"chance": ("dimgray", ":"), "majority": ("black", "--")}


def f1_bars(dets: dict, col: str) -> tuple[list[float], list[list[float]]]:
    """F1 of every detector in column ``col`` and its error bars [below, above] from the 95% interval (none
    where the interval is undefined)."""
    vals = [m.get(col, {}).get("f1", 0.0) for m in dets.values()]
    cis = [m.get(col, {}).get("ci", {}).get("f1") or (v, v) for m, v in zip(dets.values(), vals)]
    below = [max(v - lo, 0.0) for v, (lo, _) in zip(vals, cis)]
    return vals, [below, [max(hi - v, 0.0) for v, (_, hi) in zip(vals, cis)]]


def plot_f1(name: str, dets: dict, path: Path, levels: dict[str, float] | None = None) -> None:
    """Grouped bars: F1 per detector, one bar per direction/language, with its 95% bootstrap interval; levels
    (chance, majority) as lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = _columns(dets) or [ALL]
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(dets) * max(1, len(cols)) / 2), 4))
    width = 0.8 / len(cols)
    for k, c in enumerate(cols):
        vals, err = f1_bars(dets, c)
        ax.bar([i + k * width for i in range(len(dets))], vals, width, label=c, yerr=err, capsize=2,
               error_kw={"elinewidth": 0.8, "ecolor": "black"})
    ax.set_xticks([i + width * (len(cols) - 1) / 2 for i in range(len(dets))], list(dets), rotation=30, ha="right")
    for level, value in (levels or {}).items():
        colour, style = LEVEL_STYLES[level]
        ax.axhline(value, color=colour, linestyle=style, linewidth=1, label=f"{level} ({value:.2f})")
    ax.set_ylim(0, 1)
    ax.set_ylabel("F1")
    ax.set_title(f"{name}: F1 by detector and direction")
    ax.legend(fontsize=7, ncol=min(4, len(cols)))
    fig.tight_layout()
    save_png(fig, path)


def plot_confusions(name: str, outputs: list[dict], tuned: dict, path: Path) -> None:
    """One confusion matrix per detector (pair sets: gold hyp1/hyp2 vs hyp1/hyp2/none)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pair = outputs[0]["gold"] in PAIR_LABELS
    dets = sorted({o["detector"] for o in outputs if pair or o["detector"] in tuned})
    if not dets:
        return
    fig, axes = plt.subplots(1, len(dets), figsize=(2.6 * len(dets), 2.8), squeeze=False)
    for ax, det in zip(axes[0], dets):
        rows = [o for o in outputs if o["detector"] == det]
        if pair:
            gold_labels, pred_labels = PAIR_LABELS, PAIR_LABELS + [NO_ANSWER]
            pred = [o["prediction"] or NO_ANSWER for o in rows]
        else:
            gold_labels = pred_labels = ["faithful", "hallucinated"]
            pred = ["hallucinated" if o["score_1"] >= tuned[det] else "faithful" for o in rows]
        cm = confusion([o["gold"] for o in rows], pred, pred_labels)[: len(gold_labels)]
        ax.imshow(cm, cmap="Blues")
        for i, line in enumerate(cm):
            for j, v in enumerate(line):
                ax.text(j, i, str(v), ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(pred_labels)), pred_labels, fontsize=7)
        ax.set_yticks(range(len(gold_labels)), gold_labels, fontsize=7)
        ax.set_title(det, fontsize=8)
    fig.suptitle(f"{name}: gold (rows) vs predicted (columns)", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)

