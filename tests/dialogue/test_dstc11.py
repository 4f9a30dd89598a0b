"""tasks/dialogue/dstc11.py on the real mirror; an unresolved reference is rejected."""
from __future__ import annotations

import json
import shutil

from tasks.dialogue.dstc11 import load_dstc11
from tests.dialogue.helpers import _accounted


def test_dstc11_real_mirror(mirror):
    result = load_dstc11(mirror / "dstc11-track5", {"train": 0.8, "valid": 0.1, "test": 0.1}, seed=13)
    _accounted(result)
    tally = result.tallies["val/labels.json"].as_dict()
    assert (tally["read"], tally["kept"]) == (4173, 2129)
    assert tally["rejected_by_reason"] == {"not_knowledge_grounded": 2044}
    dialogues = {split: {r["dialogue_id"] for r in rows} for split, rows in result.splits.items()}
    assert not (dialogues["train"] & dialogues["valid"] or dialogues["train"] & dialogues["test"]
                or dialogues["valid"] & dialogues["test"])
    total = sum(len(d) for d in dialogues.values())
    assert total == 1793  # distinct first user turns among grounded instances
    assert abs(len(dialogues["train"]) / total - 0.8) < 0.03
    for rows in result.splits.values():
        for r in rows:
            assert r["history"][-1]["speaker"] == "seeker" and r["knowledge"] and r["response"]
    again = load_dstc11(mirror / "dstc11-track5", {"train": 0.8, "valid": 0.1, "test": 0.1}, seed=13)
    assert again.splits == result.splits


def test_dstc11_unresolved_reference_is_rejected(mirror, tmp_path):
    raw = tmp_path / "dstc11"
    shutil.copytree(mirror / "dstc11-track5", raw)
    labels = json.loads((raw / "val" / "labels.json").read_text())
    first = next(k for k, lab in enumerate(labels) if lab["target"])
    labels[first]["knowledge"][0]["doc_id"] = 9999
    labels[first + 1]["response"] = ""
    (raw / "val" / "labels.json").write_text(json.dumps(labels))
    result = load_dstc11(raw, {"train": 0.8, "valid": 0.1, "test": 0.1}, seed=13)
    by_index = {r["index"]: r["reason"] for r in result.rejects}
    assert by_index[first] == "unresolved_knowledge"
    assert by_index[first + 1] in ("empty_response", "not_knowledge_grounded")
    _accounted(result)
