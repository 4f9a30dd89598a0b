"""The learned detector: a small logistic-regression head over frozen sentence-encoder features of a
(source, hypothesis) pair (multilingual e5 by default, so it reads across languages) and the consistency
rules' counts. Features: u*v and |u-v| of the two embeddings, their cosine, the rule counts of
``unsupported`` and token F1. Classes are weighted equally (one hyp+ per item, a hyp- per type), so the
validation loss is the class-balanced log loss, where a constant guess scores ln 2. Trained on CPU in seconds;
saved as JSON (no pickle), standardisation included. Score: P(hallucinated)."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from tasks.detectors.base import ScoringDetector
from tasks.detectors.consistency import unsupported
from tasks.errors import PipelineError
from tasks.io import atomic_path
from tasks.models.sentence import sentence_encoder
from tasks.text import token_f1

HEAD_FILE = "head.json"
RULES = ("numbers", "months", "names", "units", "negation")


def pair_features(encoder: str, sources: list[str], hyps: list[str], batch_size: int = 64,
                  int8: bool = False) -> np.ndarray:
    """(n, 2d + 2 + len(RULES)) features of each pair; each distinct text is embedded once (``int8``: a
    transformers encoder quantised dynamically on CPU, as the head was trained)."""
    unique = sorted(set(sources) | set(hyps))
    vectors = dict(zip(unique, sentence_encoder(encoder, batch_size, int8=int8).embed(unique, f"{encoder} features")))
    u = np.array([vectors[s] for s in sources], dtype=np.float64).reshape(len(sources), -1)
    v = np.array([vectors[h] for h in hyps], dtype=np.float64).reshape(len(hyps), -1)
    rules = np.array([[unsupported(s, h)[k] for k in RULES] + [token_f1(s, h)] for s, h in zip(sources, hyps)],
                     dtype=np.float64).reshape(len(sources), -1)
    cosine = (u * v).sum(1, keepdims=True)
    return np.hstack([u * v, np.abs(u - v), cosine, rules])


def balanced_log_loss(y: np.ndarray, p: np.ndarray) -> float:
    """The mean of the two classes' log losses (ln 2 for p = 0.5 everywhere)."""
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-(np.log(p[y == 1]).mean() + np.log(1 - p[y == 0]).mean()) / 2)


def fit_head(x: np.ndarray, y: np.ndarray, c: float, seed: int) -> dict:
    """Standardised logistic regression (lbfgs, L2 with inverse strength ``c``) as a JSON-able dict."""
    from sklearn.linear_model import LogisticRegression

    mean, scale = x.mean(0), x.std(0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=5000, class_weight="balanced", random_state=seed)
    model.fit((x - mean) / scale, y)
    return {"mean": mean.round(8).tolist(), "scale": scale.round(8).tolist(),
            "coef": model.coef_[0].round(8).tolist(), "intercept": round(float(model.intercept_[0]), 8)}


def predict(head: dict, x: np.ndarray) -> np.ndarray:
    z = ((x - np.array(head["mean"])) / np.array(head["scale"])) @ np.array(head["coef"]) + head["intercept"]
    return 1.0 / (1.0 + np.exp(-z))


def pick_c(x: np.ndarray, y: np.ndarray, groups: list[str], cs: list[float], seed: int, folds: int = 5) -> float:
    """The inverse L2 strength of ``cs`` with the best mean AUROC over grouped folds of the training rows
    (a group's rows in one fold); the validation rows are never seen."""
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold

    splits = list(GroupKFold(n_splits=folds).split(x, y, groups))
    def cv_auroc(c: float) -> float:
        return float(np.mean([roc_auc_score(y[v], predict(fit_head(x[t], y[t], c, seed), x[v])) for t, v in splits
                              if len(set(y[v])) == 2]))
    return max(cs, key=cv_auroc)


def train_head(train: list[dict], valid: list[dict], params: dict) -> tuple[dict, dict]:
    """Fit on ``train`` rows {source, hypothesis, label}; (head with its encoder, figures incl. the
    class-balanced validation log loss against ln 2, the loss of a constant guess, and the AUROC). A list
    of ``c`` values is a choice made by grouped cross-validation on the training rows (groups: ``origin``)."""
    from sklearn.metrics import roc_auc_score

    if not valid or any(len({r["label"] for r in part}) < 2 for part in (train, valid)):
        raise PipelineError("learned detector: training and validation each need both labels")
    encoder, int8 = params["encoder"], params.get("int8", False)
    feats = pair_features(encoder, [r["source"] for r in train + valid], [r["hypothesis"] for r in train + valid],
                          int8=int8)
    x_train, x_valid = feats[: len(train)], feats[len(train):]
    y_train = np.array([r["label"] for r in train], dtype=float)
    y_valid = np.array([r["label"] for r in valid], dtype=float)
    c = params["c"]
    if isinstance(c, list):
        c = pick_c(x_train, y_train, [r["origin"] for r in train], c, params["seed"])
    head = {"encoder": encoder, "int8": int8, **fit_head(x_train, y_train, c, params["seed"])}
    p_train, p_valid = predict(head, x_train), predict(head, x_valid)
    figures = {"train_pairs": len(train), "valid_pairs": len(valid), "c": c,
               "train_loss": round(balanced_log_loss(y_train, p_train), 4),
               "valid_loss": round(balanced_log_loss(y_valid, p_valid), 4), "ln2": round(math.log(2), 4),
               "valid_auroc": round(float(roc_auc_score(y_valid, p_valid)), 4)}
    return head, figures


def save_head(head: dict, folder: Path) -> None:
    with atomic_path(Path(folder) / HEAD_FILE) as tmp:
        tmp.write_text(json.dumps(head, sort_keys=True) + "\n", encoding="utf-8")


def load_head(folder: str | Path) -> dict:
    path = Path(folder) / HEAD_FILE
    if not path.is_file():
        raise PipelineError(f"{path}: learned detector not found (run the stage that trains it: dvc repro)")
    return json.loads(path.read_text(encoding="utf-8"))


class LearnedDetector(ScoringDetector):
    def __init__(self, name: str, model: str, batch_size: int = 64):
        self.name, self.head, self.batch_size = name, load_head(model), batch_size

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        if not sources:
            return []
        x = pair_features(self.head["encoder"], sources, hyps, self.batch_size, self.head.get("int8", False))
        return [round(float(p), 6) for p in predict(self.head, x)]
