"""The one training loop of every trainer (cross-encoder detector, CHARP generators): seeded, AdamW with
weight decay, a linear warm-up then linear or cosine decay, gradients accumulated over ``gradient_accumulation``
batches per step (batch 48 as 12 x 4), gradient clipping, bf16 autocast on cuda, early stopping
after `patience` epochs without a better validation loss, and the best epoch's weights restored at the end.
Also the one truncation rule for model inputs (`truncate`). Weight decay spares biases and norm weights."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from tqdm import tqdm


@dataclass(frozen=True)
class TrainingConfig:
    seed: int
    epochs: int
    batch_size: int
    learning_rate: float
    weight_decay: float = 0.01
    warmup_fraction: float = 0.1  # of all optimisation steps
    patience: int | None = None  # epochs without a better validation loss before stopping; None: never stop
    max_grad_norm: float = 1.0
    schedule: str = "linear"  # after the warm-up: linear | cosine decay to 0
    gradient_accumulation: int = 1  # batches per optimisation step

    @classmethod
    def from_params(cls, params: dict, **overrides) -> TrainingConfig:
        """The config from a params section (keys that are not fields are ignored), ``overrides`` winning."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in {**params, **overrides}.items() if k in names})


def set_seed(seed: int) -> None:
    """Seed torch before a model is built, so freshly initialised heads are the same on every run."""
    import torch

    torch.manual_seed(seed)


def truncate(head: list[int], body: list[int], tail: list[int], max_length: int) -> list[int]:
    """The one truncation rule: head + body + tail in at most ``max_length`` tokens. The tail (a response cue)
    is always kept; the head (e.g. the knowledge) is kept, losing its end only when it alone would leave no
    room; the body (e.g. the dialogue history, oldest first) loses its oldest tokens: left truncation."""
    if len(tail) > max_length:
        raise ValueError(f"max_length {max_length} is shorter than the {len(tail)} tokens that must be kept")
    head = head[: max_length - len(tail)]
    room = max_length - len(tail) - len(head)
    return head + body[max(0, len(body) - room):] + tail if room else head + tail


def _loss(model, batch: dict, device: str):
    import torch

    with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
        return model(**batch).loss


def mean_loss(model, encode: Callable, rows: list, bs: int, device: str) -> float:
    import torch

    with torch.inference_mode():
        total = sum(_loss(model, encode(rows[k:k + bs]), device).item() * len(rows[k:k + bs])
                    for k in range(0, len(rows), bs))
    return total / max(1, len(rows))


def fit(model, encode: Callable[[list], dict], train_rows: list, valid_rows: list, config: TrainingConfig,
        device: str, desc: str = "train") -> list[dict]:
    """Train ``model`` on ``train_rows`` (``encode`` turns a list of rows into a batch with labels, on
    ``device``), validating after every epoch; the model ends with the weights of the epoch with the lowest
    validation loss. Returns the losses per epoch, the best one marked."""
    import torch
    from transformers import get_cosine_schedule_with_warmup, get_linear_schedule_with_warmup

    bs, accumulate = config.batch_size, config.gradient_accumulation
    batches = (len(train_rows) + bs - 1) // bs
    steps = max(1, config.epochs * ((batches + accumulate - 1) // accumulate))
    decay = [p for n, p in model.named_parameters() if p.requires_grad and p.ndim > 1]
    no_decay = [p for n, p in model.named_parameters() if p.requires_grad and p.ndim <= 1]  # biases, norms
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": config.weight_decay},
                                   {"params": no_decay, "weight_decay": 0.0}], lr=config.learning_rate)
    schedules = {"linear": get_linear_schedule_with_warmup, "cosine": get_cosine_schedule_with_warmup}
    schedule = schedules[config.schedule](optimizer, int(config.warmup_fraction * steps), steps)
    generator = torch.Generator().manual_seed(config.seed)
    history, best, best_epoch, best_state, stale = [], None, 0, None, 0
    for epoch in range(config.epochs):
        model.train()
        order = torch.randperm(len(train_rows), generator=generator).tolist()
        total = 0.0
        for n, k in enumerate(tqdm(range(0, len(order), bs), desc=f"{desc} epoch {epoch + 1}", mininterval=10)):
            batch = [train_rows[i] for i in order[k:k + bs]]
            loss = _loss(model, encode(batch), device)
            (loss / accumulate if accumulate > 1 else loss).backward()
            if (n + 1) % accumulate == 0 or n + 1 == batches:
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
                optimizer.step()
                schedule.step()
                optimizer.zero_grad()
            total += loss.item() * len(batch)
        model.eval()
        valid = mean_loss(model, encode, valid_rows, bs, device)
        history.append({"epoch": epoch + 1, "train_loss": round(total / max(1, len(train_rows)), 4),
                        "valid_loss": round(valid, 4)})
        if best is None or valid < best:
            best, best_epoch, stale = valid, epoch + 1, 0
            best_state = {n: t.detach().to("cpu", copy=True) for n, t in model.state_dict().items()}
        else:
            stale += 1
            if config.patience is not None and stale >= config.patience:
                break
    model.load_state_dict(best_state)
    for h in history:
        h["best"] = h["epoch"] == best_epoch
    return history
