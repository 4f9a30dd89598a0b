"""tasks/scoring/baselines.py: chance and majority F1 levels."""
from __future__ import annotations


def test_f1_levels_chance_and_majority_are_exact():
    from tasks.scoring.baselines import f1_levels, set_gold

    assert f1_levels(["hyp1", "hyp2"] * 5, pair=True) == {"chance": 0.5, "majority": 0.3333}
    assert f1_levels(["hyp1"] * 3 + ["hyp2"], pair=True) == {"chance": 0.4667, "majority": 0.4286}
    assert f1_levels(["hallucinated"] + ["faithful"] * 3, pair=False) == {"chance": 0.3333, "majority": 0.0}
    assert f1_levels(["hallucinated"] * 3 + ["faithful"], pair=False) == {"chance": 0.6, "majority": 0.8571}
    outputs = [{"id": i, "gold": g, "detector": d} for d in ("a", "b") for i, g in (("2", "hyp2"), ("1", "hyp1"))]
    assert set_gold(outputs) == ["hyp1", "hyp2"]
