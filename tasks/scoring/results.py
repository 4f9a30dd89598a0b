"""From detector outputs to results: detection metrics per set, detector and direction/language; binary
sets with thresholds tuned on the tuning set only; generation quality by a proxy detector (overview
Tables 4 and 6: hyp+ judged faithful, hyp- judged hallucinated); agreement between detectors and the
cross-model view (F1 against the generator's labels, mean kappa with the other evaluators). Every metric
carries its 95% bootstrap interval (``ci``); binary sets add AUROC and, where the set has p(Hallucination),
SHROOM's Spearman rho; each pair of detectors gets a paired bootstrap test (F1 on pair sets, AUROC on binary
sets). Pair sets whose rows name their hallucination type add, per detector, the metrics of each type
(``by_type``, beside the per-langpair keys). The calibrated ensemble (tasks/scoring/ensemble.py) is scored beside
its members on held-out items."""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from tasks.scoring.ensemble import ensemble
from tasks.scoring.intervals import auroc, confusion_metrics, interval, paired_test, resample_indices, spearman
from tasks.scoring.metrics import PAIR_LABELS, binary_metrics, pair_metrics, pairwise_agreement, tune_threshold

ALL = "all"
BY_TYPE = "by_type"  # pair sets with typed rows: per detector, the metrics of each hallucination type


def _group(rows: list[dict], key: str, of=None) -> dict[str, list[dict]]:
    """Rows by their ``key`` value (by ``of(value)`` when given), in key order."""
    out = defaultdict(list)
    for r in rows:
        out[of(r[key]) if of else r[key]].append(r)
    return dict(sorted(out.items()))


def is_pair_set(rows: list[dict]) -> bool:
    return bool(rows) and rows[0]["gold"] in ("hyp1", "hyp2")


def _by(rows: list[dict], key: str, metric) -> dict:
    """``metric`` of each group of rows sharing ``key``, groups sorted; e.g. key "type" on rows of types date
    and tense: {"date": metric(date rows), "tense": metric(tense rows)}."""
    return {k: metric(rs) for k, rs in _group(rows, key).items()}


def _by_langpair(rows: list[dict], metric) -> dict:
    return {ALL: metric(rows), **_by(rows, "langpair", metric)}


def has_types(rows: list[dict]) -> bool:
    """Whether every row names its hallucination type (HalluciGen sets do: "date", "tense", ...)."""
    return bool(rows) and all(r.get("type") for r in rows)


def _pair_arrays(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(gold is hyp1, decision is hyp1), no answer counted as the wrong hypothesis."""
    gold = np.array([r["gold"] == "hyp1" for r in rows])
    said = np.array([r["prediction"] == "hyp1" if r["prediction"] in PAIR_LABELS else r["gold"] != "hyp1"
                     for r in rows])
    return gold, said


def _binary_arrays(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    return np.array([r["gold"] == "hallucinated" for r in rows]), np.array([r["score_1"] for r in rows], dtype=float)


def _p_hallucination(rows: list[dict]) -> np.ndarray | None:
    values = [r.get("p_hallucination") for r in rows]
    return None if any(v is None for v in values) else np.array(values, dtype=float)


def pair_metrics_ci(rows: list[dict], boot: dict) -> dict:
    """Pair metrics with the 95% bootstrap interval of each."""
    m = pair_metrics([r["gold"] for r in rows], [r["prediction"] for r in rows])
    gold, said = _pair_arrays(rows)
    idx = resample_indices(len(rows), boot["seed"], boot["resamples"])
    m["ci"] = {k: interval(v) for k, v in confusion_metrics(gold[idx], said[idx], macro=True).items()}
    return m


def binary_metrics_ci(rows: list[dict], threshold: float, boot: dict) -> dict:
    """Binary metrics at ``threshold``, AUROC and (with p(Hallucination)) Spearman rho, each with its 95%
    bootstrap interval; AUROC/rho None where undefined (one class, a constant side)."""
    gold, score = _binary_arrays(rows)
    m = binary_metrics(gold.tolist(), (score >= threshold).tolist())
    idx = resample_indices(len(rows), boot["seed"], boot["resamples"])
    boot_values = confusion_metrics(gold[idx], score[idx] >= threshold, macro=False)
    ranked = {"auroc": (auroc, gold)}
    p_hall = _p_hallucination(rows)
    if p_hall is not None:
        ranked["spearman"] = (spearman, p_hall)
    for name, (fn, other) in ranked.items():
        point = float(fn(other, score)[0]) if name == "auroc" else float(fn(score, other)[0])
        m[name] = None if np.isnan(point) else round(point, 4)
        boot_values[name] = fn(other[idx], score[idx]) if name == "auroc" else fn(score[idx], other[idx])
    m["ci"] = {k: interval(v) for k, v in boot_values.items()}
    return m


def pair_results(rows: list[dict], boot: dict) -> dict:
    return {det: _by_langpair(rs, lambda x: pair_metrics_ci(x, boot)) for det, rs in _group(rows, "detector").items()}


def type_results(rows: list[dict], boot: dict) -> dict:
    """Per detector, the pair metrics (with intervals) of each hallucination type, types sorted; e.g.
    {"a": {"date": {"n": 40, "f1": 0.83, "ci": {...}, ...}, "tense": {...}}}."""
    return {det: _by(rs, "type", lambda x: pair_metrics_ci(x, boot)) for det, rs in _group(rows, "detector").items()}


def thresholds(tuning_rows: list[dict]) -> dict[str, float]:
    """Per detector, the threshold tuned on the tuning set's scores."""
    return {det: tune_threshold([r["score_1"] for r in rs], [r["gold"] == "hallucinated" for r in rs])
            for det, rs in _group(tuning_rows, "detector").items() if rs}


def binary_results(rows: list[dict], tuned: dict[str, float], boot: dict) -> dict:
    out = {}
    for det, rs in _group(rows, "detector").items():
        if det not in tuned:
            continue
        t = tuned[det]
        out[det] = {"threshold": t, **_by_langpair(rs, lambda x, t=t: binary_metrics_ci(x, t, boot))}
    return out


def paired_tests(rows: list[dict], boot: dict, tuned: dict[str, float] | None = None) -> dict:
    """Per pair of detectors, on the examples both ran on: paired bootstrap test of F1 (pair sets) or AUROC
    (binary sets; detectors with a tuned threshold only)."""
    by_det = {det: {r["id"]: r for r in rs} for det, rs in _group(rows, "detector").items()
              if tuned is None or det in tuned}
    names, out = sorted(by_det), {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            common = sorted(set(by_det[a]) & set(by_det[b]))
            if len(common) < 2:
                continue
            idx = np.vstack([np.arange(len(common)), resample_indices(len(common), boot["seed"], boot["resamples"])])
            values = []
            for det in (a, b):
                det_rows = [by_det[det][k] for k in common]
                if tuned is None:
                    gold, said = _pair_arrays(det_rows)
                    values.append(confusion_metrics(gold[idx], said[idx], macro=True)["f1"])
                else:
                    gold, score = _binary_arrays(det_rows)
                    values.append(auroc(gold[idx], score[idx]))
            out[f"{a} vs {b}"] = {"n": len(common), "metric": "f1" if tuned is None else "auroc",
                                  **paired_test(*values)}
    return out


def generation_results(rows: list[dict], threshold: float) -> dict:
    """Share of hyp+ judged faithful and of hyp- judged hallucinated, per langpair (one proxy detector's rows)."""
    out = {}
    for lp, rs in _group(rows, "langpair").items():
        pos = [r["score_2"] if r["gold"] == "hyp1" else r["score_1"] for r in rs]
        neg = [r["score_1"] if r["gold"] == "hyp1" else r["score_2"] for r in rs]
        out[lp] = {"n": len(rs), "hyp+": round(sum(s < threshold for s in pos) / len(rs), 4),
                   "hyp-": round(sum(s >= threshold for s in neg) / len(rs), 4)}
    return out


def agreement(rows: list[dict]) -> dict:
    decisions = {det: {r["id"]: r["prediction"] for r in rs} for det, rs in _group(rows, "detector").items()}
    return pairwise_agreement(decisions)


def cross_model(rows: list[dict], boot: dict) -> dict:
    """Per detector: F1 against the generator's labels per langpair, and the mean kappa with the others."""
    metrics, pairwise = pair_results(rows, boot), agreement(rows)
    out = {}
    for det, by_lp in metrics.items():
        kappas = [v["kappa"] for v in pairwise.get(det, {}).values()]
        out[det] = {"f1": {lp: m["f1"] for lp, m in by_lp.items()},
                    "avg_kappa": round(sum(kappas) / len(kappas), 4) if kappas else None}
    return out


def score_all(outputs: dict[str, list[dict]], params: dict, detector_kinds: dict[str, str]) -> dict:
    """Every result the reports show, from the detector outputs of each evaluation set."""
    tuned = thresholds(outputs.get(params["threshold_tuning_set"], []))
    boot = params["bootstrap"]
    res = {"thresholds": tuned, "detection": {}, "binary": {}, "agreement": {}, "cross_model": {}, "generation": {},
           "paired": {}}
    for name, rows in outputs.items():
        if name == params["threshold_tuning_set"] or not rows:
            continue
        if is_pair_set(rows):
            res["detection"][name] = pair_results(rows, boot)
            if has_types(rows):
                for det, by_type in type_results(rows, boot).items():
                    res["detection"][name][det][BY_TYPE] = by_type
            res["agreement"][name] = agreement(rows)
            res["paired"][name] = paired_tests(rows, boot)
        else:
            res["binary"][name] = binary_results(rows, tuned, boot)
            res["paired"][name] = paired_tests(rows, boot, tuned)
        if name.startswith("cross-model"):
            res["cross_model"][name] = cross_model(rows, boot)
    if params["ensemble"]["enabled"] and tuned:
        res["ensemble"] = ensemble(outputs, params, tuned, sorted(res["binary"]),
                                   lambda rows, t: binary_metrics_ci(rows, t, boot))
    proxy = params["generation_proxy"]
    if proxy in detector_kinds:
        t = 0.5 if detector_kinds[proxy] == "nli" else tuned.get(proxy)
        res["generation"] = {"proxy": proxy, "threshold": t, "generators": {}}
        for name, generator in params["generation_sets"].items():
            rows = [r for r in outputs.get(name, []) if r["detector"] == proxy]
            by_system = _group(rows, "id", generation_system) if t is not None else {}
            for system, mine in by_system.items():
                label = f"{system} ({name})" if system else f"{generator} ({name})"
                res["generation"]["generators"][label] = generation_results(mine, t)
    return res


def generation_system(example_id: str) -> str:
    """The system and prompt a model-generated example came from, by its id ('llm:smollm2:mentions:fr-en:test:3'
    -> 'smollm2, mentions prompt'), so that each generator and prompt is its own row (overview Tables 4 and 6);
    '' for an example of another generator."""
    parts = example_id.split(":")
    return f"{parts[1]}, {parts[2]} prompt" if parts[0] == "llm" and len(parts) > 3 else ""


def headline_metrics(res: dict) -> dict:
    """The numbers DVC tracks and the nightly run compares: per set and detector, over all rows."""
    flat = {}
    for section in ("detection", "binary"):
        for name, dets in res[section].items():
            flat[name] = {det: {k: m[ALL][k] for k in ("accuracy", "f1", "mcc", "kappa", "auroc", "spearman")
                                if m[ALL].get(k) is not None}
                          for det, m in dets.items() if m[ALL].get("n")}
    return flat
