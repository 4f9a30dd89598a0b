"""The hypothesis-only artifact check of a built dataset: the source-blind fluency detector decides which
of hyp1/hyp2 is hallucinated without the source; its pair F1 per split and direction/language, and per
type, go into the dataset card. Near chance (0.5) means the hallucination cannot be spotted from the
hypotheses alone."""
from __future__ import annotations

from collections import defaultdict

from tasks.detectors.hypothesis_only import FluencyDetector
from tasks.hallucigen.select import detection_row
from tasks.scoring.intervals import RESAMPLES
from tasks.scoring.results import pair_metrics_ci


def _figures(decisions: list[tuple[str, str | None]], seed: int) -> dict:
    """n, F1 with its 95% bootstrap interval (seeded), and accuracy of (gold, decision) pairs."""
    m = pair_metrics_ci([{"gold": g, "prediction": p} for g, p in decisions], {"seed": seed, "resamples": RESAMPLES})
    return {"n": m["n"], "f1": m["f1"], "f1_ci": m["ci"]["f1"], "accuracy": m["accuracy"]}


def source_blind_report(rows: list[dict], params: dict) -> dict:
    """{"by_split": {"split/langpair": figures}, "by_type": {"split/langpair/type": figures}, "target_f1"}."""
    spec = params["source_blind"]
    views = [detection_row(r, params["seed"]) for r in rows]
    detector = FluencyDetector("source-blind", spec["model"], spec["batch_size"], spec["dtype"])
    decisions = detector.decide([""] * len(views), [v["hyp1"] for v in views], [v["hyp2"] for v in views])
    groups: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
    by_type: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
    for v, pred in zip(views, decisions):
        groups[f"{v['split']}/{v['langpair']}"].append((v["label"], pred))
        by_type[f"{v['split']}/{v['langpair']}/{v['type']}"].append((v["label"], pred))
    return {"model": spec["model"], "dtype": spec["dtype"], "target_f1": spec["target_f1"],
            "by_split": {k: _figures(g, params["seed"]) for k, g in sorted(groups.items())},
            "by_type": {k: _figures(g, params["seed"]) for k, g in sorted(by_type.items())}}


def card_lines(report: dict | None) -> list[str]:
    """The card section: F1 per split and direction/language (against the target), and per type (test); a line
    saying it was not run when the build switched it off."""
    if report is None:
        return ["## Source-blind artifact check", "", "Not run in this build (`source_blind.enabled: false`).", ""]
    target = report["target_f1"]
    intro = (f"A detector that sees only hyp1 and hyp2 (mean token surprisal under `{report['model']}` in "
             f"{report.get('dtype', 'float32')}; the less "
             "probable hypothesis is called hallucinated) should stay near chance (F1 0.5). Target: F1 <= "
             f"{target} on every split and direction/language (`tasks/hallucigen/source_blind.py`), read off F1 "
             "itself; its 95% bootstrap interval shows how much that figure varies over resamples of the examples.")
    lines = ["## Source-blind artifact check", "", intro, "",
             "| split | langpair | n | F1 | F1 95% CI | accuracy | within target |", "|---|---|---|---|---|---|---|"]
    for key, f in report["by_split"].items():
        split, langpair = key.split("/")
        ci = "–" if f["f1_ci"] is None else f"{f['f1_ci'][0]}–{f['f1_ci'][1]}"
        lines.append(f"| {split} | {langpair} | {f['n']} | {f['f1']} | {ci} | {f['accuracy']} | "
                     f"{'yes' if f['f1'] <= target else 'NO'} |")
    test = {k.split("/", 1)[1]: f for k, f in report["by_type"].items() if k.startswith("test/")}
    langpairs = sorted({k.split("/")[0] for k in test})
    types = sorted({k.split("/")[1] for k in test})
    lines += ["", "Per type, test split (F1, n in brackets):", "",
              "| type | " + " | ".join(langpairs) + " |", "|---" * (len(langpairs) + 1) + "|"]
    for t in types:
        cells = [f"{test[f'{lp}/{t}']['f1']} ({test[f'{lp}/{t}']['n']})" if f"{lp}/{t}" in test else "–"
                 for lp in langpairs]
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    return lines + [""]
