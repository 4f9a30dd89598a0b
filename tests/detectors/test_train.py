"""tasks/detectors/train.py: cross-encoder training is byte-identical."""
from __future__ import annotations


def test_cross_encoder_training_is_byte_identical(tmp_path):
    """The detector trainer on the shared loop: same rows, params and seed give the same safetensors bytes."""
    from tasks.detectors.train import train_cross_encoder

    rows = [{"source": f"The museum opened in {1900 + k}.", "hypothesis": f"The museum opened in {1900 + k + k % 2}.",
             "label": k % 2} for k in range(10)]
    params = {"seed": 13, "base_model": "minilm", "epochs": 2, "batch_size": 4, "learning_rate": 1e-4,
              "max_length": 32, "valid_fraction": 0.2}
    stats = [train_cross_encoder(rows[:8], rows[8:], params, tmp_path / name) for name in ("a", "b")]
    assert stats[0] == stats[1] and stats[0]["train_pairs"] == 8 and stats[0]["valid_pairs"] == 2
    assert [e["epoch"] for e in stats[0]["epochs"]] == [1, 2] and sum(e["best"] for e in stats[0]["epochs"]) == 1
    assert (tmp_path / "a" / "model.safetensors").read_bytes() == (tmp_path / "b" / "model.safetensors").read_bytes()
