"""tasks/models/training.py: the shared training loop and its truncation rule, early stopping with patience
and the best epoch's weights restored, on a real torch model."""
from __future__ import annotations

import pytest
import torch

from tasks.models.training import TrainingConfig, fit, truncate


@pytest.mark.parametrize("head, body, tail, n, kept", [
    ([1, 2], [3, 4, 5, 6], [9], 10, [1, 2, 3, 4, 5, 6, 9]),  # fits: nothing cut
    ([1, 2], [3, 4, 5, 6], [9], 5, [1, 2, 5, 6, 9]),  # the body loses its oldest tokens
    ([1, 2], [3, 4, 5, 6], [9], 3, [1, 2, 9]),  # no room left for the body
    ([1, 2, 3, 4], [5, 6], [8, 9], 3, [1, 8, 9]),  # the head alone is too long: it loses its end, the tail stays
])
def test_truncation_rule(head, body, tail, n, kept):
    assert truncate(head, body, tail, n) == kept


def test_truncation_rule_refuses_to_cut_the_tail():
    with pytest.raises(ValueError, match="max_length 1"):
        truncate([1], [2], [8, 9], 1)


class Line(torch.nn.Module):
    """y = w x, w starting at 0: a real model whose validation loss is known in closed form."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Linear(1, 1, bias=False)
        torch.nn.init.zeros_(self.w.weight)

    def forward(self, x, y):
        return type("Out", (), {"loss": torch.nn.functional.mse_loss(self.w(x), y)})()


def _batch(rows):
    return {"x": torch.tensor([[r[0]] for r in rows]), "y": torch.tensor([[r[1]] for r in rows])}


TRAIN, VALID = [(1.0, 1.0)] * 4, [(1.0, 0.1)]  # training pulls w to 1; validation wants 0.1


def _fit(epochs: int, patience):
    model = Line()
    config = TrainingConfig(seed=13, epochs=epochs, batch_size=2, learning_rate=0.3, weight_decay=0.0,
                            patience=patience)
    return model, fit(model, _batch, TRAIN, VALID, config, "cpu")


def test_early_stopping_restores_the_best_epoch():
    model, history = _fit(epochs=5, patience=1)
    assert [h["epoch"] for h in history] == [1, 2] and [h["best"] for h in history] == [True, False]
    assert history[1]["valid_loss"] > history[0]["valid_loss"]
    restored = (model.w.weight.item() - 0.1) ** 2
    assert round(restored, 4) == history[0]["valid_loss"]


def test_no_patience_runs_every_epoch_and_is_seeded():
    (a, ha), (b, hb) = _fit(epochs=3, patience=None), _fit(epochs=3, patience=None)
    assert len(ha) == 3 and ha == hb and torch.equal(a.w.weight, b.w.weight)


def _rates(schedule: str, accumulation: int) -> tuple[list[float], torch.Tensor]:
    """The learning rate of every optimisation step (read before each step) and the weight after one epoch of
    four batches of one row."""
    model, seen = Line(), []
    step = torch.optim.AdamW.step

    def recording(self, *args, **kwargs):
        seen.append(round(self.param_groups[0]["lr"], 6))
        return step(self, *args, **kwargs)

    config = TrainingConfig(seed=13, epochs=1, batch_size=1, learning_rate=0.1, weight_decay=0.0, warmup_fraction=0.0,
                            schedule=schedule, gradient_accumulation=accumulation)
    torch.optim.AdamW.step = recording
    try:
        fit(model, _batch, TRAIN, VALID, config, "cpu")
    finally:
        torch.optim.AdamW.step = step
    return seen, model.w.weight.detach().clone()


def test_cosine_and_linear_decay_and_accumulated_steps():
    """Four batches: linear decay 0.1, 0.075, 0.05, 0.025; cosine 0.1, 0.085, 0.05, 0.015; accumulating two
    batches per step makes two steps, each on the mean gradient of its two batches."""
    assert _rates("linear", 1)[0] == [0.1, 0.075, 0.05, 0.025]
    assert _rates("cosine", 1)[0] == [0.1, 0.085355, 0.05, 0.014645]
    rates, weight = _rates("linear", 2)
    assert rates == [0.1, 0.05]
    assert not torch.equal(weight, _rates("linear", 1)[1])
