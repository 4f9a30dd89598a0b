"""Fine-tuning the cross-encoder (a GPU-tagged task; runs, smaller, on CPU): a pair classifier with two
classes (0 faithful, 1 hallucinated) on the training pairs, AdamW with linear decay, seeded, mixed
precision (bf16) on cuda, the best epoch by validation loss kept; saved as safetensors."""
from __future__ import annotations

from pathlib import Path

from tqdm import tqdm

from tasks.models.device import best_device
from tasks.models.encoders import resolve_encoder


def _loss(model, tokenizer, rows: list[dict], params: dict, device: str):
    enc = tokenizer([r["source"] for r in rows], [r["hypothesis"] for r in rows], truncation=True,
                    max_length=params["max_length"], padding=True, return_tensors="pt").to(device)
    import torch

    labels = torch.tensor([r["label"] for r in rows], device=device)
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
        return model(**enc, labels=labels).loss


def train_cross_encoder(rows: list[dict], params: dict, out_dir: Path) -> dict:
    """Train on ``rows`` (the last params['valid_fraction'] of them validate) and save to ``out_dir``;
    returns the per-epoch losses."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

    torch.manual_seed(params["seed"])
    device = best_device()
    path = resolve_encoder(params["base_model"])
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(
        path, num_labels=2, id2label={0: "faithful", 1: "hallucinated"}, label2id={"faithful": 0, "hallucinated": 1},
        use_safetensors=True).to(device)
    n_valid = max(1, int(len(rows) * params["valid_fraction"]))
    train_rows, valid_rows = rows[:-n_valid], rows[-n_valid:]
    bs = params["batch_size"]
    steps = params["epochs"] * ((len(train_rows) + bs - 1) // bs)
    optimizer = torch.optim.AdamW(model.parameters(), lr=params["learning_rate"], weight_decay=0.01)
    schedule = get_linear_schedule_with_warmup(optimizer, int(0.1 * steps), steps)
    generator = torch.Generator().manual_seed(params["seed"])
    history, best = [], None
    for epoch in range(params["epochs"]):
        model.train()
        order = torch.randperm(len(train_rows), generator=generator).tolist()
        total = 0.0
        for k in tqdm(range(0, len(order), bs), desc=f"cross-encoder epoch {epoch + 1}", mininterval=10):
            loss = _loss(model, tokenizer, [train_rows[i] for i in order[k:k + bs]], params, device)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            total += loss.item() * len(order[k:k + bs])
        model.eval()
        with torch.inference_mode():
            valid = sum(_loss(model, tokenizer, valid_rows[k:k + bs], params, device).item() * len(valid_rows[k:k + bs])
                        for k in range(0, len(valid_rows), bs)) / len(valid_rows)
        history.append({"epoch": epoch + 1, "train_loss": round(total / len(train_rows), 4),
                        "valid_loss": round(valid, 4)})
        if best is None or valid < best:
            best = valid
            model.save_pretrained(out_dir, safe_serialization=True)
            tokenizer.save_pretrained(out_dir)
    return {"device": device, "train_pairs": len(train_rows), "valid_pairs": len(valid_rows), "epochs": history}
