"""Fine-tuning the cross-encoder (a GPU-tagged task; runs, smaller, on CPU): a pair classifier with two
classes (0 faithful, 1 hallucinated) on the training pairs, through the shared training loop
(tasks/models/training.py); the best epoch by validation loss is saved as safetensors."""
from __future__ import annotations

from pathlib import Path

from tasks.models.device import best_device
from tasks.models.registry import model_path
from tasks.models.training import TrainingConfig, fit, set_seed


def pair_batch(tokenizer, rows: list[dict], max_length: int, device: str) -> dict:
    """(source, hypothesis) pairs encoded as the detector reads them at inference, with their labels."""
    import torch

    enc = tokenizer([r["source"] for r in rows], [r["hypothesis"] for r in rows], truncation=True,
                    max_length=max_length, padding=True, return_tensors="pt").to(device)
    return {**enc, "labels": torch.tensor([r["label"] for r in rows], device=device)}


def train_cross_encoder(train_rows: list[dict], valid_rows: list[dict], params: dict, out_dir: Path) -> dict:
    """Train on ``train_rows``, keep the epoch with the best loss on ``valid_rows`` (the shared loop restores
    it), save to ``out_dir``; returns the per-epoch losses."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    set_seed(params["seed"])
    device = best_device()
    path = model_path(params["base_model"])
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(
        path, num_labels=2, id2label={0: "faithful", 1: "hallucinated"}, label2id={"faithful": 0, "hallucinated": 1},
        use_safetensors=True).to(device)
    history = fit(model, lambda batch: pair_batch(tokenizer, batch, params["max_length"], device), train_rows,
                  valid_rows, TrainingConfig.from_params(params), device, "cross-encoder")
    model.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    return {"device": device, "train_pairs": len(train_rows), "valid_pairs": len(valid_rows), "epochs": history}
