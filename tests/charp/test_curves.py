"""tasks/charp/curves.py: learning curves read from the training metrics, a bad record naming its file."""
from __future__ import annotations

import json

import pytest

from tasks.charp.curves import curves_text, load_curves, plot_curves
from tasks.errors import InputError


def test_learning_curves_from_the_training_metrics(tmp_path):
    epochs = [{"epoch": 1, "train_loss": 3.0, "valid_loss": 3.2, "best": False},
              {"epoch": 2, "train_loss": 2.5, "valid_loss": 3.1, "best": True}]
    for name, untrained in (("train.smollm2.h-full.json", 3.6), ("train.flan-t5.h-2.json", None)):
        stats = {"train_turns": 8, "valid_turns": 2, "epochs": epochs}
        (tmp_path / name).write_text(json.dumps(stats | ({"untrained_valid_loss": untrained} if untrained else {})))
    (tmp_path / "generate.smollm2.train-h-full.eval-h-0.json").write_text("{}")
    curves = load_curves(tmp_path)
    assert list(curves) == ["flan-t5 (train h=2)", "smollm2 (train h=full)"]
    text = curves_text(curves)
    assert "| smollm2 (train h=full) | 8 | 2 | 3.6 | 3.1 | 2 | 0.5000 |" in text.splitlines()
    assert "| flan-t5 (train h=2) | 8 | 2 | – | 3.1 | 2 | – |" in text.splitlines()
    plot_curves(curves, tmp_path / "curves.png")
    assert (tmp_path / "curves.png").read_bytes()[:4] == b"\x89PNG"


def test_a_training_record_without_the_best_epoch_names_its_file(tmp_path):
    record = {"train_turns": 8, "valid_turns": 2, "epochs": [{"epoch": 1, "train_loss": 3.0, "valid_loss": 3.2}]}
    (tmp_path / "train.smollm2.h-full.json").write_text(json.dumps(record))
    with pytest.raises(InputError, match=r"train\.smollm2\.h-full\.json: epochs\[0\] has no 'best'"):
        load_curves(tmp_path)
    (tmp_path / "train.smollm2.h-full.json").write_text(json.dumps(record | {"epochs": []}))
    with pytest.raises(InputError, match=r"epochs\[0\] has no 'epoch'"):
        load_curves(tmp_path)
