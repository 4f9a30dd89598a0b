"""The detection view of a generation example: hyp1/hyp2 in a seeded order, label naming the hallucinated one."""
from __future__ import annotations

import random


def ordered_hypotheses(example: dict, seed: int) -> dict:
    """{hyp1, hyp2, label} for an example with id, hyp_good and hyp_bad; the order is drawn from an RNG
    seeded by the seed and the example id, so it is the same on every build."""
    bad_first = random.Random(f"{seed}:detection:{example['id']}").random() < 0.5
    hyp1, hyp2 = (example["hyp_bad"], example["hyp_good"]) if bad_first else (example["hyp_good"], example["hyp_bad"])
    return {"hyp1": hyp1, "hyp2": hyp2, "label": "hyp1" if bad_first else "hyp2"}
