"""tasks/scoring/ensemble.py: the calibrated ensemble is fitted on tuning items only."""
from __future__ import annotations

from tasks.scoring.ensemble import in_tuning_part
from tasks.scoring.report import markdown
from tasks.scoring.results import score_all
from tests.scoring.helpers import BOOT, ENSEMBLE


def test_calibrated_ensemble_is_fitted_on_tuning_items_and_beats_its_noisy_members():
    """Members a and b are the gold label plus independent noise, so their stack averages the noise away;
    c has no output (no tuned threshold) and is left out of the stack."""
    import numpy as np

    rng = np.random.default_rng(0)

    def rows(name: str, n: int) -> list[dict]:
        gold = rng.random(n) < 0.5
        out = []
        for det in ("a", "b"):
            noise = rng.normal(0, 1.0, n)
            out += [{"eval_set": name, "id": f"{name}:{i}", "langpair": "en", "detector": det, "score_1": float(g + e),
                     "gold": "hallucinated" if g else "faithful", "p_hallucination": None}
                    for i, (g, e) in enumerate(zip(gold, noise))]
        return out

    outputs = {"tune": rows("tune", 100), "val": rows("val", 400), "other": rows("other", 300)}
    params = {"threshold_tuning_set": "tune", "generation_proxy": "none", "generation_sets": {}, "bootstrap": BOOT,
              "ensemble": ENSEMBLE}
    res = score_all(outputs, params, {"a": "similarity", "b": "similarity", "c": "similarity"})
    ens = res["ensemble"]
    assert ens["members"] == ["a", "b"] and all(c > 0.5 for c in ens["coef"])
    tuning = [i for i in range(400) if in_tuning_part(f"val:{i}", 0.5, 13)]
    assert ens["tuning_items"] == 100 + len(tuning) and 150 < len(tuning) < 250
    held = ens["held_out"]
    assert set(held) == {"other", "val"} and held["val"]["stack"]["n"] == 400 - len(tuning)
    assert held["other"]["stack"]["n"] == held["other"]["a"]["n"] == 300
    for name in ("val", "other"):
        assert held[name]["stack"]["auroc"] > max(held[name]["a"]["auroc"], held[name]["b"]["auroc"]) + 0.03, name
    text = markdown(res, params)
    assert "## Calibrated ensemble" in text and f"fitted on {ens['tuning_items']} tuning items only" in text
