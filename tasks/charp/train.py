"""Training a response generator (a GPU-tagged task that also runs, smaller, on CPU): seq2seq models
(T5, FLAN-T5, GODEL) or causal LMs (Llama-2, SmolLM2) with the loss on the response tokens only; AdamW,
linear decay, seeded; bf16 autocast on cuda; early stopping on validation loss; optional LoRA (peft).
The best checkpoint is saved as safetensors."""
from __future__ import annotations

from pathlib import Path

from tqdm import tqdm

from tasks.charp.formatting import model_input
from tasks.errors import PipelineError
from tasks.models.device import best_device
from tasks.models.local import SMOLLM2, smollm2_checkpoint


def model_path(name: str) -> str:
    return str(smollm2_checkpoint()) if name == SMOLLM2 else name


def load_for_training(spec: dict, device: str):
    """(tokenizer, model) of spec['model'] with spec['arch'] (seq2seq | causal), LoRA-wrapped if asked."""
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    path = model_path(spec["model"])
    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    cls = AutoModelForSeq2SeqLM if spec["arch"] == "seq2seq" else AutoModelForCausalLM
    model = cls.from_pretrained(path, use_safetensors=True).to(device)
    if spec.get("lora"):
        try:
            from peft import LoraConfig, get_peft_model
        except ImportError as exc:
            raise PipelineError("lora: true needs the package peft (pip install peft)") from exc
        model = get_peft_model(model, LoraConfig(**spec["lora"]))
    return tokenizer, model


def encode(tokenizer, rows: list[dict], arch: str, max_length: int, device: str) -> dict:
    """A padded batch whose labels cover the response tokens only (-100 elsewhere)."""
    import torch

    prompts = [model_input(r) for r in rows]
    if arch == "seq2seq":
        enc = tokenizer(prompts, truncation=True, max_length=max_length, padding=True, return_tensors="pt")
        labels = tokenizer([r["response"] for r in rows], truncation=True, max_length=max_length, padding=True,
                           return_tensors="pt")["input_ids"]
        labels[labels == tokenizer.pad_token_id] = -100
        return {"input_ids": enc["input_ids"].to(device), "attention_mask": enc["attention_mask"].to(device),
                "labels": labels.to(device)}
    ids, labels = [], []
    for p, r in zip(prompts, rows):
        response = tokenizer(" " + r["response"] + tokenizer.eos_token, add_special_tokens=False)["input_ids"]
        prompt = tokenizer(p, add_special_tokens=False)["input_ids"][-max(1, max_length - len(response)):]
        seq = (prompt + response)[:max_length]
        ids.append(seq)
        labels.append(([-100] * len(prompt) + response)[:max_length])
    width = max(map(len, ids))
    pad = tokenizer.pad_token_id
    return {"input_ids": torch.tensor([s + [pad] * (width - len(s)) for s in ids], device=device),
            "attention_mask": torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in ids], device=device),
            "labels": torch.tensor([lab + [-100] * (width - len(lab)) for lab in labels], device=device)}


def _loss(model, batch, device: str):
    import torch

    with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
        return model(**batch).loss


def train_generator(train_rows: list[dict], valid_rows: list[dict], spec: dict, params: dict, out_dir: Path) -> dict:
    """Train on ``train_rows``; keep the epoch with the lowest validation loss; stop after
    params['patience'] epochs without improvement. Returns the losses per epoch."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(params["seed"])
    device = best_device()
    tokenizer, model = load_for_training(spec, device)
    bs, arch, max_len = params["batch_size"], spec["arch"], params["max_length"]
    steps = params["epochs"] * ((len(train_rows) + bs - 1) // bs)
    optimizer = torch.optim.AdamW(model.parameters(), lr=spec.get("learning_rate", params["learning_rate"]))
    schedule = get_linear_schedule_with_warmup(optimizer, 0, max(1, steps))
    generator = torch.Generator().manual_seed(params["seed"])
    history, best, stale = [], None, 0
    for epoch in range(params["epochs"]):
        model.train()
        order = torch.randperm(len(train_rows), generator=generator).tolist()
        total = 0.0
        for k in tqdm(range(0, len(order), bs), desc=f"{spec['model']} epoch {epoch + 1}", mininterval=10):
            batch = [train_rows[i] for i in order[k:k + bs]]
            loss = _loss(model, encode(tokenizer, batch, arch, max_len, device), device)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            total += loss.item() * len(batch)
        model.eval()
        with torch.inference_mode():
            valid = sum(_loss(model, encode(tokenizer, valid_rows[k:k + bs], arch, max_len, device), device).item()
                        * len(valid_rows[k:k + bs]) for k in range(0, len(valid_rows), bs)) / max(1, len(valid_rows))
        history.append({"epoch": epoch + 1, "train_loss": round(total / len(train_rows), 4),
                        "valid_loss": round(valid, 4)})
        if best is None or valid < best:
            best, stale = valid, 0
            model.save_pretrained(out_dir, safe_serialization=True)
            tokenizer.save_pretrained(out_dir)
        else:
            stale += 1
            if stale >= params["patience"]:
                break
    return {"device": device, "train_turns": len(train_rows), "valid_turns": len(valid_rows), "epochs": history}
