"""Automatic metrics (CHARP Tables 1-4): sacreBLEU of predictions against gold, BERTScore F1 against gold
and against the knowledge (bert-score with a local model path), and the critic hallucination rate (the
FaithDial critic when opted in, else a detector of #5, named as such in the report)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from tasks.detectors.learned import HEAD_FILE, LearnedDetector
from tasks.detectors.pair_classifier import PairClassifier
from tasks.errors import PipelineError
from tasks.models.device import best_device
from tasks.models.registry import model_path


def bleu(predictions: list[str], references: list[str]) -> float:
    import sacrebleu

    return round(sacrebleu.corpus_bleu(predictions, [references]).score, 2)


def bertscore_f1(candidates: list[str], references: list[str], model: str, num_layers: int,
                 batch_size: int = 32) -> float:
    """Mean BERTScore F1 over the pairs (``bertscore_items``)."""
    scores = bertscore_items(candidates, references, model, num_layers, batch_size)
    return round(sum(scores) / len(scores), 4) if scores else 0.0


@lru_cache(maxsize=2)
def bertscorer(path: str, num_layers: int, device: str):
    """The process's one BERTScore model of (``path``, layer, device): bert_score.score would load it again on
    every call (twice per CHARP cell)."""
    import bert_score

    return bert_score.BERTScorer(model_type=path, num_layers=num_layers, device=device)


def bertscore_items(candidates: list[str], references: list[str], model: str, num_layers: int,
                    batch_size: int = 32) -> list[float]:
    """BERTScore F1 of each pair (no baseline rescaling) with a local model path (or Hub id) and layer; an
    empty candidate (an unusable few-shot answer) scores 0."""
    scores = [0.0] * len(candidates)
    keep = [i for i, c in enumerate(candidates) if c.strip()]
    if keep:
        scorer = bertscorer(model_path(model), num_layers, best_device())
        _, _, f1 = scorer.score([candidates[i] for i in keep], [references[i] for i in keep], batch_size=batch_size)
        for i, v in zip(keep, f1.tolist()):
            scores[i] = v
    return scores


def critic_rate(knowledge: list[str], predictions: list[str], spec: dict) -> float:
    """Share of predictions the critic calls hallucinated (0 for none)."""
    flags = critic_flags(knowledge, predictions, spec)
    return round(sum(flags) / len(flags), 4) if flags else 0.0


def critic_flags(knowledge: list[str], predictions: list[str], spec: dict) -> list[int]:
    """1 where the critic calls (knowledge, prediction) hallucinated: P(hallucinated) >= 0.5. spec: {model,
    hallucinated_label, allow_pickle}; a folder with a learned head (the BEGIN-trained critic) scores with it,
    anything else loads as a sequence classifier whose label spec['hallucinated_label'] is hallucinated;
    pickle-only weights (the FaithDial critic) load only with allow_pickle: true."""
    if not predictions:
        return []
    if (Path(spec["model"]) / HEAD_FILE).is_file():
        return [int(p >= 0.5) for p in LearnedDetector("critic", spec["model"]).scores(knowledge, predictions)]
    try:
        clf = PairClassifier(spec["model"], allow_pickle=bool(spec.get("allow_pickle")))
    except OSError as exc:
        raise PipelineError(f"critic {spec['model']!r} cannot be loaded ({exc}); pickle-only weights need "
                            "charp.metrics.critic.allow_pickle: true") from exc
    probs = clf.probabilities(knowledge, predictions)[:, spec["hallucinated_label"]]
    return [int(p >= 0.5) for p in probs]
