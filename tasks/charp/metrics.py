"""Automatic metrics (CHARP Tables 1-4): sacreBLEU of predictions against gold, BERTScore F1 against gold
and against the knowledge (bert-score with a local model path), and the critic hallucination rate (the
FaithDial critic when opted in, else a detector of #5, named as such in the report)."""
from __future__ import annotations

from pathlib import Path

from tasks.detectors.learned import HEAD_FILE, LearnedDetector
from tasks.detectors.pair_classifier import PairClassifier
from tasks.errors import PipelineError
from tasks.models.loaded import loader
from tasks.models.registry import model_path
from tasks.models.sentence import load_encoder


def bleu(predictions: list[str], references: list[str]) -> float:
    import sacrebleu

    return round(sacrebleu.corpus_bleu(predictions, [references]).score, 2)


def bertscore_f1(candidates: list[str], references: list[str], model: str, num_layers: int,
                 batch_size: int = 32) -> float:
    """Mean BERTScore F1 over the pairs (``bertscore_items``)."""
    scores = bertscore_items(candidates, references, model, num_layers, batch_size)
    return round(sum(scores) / len(scores), 4) if scores else 0.0


@loader(maxsize=2)
def bertscore_tokenizer(path: str):
    """BERTScore's tokenizer of ``path``: the slow one, as bert_score.BERTScorer loads it."""
    from bert_score.utils import get_tokenizer

    return get_tokenizer(path, use_fast=False)


@loader(maxsize=2)
def cut_model(path: str, num_layers: int, device: str):
    """``path``'s encoder cut to its first ``num_layers`` layers (bert_score.utils.get_model), on ``device``."""
    from bert_score.utils import get_model

    return get_model(path, num_layers).to(device)


def bertscore_model(model: str, num_layers: int):
    """The encoder BERTScore reads, and its device: the process's one copy of ``model`` (load_encoder, which the
    rubric judge and similarity share) where ``num_layers`` is all of its layers, as MiniLM's 6; else its
    own copy cut to ``num_layers`` (roberta-large at 17 of 24)."""
    _, encoder, device = load_encoder(model, None, False)
    if num_layers == getattr(encoder.config, "num_hidden_layers", None):
        return encoder, device
    return cut_model(model_path(model), num_layers, device), device


def bertscore_items(candidates: list[str], references: list[str], model: str, num_layers: int,
                    batch_size: int = 32) -> list[float]:
    """BERTScore F1 of each pair (no baseline rescaling, no idf: bert_score.score's defaults) with a registry
    name, local model path or Hub id and layer; an empty candidate (an unusable few-shot answer) scores 0."""
    from collections import defaultdict

    from bert_score.utils import bert_cos_score_idf

    scores = [0.0] * len(candidates)
    keep = [i for i, c in enumerate(candidates) if c.strip()]
    if keep:
        encoder, device = bertscore_model(model, num_layers)
        tokenizer = bertscore_tokenizer(model_path(model))
        idf = defaultdict(lambda: 1.0, {tokenizer.sep_token_id: 0, tokenizer.cls_token_id: 0})
        prf = bert_cos_score_idf(encoder, [references[i] for i in keep], [candidates[i] for i in keep], tokenizer,
                                 idf, batch_size=batch_size, device=device).cpu()
        for i, v in zip(keep, prf[..., 2].tolist()):
            scores[i] = v
    return scores


def critic_rate(knowledge: list[str], predictions: list[str], spec: dict) -> float:
    """Share of predictions the critic calls hallucinated (0 for none)."""
    flags = critic_flags(knowledge, predictions, spec)
    return round(sum(flags) / len(flags), 4) if flags else 0.0


def critic_flags(knowledge: list[str], predictions: list[str], spec: dict) -> list[int]:
    """1 where the critic calls (knowledge, prediction) hallucinated: P(hallucinated) >= 0.5. spec: {model,
    hallucinated_label, allow_pickle}; a folder with a learned head (train_detector's critic) scores with it,
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
