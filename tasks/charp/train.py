"""Training a response generator (a GPU-tagged task that also runs, smaller, on CPU): seq2seq models
(T5, FLAN-T5, GODEL) or causal LMs (Llama-2, SmolLM2) with the loss on the response tokens only, through the
shared training loop (tasks/models/training.py); optional LoRA (peft). The best epoch is saved as
safetensors."""
from __future__ import annotations

from pathlib import Path

from tasks.charp.data import load_turns
from tasks.charp.formatting import input_ids
from tasks.errors import PipelineError
from tasks.io import atomic_dir
from tasks.models.device import best_device
from tasks.models.local import causal_lm_path
from tasks.models.training import TrainingConfig, fit, mean_loss, set_seed


def load_for_training(spec: dict, device: str):
    """(tokenizer, model) of spec['model'] with spec['arch'] (seq2seq | causal), LoRA-wrapped if asked."""
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    path = causal_lm_path(spec["model"])
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


def train_last_blocks(model, blocks: int) -> int:
    """Freeze everything but the last ``blocks`` transformer blocks of the model's decoder and its final norm (e.g. 6
    of SmolLM2's 30): the frozen part runs forward only. Returns the trainable parameter count."""
    decoder = model.get_decoder()
    stack = getattr(decoder, "layers", None) or getattr(decoder, "block", None)
    if stack is None:
        raise PipelineError(f"training.trainable_layers: {type(model).__name__} has no decoder block list")
    if blocks > len(stack):
        raise PipelineError(f"training.trainable_layers: {blocks} is more than the model's {len(stack)} blocks")
    model.requires_grad_(False)
    for module in [*list(stack)[-blocks:], getattr(decoder, "norm", None) or getattr(decoder, "final_layer_norm")]:
        module.requires_grad_(True)
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def encode(tokenizer, rows: list[dict], arch: str, max_length: int, device: str) -> dict:
    """A padded batch whose labels cover the response tokens only (-100 elsewhere). The input follows the
    one truncation rule (formatting.input_ids); a causal model's response takes at most half its sequence."""
    import torch

    if arch == "seq2seq":
        enc = tokenizer.pad({"input_ids": [input_ids(tokenizer, r, max_length) for r in rows]}, return_tensors="pt")
        labels = tokenizer([r["response"] for r in rows], truncation=True, max_length=max_length, padding=True,
                           return_tensors="pt")["input_ids"]
        labels[labels == tokenizer.pad_token_id] = -100
        return {"input_ids": enc["input_ids"].to(device), "attention_mask": enc["attention_mask"].to(device),
                "labels": labels.to(device)}
    ids, labels = [], []
    for r in rows:
        response = tokenizer(" " + r["response"] + tokenizer.eos_token, add_special_tokens=False)["input_ids"]
        response = response[: max_length // 2]
        prompt = input_ids(tokenizer, r, max_length - len(response))
        ids.append(prompt + response)
        labels.append([-100] * len(prompt) + response)
    width = max(map(len, ids))
    pad = tokenizer.pad_token_id
    return {"input_ids": torch.tensor([s + [pad] * (width - len(s)) for s in ids], device=device),
            "attention_mask": torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in ids], device=device),
            "labels": torch.tensor([lab + [-100] * (width - len(lab)) for lab in labels], device=device)}


def train_generator(train_rows: list[dict], valid_rows: list[dict], spec: dict, params: dict, out_dir: Path) -> dict:
    """Train on ``train_rows`` through the shared training loop (early stopping after params['patience']
    epochs without a better validation loss; only the last params['trainable_layers'] blocks when set) and save
    the best epoch. Returns the validation loss before
    training and the losses per epoch."""
    set_seed(params["seed"])
    device = best_device()
    tokenizer, model = load_for_training(spec, device)
    config = TrainingConfig.from_params(params, learning_rate=spec.get("learning_rate", params["learning_rate"]))

    def batches(rows: list[dict]) -> dict:
        return encode(tokenizer, rows, spec["arch"], params["max_length"], device)

    trainable = (train_last_blocks(model, params["trainable_layers"]) if params.get("trainable_layers")
                 else sum(p.numel() for p in model.parameters() if p.requires_grad))
    model.eval()
    untrained = round(mean_loss(model, batches, valid_rows, config.batch_size, device), 4)
    history = fit(model, batches, train_rows, valid_rows, config, device, spec["model"])
    model.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    return {"device": device, "train_turns": len(train_rows), "valid_turns": len(valid_rows),
            "trainable_parameters": trainable, "untrained_valid_loss": untrained, "epochs": history}


def train_cell(data: Path, system: str, h: str, params: dict) -> dict:
    """Train charp.systems[system] on the training split with history h (validated on the validation split)
    into data/charp/models/<system>/h-<h>, written atomically."""
    s, t = params["subsets"], params["training"]
    train = load_turns(data, params["dataset"], params["splits"]["train"], h, s["train"], params["seed"])
    valid = load_turns(data, params["dataset"], params["splits"]["valid"], h, s["valid"], params["seed"])
    with atomic_dir(Path(data) / "charp" / "models" / system / f"h-{h}") as tmp:
        return train_generator(train, valid, params["systems"][system], t, tmp)
