"""The trained hypothesis-only probe of a built HalluciGen detection set: the annotation-artifact test of
Gururangan et al. (2018) and Poliak et al. (2018). Classifiers that never see the source decide which of
hyp1/hyp2 is the hallucinated one; chance is 0.5, and accuracy well above it (or far below it) means the
hallucination can be spotted from the hypotheses alone: the set has artifacts.

The source is used only to group the cross-validation folds (every example of one source, whatever its
split, lies in one fold), never as a feature. Classifiers:

- ``ngram``: logistic regression over the pair difference, +1 for a lowercased word unigram or bigram found
  only in hyp1, -1 for one found only in hyp2, and the token-length difference (hyp1 - hyp2) scaled by its
  spread in the training folds (feature ``length``);
- ``encoder``: logistic regression over emb(hyp1) - emb(hyp2) of a frozen sentence encoder (left out of
  the report when no ``embed`` is given);
- ``longer`` and ``less_shared``: untrained baselines; the longer hypothesis, or the one with the larger
  share of its own tokens missing from the other, is called hallucinated.

Both trained classifiers learn from every pair and its swapped copy (features negated, label flipped) with
no intercept, so the decision is antisymmetric: swapping hyp1 and hyp2 swaps the answer, and the position
of the hallucination cannot be learnt. A tie (a zero score) counts as half correct, for every classifier.

probe_report(translation_rows, {"folds": 5}, seed=0)["classifiers"]["longer"]["overall"]
-> {"n": 440, "accuracy": 0.6, "ci": [0.5818, 0.6193]} (trial + test of one built set)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import numpy as np
from scipy import sparse
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

from tasks.scoring.intervals import RESAMPLES, interval, resample_indices
from tasks.text import WORD

FOLDS = 5
CHANCE = 0.5
TOP_FEATURES = 10
LENGTH = "length"
ORDER = ("ngram", "encoder", "longer", "less_shared")
LABELS = ("hyp1", "hyp2")


def tokens(text: str) -> list[str]:
    """Lowercased ``\\w+`` tokens: tokens('The cat, sat.') -> ['the', 'cat', 'sat']."""
    return WORD.findall((text or "").lower())


def ngrams(toks: list[str]) -> set[str]:
    """Word unigrams and bigrams (space-joined): ngrams(['a', 'b']) -> {'a', 'b', 'a b'}."""
    return set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:])}


def pair_ngrams(hyp1: str, hyp2: str) -> dict[str, float]:
    """+1 for each n-gram found only in hyp1, -1 for each found only in hyp2 (shared ones dropped):
    pair_ngrams('it is red', 'it was red') -> {'is': 1, 'it is': 1, 'is red': 1, 'was': -1, ...}."""
    a, b = ngrams(tokens(hyp1)), ngrams(tokens(hyp2))
    return {**{g: 1.0 for g in a - b}, **{g: -1.0 for g in b - a}}


def _labels(rows: list[dict]) -> np.ndarray:
    """1 where hyp1 is the hallucinated one, 0 where hyp2 is; any other label is an error."""
    bad = sorted({str(r["label"]) for r in rows} - set(LABELS))
    if bad:
        raise ValueError(f"artifact probe: labels must be 'hyp1' or 'hyp2', got {bad}")
    return np.array([1 if r["label"] == "hyp1" else 0 for r in rows])


def fold_of(rows: list[dict], folds: int = FOLDS) -> list[int]:
    """The cross-validation fold of each row by GroupKFold over source items: rows that share a text (the source,
    or either hypothesis, stripped) are one item, in any split and direction, since PAWS-X gives fr-en and de-en
    the same English sentence and its edit; fewer folds when there are fewer items (at least 2):
    fold_of([{'source': 'a', 'hyp1': 'x', 'hyp2': 'y'}, {'source': 'b', 'hyp1': 'x', 'hyp2': 'z'},
    {'source': 'c', 'hyp1': 'u', 'hyp2': 'v'}], 2) -> [0, 0, 1] (or [1, 1, 0])."""
    groups = np.array(_items(rows))
    k = min(folds, len(set(groups.tolist())))
    if k < 2:
        raise ValueError(f"artifact probe: {k} distinct source item(s), need at least 2 for cross-validation")
    out = np.zeros(len(rows), dtype=int)
    for i, (_, test) in enumerate(GroupKFold(n_splits=k).split(np.zeros((len(rows), 1)), groups=groups)):
        out[test] = i
    return out.tolist()


def _items(rows: list[dict]) -> list[int]:
    """Per row, the smallest row index it is linked to by a shared text (union-find over source, hyp1, hyp2)."""
    parent = list(range(len(rows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, r in enumerate(rows):
        for text in (str(r.get(k, "")).strip() for k in ("source", "hyp1", "hyp2")):
            if text:
                j = first.setdefault(text, i)
                a, b = find(i), find(j)
                parent[max(a, b)] = min(a, b)
    return [find(i) for i in range(len(rows))]


def _fit(x, y: np.ndarray, spec: dict, seed: int, solver: str) -> LogisticRegression:
    """Logistic regression without intercept on the pairs and their swapped copies (-x, 1 - y)."""
    stack = sparse.vstack if sparse.issparse(x) else np.vstack
    model = LogisticRegression(C=spec.get("C", 1.0), solver=solver, fit_intercept=False, random_state=seed,
                               max_iter=spec.get("max_iter", 1000))
    return model.fit(stack([x, -x]), np.concatenate([y, 1 - y]))


def _ngram_scores(rows: list[dict], y: np.ndarray, fold: np.ndarray, spec: dict,
                  seed: int) -> tuple[np.ndarray, list[dict]]:
    """Out-of-fold scores of the n-gram classifier (> 0: hyp1 hallucinated) and its top features, the weights
    averaged over folds (a feature absent from a fold's vocabulary weighs 0 there)."""
    grams = [pair_ngrams(r["hyp1"], r["hyp2"]) for r in rows]
    lengths = np.array([len(tokens(r["hyp1"])) - len(tokens(r["hyp2"])) for r in rows], dtype=float)
    scores, weights = np.zeros(len(rows)), defaultdict(float)
    k = int(fold.max()) + 1
    for f in range(k):
        train, test = fold != f, fold == f
        scale = max(1.0, float(np.sqrt(np.mean(lengths[train] ** 2))))
        vec = DictVectorizer(sort=True)
        feats = [{**g, LENGTH: d / scale} for g, d in zip(grams, lengths)]
        xtrain = vec.fit_transform([feats[i] for i in np.flatnonzero(train)])
        model = _fit(xtrain, y[train], spec, seed, "liblinear")
        scores[test] = vec.transform([feats[i] for i in np.flatnonzero(test)]) @ model.coef_[0]
        for name, w in zip(vec.get_feature_names_out(), model.coef_[0]):
            weights[str(name)] += float(w) / k
    ranked = sorted(weights.items(), key=lambda kv: (-abs(kv[1]), kv[0]))[:TOP_FEATURES]
    return scores, [{"feature": name, "weight": round(w, 4)} for name, w in ranked]


def _encoder_scores(rows: list[dict], y: np.ndarray, fold: np.ndarray, spec: dict, seed: int,
                    embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """Out-of-fold scores of the logistic head over emb(hyp1) - emb(hyp2), each distinct text embedded once
    and every dimension scaled by its spread in the training folds."""
    texts = sorted({r["hyp1"] for r in rows} | {r["hyp2"] for r in rows})
    vectors = np.asarray(embed(texts), dtype=float)
    index = {t: i for i, t in enumerate(texts)}
    x = np.stack([vectors[index[r["hyp1"]]] - vectors[index[r["hyp2"]]] for r in rows])
    scores = np.zeros(len(rows))
    for f in range(int(fold.max()) + 1):
        train, test = fold != f, fold == f
        spread = np.sqrt(np.mean(x[train] ** 2, axis=0))
        spread[spread == 0] = 1.0
        model = _fit(x[train] / spread, y[train], spec, seed, "lbfgs")
        scores[test] = (x[test] / spread) @ model.coef_[0]
    return scores


def longer_scores(rows: list[dict]) -> np.ndarray:
    """Token length of hyp1 minus that of hyp2 (> 0: hyp1, the longer one, called hallucinated; 0: a tie):
    longer_scores([{'hyp1': 'a b c', 'hyp2': 'a b'}]) -> [1.]."""
    return np.array([len(tokens(r["hyp1"])) - len(tokens(r["hyp2"])) for r in rows], dtype=float)


def _unshared(a: list[str], b: list[str]) -> float:
    """The share of a's tokens not found in b (0 for no tokens)."""
    other = set(b)
    return sum(t not in other for t in a) / len(a) if a else 0.0


def less_shared(hyp1: str, hyp2: str) -> float:
    """Share of hyp1's tokens missing from hyp2 minus the same share for hyp2 (> 0: hyp1 called hallucinated):
    less_shared('it was red', 'it is red today') -> 0.333 - 0.5 = -0.167."""
    a, b = tokens(hyp1), tokens(hyp2)
    return _unshared(a, b) - _unshared(b, a)


def less_shared_scores(rows: list[dict]) -> np.ndarray:
    """``less_shared`` of each row's hyp1 and hyp2."""
    return np.array([less_shared(r["hyp1"], r["hyp2"]) for r in rows])


def correctness(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """1 where the sign of the score names the hallucinated hypothesis (> 0: hyp1), 0 where it names the other,
    0.5 for a zero score (a tie): correctness([2., -1., 0.], [1, 1, 0]) -> [1., 0., 0.5]."""
    return np.where(scores == 0, 0.5, ((scores > 0) == (y == 1)).astype(float))


def cell(correct: np.ndarray, seed: int, resamples: int) -> dict:
    """n, accuracy (4 places) and its 95% percentile bootstrap interval (seeded) of 0/0.5/1 outcomes:
    cell(np.ones(30), 0, 1000) -> {'n': 30, 'accuracy': 1.0, 'ci': [1.0, 1.0]}."""
    n = len(correct)
    if not n:
        return {"n": 0, "accuracy": None, "ci": None}
    boot = correct[resample_indices(n, seed, resamples)].mean(axis=1)
    return {"n": n, "accuracy": round(float(correct.mean()), 4), "ci": interval(boot)}


def _cells(correct: np.ndarray, rows: list[dict], seed: int, resamples: int) -> dict:
    """The overall cell and those per type, per langpair and per "type/langpair", keys sorted."""
    keys = {"by_type": lambda r: str(r["type"]), "by_langpair": lambda r: str(r["langpair"]),
            "by_type_langpair": lambda r: f"{r['type']}/{r['langpair']}"}
    out = {"overall": cell(correct, seed, resamples)}
    for name, key in keys.items():
        members = defaultdict(list)
        for i, r in enumerate(rows):
            members[key(r)].append(i)
        out[name] = {k: cell(correct[np.array(v)], seed, resamples) for k, v in sorted(members.items())}
    return out


def probe_report(rows: list[dict], spec: dict, seed: int,
                 embed: Callable[[list[str]], np.ndarray] | None = None) -> dict:
    """The hypothesis-only probe of detection rows (all splits of one scenario): per classifier, accuracy with
    its bootstrap interval overall, per type, per langpair and per type/langpair; the top n-gram features
    (a positive weight: found only in a hypothesis, or for ``length`` its being longer, marks it as the
    hallucinated one); the number of rows and of folds. spec: folds (5), resamples (1000), C (1.0).
    Deterministic for the same rows in the same order and seed:
    probe_report(rows, {}, 0) -> {"classifiers": {"ngram": {"overall": {"n": 440, "accuracy": 0.7125, ...}}}}."""
    if not rows:
        raise ValueError("artifact probe: no rows")
    y = _labels(rows)
    fold = np.array(fold_of(rows, spec.get("folds", FOLDS)))
    resamples = spec.get("resamples", RESAMPLES)
    ngram, top = _ngram_scores(rows, y, fold, spec, seed)
    scores = {"ngram": ngram, "longer": longer_scores(rows), "less_shared": less_shared_scores(rows)}
    if embed is not None:
        scores["encoder"] = _encoder_scores(rows, y, fold, spec, seed, embed)
    classifiers = {name: _cells(correctness(scores[name], y), rows, seed, resamples)
                   for name in ORDER if name in scores}
    return {"classifiers": classifiers, "top_features": top, "n": len(rows), "folds": int(fold.max()) + 1}


def _figure(value: float, bound: float) -> str:
    """Two places, or four where two would read as the bound itself."""
    short = f"{value:.2f}"
    return f"{value:.4f}" if short == f"{bound:.2f}" else short


def _check(name: str, what: str, c: dict, ceiling: float | None, floor: float | None, min_n: int) -> list[str]:
    """The failure line of one cell, if it has enough examples and lies above the ceiling, or below the floor with
    its whole 95% interval below chance (None: not checked): 0.31 with interval 0.20-0.45 is one, 0.35 with
    0.18-0.53 not."""
    if c["n"] < min_n or c["accuracy"] is None:
        return []
    acc = c["accuracy"]
    if ceiling is not None and acc > ceiling:
        return [f"artifact probe {name}: {what} accuracy {_figure(acc, ceiling)} > ceiling {ceiling:.2f} (n={c['n']})"]
    if floor is not None and acc < floor and c.get("ci") and c["ci"][1] < CHANCE:
        return [f"artifact probe {name}: {what} accuracy {_figure(acc, floor)} < floor {floor:.2f} (n={c['n']})"]
    return []


TRAINED = ("ngram", "encoder")  # a trained classifier learns an inverted cue the right way round


def gate_failures(report: dict, ceilings: dict) -> list[str]:
    """One line per gated figure: the overall cell and each type of the classifiers named in ceilings above
    ``overall`` or ``per_type`` (or its ``per_type_override``), and of the untrained baselines below ``floor``;
    cells with fewer than ``min_examples`` are not gated, classifiers absent from the report skipped:
    ["artifact probe ngram: type tense accuracy 0.95 > ceiling 0.65 (n=58)",
     "artifact probe longer: type addition accuracy 0.10 < floor 0.40 (n=25)"]. A trained classifier below chance
    is no artifact: a type whose sides are balanced exactly falls below chance by cross-validation alone (each
    held-out fold meets the other side's majority), while an inverted cue would be learned the right way round."""
    floor, min_n = ceilings.get("floor", 0.0), ceilings.get("min_examples", 0)
    overrides = ceilings.get("per_type_override", {})
    gated = ceilings.get("classifiers", ["ngram", "encoder"])
    lines: list[str] = []
    for name in [n for n in ORDER if n in report["classifiers"]]:
        if name not in gated and name in TRAINED:
            continue
        figures = report["classifiers"][name]
        low = None if name in TRAINED else floor
        lines += _check(name, "overall", figures["overall"], ceilings["overall"] if name in gated else None, low,
                        min_n)
        for kind, c in sorted(figures["by_type"].items()):
            high = overrides.get(kind, ceilings["per_type"]) if name in gated else None
            lines += _check(name, f"type {kind}", c, high, low, min_n)
    return lines


def _acc(c: dict | None) -> str:
    """'acc [lo–hi] (n)' of a cell, '–' where there is none."""
    if not c or c["accuracy"] is None:
        return "–"
    ci = f" [{c['ci'][0]:.2f}–{c['ci'][1]:.2f}]" if c["ci"] else ""
    return f"{c['accuracy']:.2f}{ci} ({c['n']})"


def _table(report: dict, names: list[str], group: str, heading: str) -> list[str]:
    """Rows: the keys of ``group``; columns: the classifiers."""
    keys = sorted({k for n in names for k in report["classifiers"][n][group]})
    lines = [f"| {heading} | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for k in keys:
        lines.append(f"| {k} | " + " | ".join(_acc(report["classifiers"][n][group].get(k)) for n in names) + " |")
    return lines


def card_lines(report: dict, ceilings: dict) -> list[str]:
    """The dataset card's markdown section on the probe: an intro, the overall table (classifier, n, accuracy,
    95% interval), tables per type and per langpair ('acc [lo–hi] (n)' per classifier) and the top n-gram
    features: card_lines(report, ceilings)[0] -> '## Hypothesis-only artifact probe'."""
    names = [n for n in ORDER if n in report["classifiers"]]
    overrides = ", ".join(f"{k} {v:.2f}" for k, v in sorted(ceilings.get("per_type_override", {}).items()))
    gated = ", ".join(ceilings.get("classifiers", []))
    lines = [
        "## Hypothesis-only artifact probe", "",
        "Classifiers that never see the source try to tell which of hyp1/hyp2 is the hallucinated one "
        f"(the annotation-artifact test of Gururangan et al. 2018 and Poliak et al. 2018), over {report['n']} "
        f"examples with {report['folds']}-fold cross-validation grouped by source item. Chance is 0.5: accuracy "
        "well above it, or far below it, means the hallucination shows in the hypotheses alone. `ngram` is a "
        "logistic regression over the word unigrams and bigrams found in only one hypothesis and the length "
        "difference; `encoder` a logistic head over the difference of frozen sentence embeddings; `longer` "
        "and `less_shared` untrained baselines (the longer hypothesis, or the one with more tokens missing "
        "from the other, called hallucinated; ties count half). Gated classifiers "
        f"({gated}): overall at most {ceilings.get('overall', 1.0):.2f}, per type at most "
        f"{ceilings.get('per_type', 1.0):.2f}" + (f" ({overrides})" if overrides else "")
        + f"; the untrained baselines none below {ceilings.get('floor', 0.0):.2f} with the interval below chance "
        "(a trained one below chance is no artifact: exactly balanced sides put it there by cross-validation "
        f"alone); cells under {ceilings.get('min_examples', 0)} examples not gated.", "",
        "| classifier | n | accuracy | 95% CI |", "|---|---|---|---|",
    ]
    for n in names:
        c = report["classifiers"][n]["overall"]
        ci = f"{c['ci'][0]:.2f}–{c['ci'][1]:.2f}" if c["ci"] else "–"
        lines.append(f"| {n} | {c['n']} | {c['accuracy']:.2f} | {ci} |")
    lines += ["", "Accuracy per type, acc [95% CI] (n):", ""] + _table(report, names, "by_type", "type")
    lines += ["", "Accuracy per language pair, acc [95% CI] (n):", ""]
    lines += _table(report, names, "by_langpair", "langpair")
    lines += ["", "Top n-gram features (a positive weight marks the hypothesis holding the feature, or for "
              "`length` the longer one, as hallucinated):", "", "| feature | weight |", "|---|---|"]
    lines += [f"| `{f['feature']}` | {f['weight']:+.3f} |" for f in report.get("top_features", [])]
    return lines
