"""From detector outputs to results: detection metrics per set, detector and direction/language; binary
sets with thresholds tuned on the tuning set only; generation quality by a proxy detector (overview
Tables 4 and 6: hyp+ judged faithful, hyp- judged hallucinated); agreement between detectors and the
cross-model view (F1 against the generator's labels, mean kappa with the other evaluators)."""
from __future__ import annotations

from collections import defaultdict

from tasks.scoring.metrics import binary_metrics, pair_metrics, pairwise_agreement, tune_threshold

ALL = "all"


def _group(rows: list[dict], key: str) -> dict[str, list[dict]]:
    out = defaultdict(list)
    for r in rows:
        out[r[key]].append(r)
    return dict(sorted(out.items()))


def is_pair_set(rows: list[dict]) -> bool:
    return bool(rows) and rows[0]["gold"] in ("hyp1", "hyp2")


def _by_langpair(rows: list[dict], metric) -> dict:
    return {ALL: metric(rows), **{lp: metric(rs) for lp, rs in _group(rows, "langpair").items()}}


def pair_results(rows: list[dict]) -> dict:
    return {det: _by_langpair(rs, lambda x: pair_metrics([r["gold"] for r in x], [r["prediction"] for r in x]))
            for det, rs in _group(rows, "detector").items()}


def thresholds(tuning_rows: list[dict]) -> dict[str, float]:
    """Per detector, the threshold tuned on the tuning set's scores."""
    return {det: tune_threshold([r["score_1"] for r in rs], [r["gold"] == "hallucinated" for r in rs])
            for det, rs in _group(tuning_rows, "detector").items() if rs}


def binary_results(rows: list[dict], tuned: dict[str, float]) -> dict:
    out = {}
    for det, rs in _group(rows, "detector").items():
        if det not in tuned:
            continue
        t = tuned[det]

        def metric(x, t=t):
            return binary_metrics([r["gold"] == "hallucinated" for r in x], [r["score_1"] >= t for r in x])
        out[det] = {"threshold": t, **_by_langpair(rs, metric)}
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


def cross_model(rows: list[dict]) -> dict:
    """Per detector: F1 against the generator's labels per langpair, and the mean kappa with the others."""
    metrics, pairwise = pair_results(rows), agreement(rows)
    out = {}
    for det, by_lp in metrics.items():
        kappas = [v["kappa"] for v in pairwise.get(det, {}).values()]
        out[det] = {"f1": {lp: m["f1"] for lp, m in by_lp.items()},
                    "avg_kappa": round(sum(kappas) / len(kappas), 4) if kappas else None}
    return out


def score_all(outputs: dict[str, list[dict]], params: dict, detector_kinds: dict[str, str]) -> dict:
    """Every result the reports show, from the detector outputs of each evaluation set."""
    tuned = thresholds(outputs.get(params["threshold_tuning_set"], []))
    res = {"thresholds": tuned, "detection": {}, "binary": {}, "agreement": {}, "cross_model": {}, "generation": {}}
    for name, rows in outputs.items():
        if name == params["threshold_tuning_set"] or not rows:
            continue
        if is_pair_set(rows):
            res["detection"][name] = pair_results(rows)
            res["agreement"][name] = agreement(rows)
        else:
            res["binary"][name] = binary_results(rows, tuned)
        if name.startswith("cross-model"):
            res["cross_model"][name] = cross_model(rows)
    proxy = params["generation_proxy"]
    if proxy in detector_kinds:
        t = 0.5 if detector_kinds[proxy] == "nli" else tuned.get(proxy)
        res["generation"] = {"proxy": proxy, "threshold": t, "generators": {}}
        for name, generator in params["generation_sets"].items():
            rows = [r for r in outputs.get(name, []) if r["detector"] == proxy]
            if rows and t is not None:
                res["generation"]["generators"][f"{generator} ({name})"] = generation_results(rows, t)
    return res


def headline_metrics(res: dict) -> dict:
    """The numbers DVC tracks and the nightly run compares: per set and detector, over all rows."""
    flat = {}
    for section in ("detection", "binary"):
        for name, dets in res[section].items():
            flat[name] = {det: {k: m[ALL][k] for k in ("accuracy", "f1", "mcc", "kappa") if k in m[ALL]}
                          for det, m in dets.items() if m[ALL].get("n")}
    return flat
