"""The hypothesis-only artifact probe on synthetic sets: a planted artifact is found, a balanced set stays
near chance, folds keep a source together, reports are deterministic, and the gate and card read right."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from tasks.hallucigen.artifact_probe import card_lines, fold_of, gate_failures, probe_report

TYPES = ["addition", "named-entity", "number", "tense", "negation"]
WORDS = [f"w{i}" for i in range(60)]
CEILINGS = {"overall": 0.60, "per_type": 0.65, "per_type_override": {"addition": 0.75}, "min_examples": 20,
            "floor": 0.40, "classifiers": ["ngram", "encoder"]}
SPEC = {"folds": 5, "resamples": 200}


def hashed_embed(texts: list[str], dim: int = 64) -> np.ndarray:
    """A hashed bag of words, L2-normalised: a small deterministic stand-in for a sentence encoder."""
    out = np.zeros((len(texts), dim))
    for i, t in enumerate(texts):
        for w in t.lower().split():
            out[i, zlib.crc32(w.encode()) % dim] += 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1.0, norms)


def _row(i: int, source: str, faithful: str, hallucinated: str, flip: bool, kind: str, langpair: str) -> dict:
    hyp1, hyp2 = (hallucinated, faithful) if flip else (faithful, hallucinated)
    return {"id": f"x:{i}", "langpair": langpair, "split": "test" if i % 5 else "trial", "source": source,
            "hyp1": hyp1, "hyp2": hyp2, "type": kind, "label": "hyp1" if flip else "hyp2"}


def planted(n: int = 200, artifact: str = "was", seed: int = 1) -> list[dict]:
    """Two examples per source; the hallucinated side says 'was' where the faithful says 'is' (artifact
    'was') or carries one more word (artifact 'length')."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        words = list(rng.choice(WORDS, size=6))
        source = f"source {i // 2}"
        if artifact == "was":
            faithful = " ".join(words[:3] + ["is"] + words[3:])
            hallucinated = " ".join(words[:3] + ["was"] + words[3:])
        else:
            faithful = " ".join(words)
            hallucinated = " ".join(words[:3] + [str(rng.choice(WORDS))] + words[3:])
        rows.append(_row(i, source, faithful, hallucinated, bool(rng.integers(2)), TYPES[i % len(TYPES)],
                         ["en-fr", "en-de"][i % 2]))
    return rows


def balanced(n: int = 400, seed: int = 2) -> list[dict]:
    """hyp1/hyp2 differ by one word drawn from the same distribution on both sides; labels at random."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        words = list(rng.choice(WORDS, size=6))
        a, b = rng.choice(WORDS, size=2, replace=False)
        faithful = " ".join(words[:3] + [str(a)] + words[3:])
        hallucinated = " ".join(words[:3] + [str(b)] + words[3:])
        rows.append(_row(i, f"source {i // 2}", faithful, hallucinated, bool(rng.integers(2)),
                         TYPES[i % len(TYPES)], "en"))
    return rows


def test_planted_word_artifact_is_found():
    report = probe_report(planted(artifact="was"), SPEC, seed=0, embed=hashed_embed)
    figures = report["classifiers"]
    assert figures["ngram"]["overall"]["accuracy"] >= 0.9
    assert figures["encoder"]["overall"]["accuracy"] >= 0.9
    assert {f["feature"] for f in report["top_features"][:3]} & {"was", "is"}
    assert report["n"] == 200 and report["folds"] == 5
    assert sorted(figures["ngram"]["by_type"]) == sorted(TYPES)
    assert "tense/en-fr" in figures["ngram"]["by_type_langpair"]


def test_planted_length_artifact_is_found():
    report = probe_report(planted(artifact="length"), SPEC, seed=0)
    figures = report["classifiers"]
    assert "encoder" not in figures
    assert figures["longer"]["overall"]["accuracy"] == 1.0
    assert figures["ngram"]["overall"]["accuracy"] >= 0.9
    assert report["top_features"][0]["feature"] == "length"
    assert report["top_features"][0]["weight"] > 0


def test_balanced_set_stays_near_chance():
    figures = probe_report(balanced(), SPEC, seed=0, embed=hashed_embed)["classifiers"]
    for name in ("ngram", "encoder", "longer", "less_shared"):
        assert 0.4 <= figures[name]["overall"]["accuracy"] <= 0.6, name
    assert figures["longer"]["overall"]["accuracy"] == 0.5  # all ties, each counts half


def test_folds_keep_a_source_together():
    rows = planted(n=60)
    rows[-1]["source"] = rows[0]["source"]  # a source shared across splits and far apart in order
    folds = fold_of(rows, 5)
    by_source: dict[str, set[int]] = {}
    for r, f in zip(rows, folds):
        by_source.setdefault(r["source"], set()).add(f)
    assert all(len(fs) == 1 for fs in by_source.values())
    assert len(set(folds)) == 5
    assert fold_of([{"source": "a"}, {"source": "b"}, {"source": "a "}], 5) in ([0, 1, 0], [1, 0, 1])


def test_report_is_deterministic():
    rows = planted(n=100)
    assert probe_report(rows, SPEC, 3, hashed_embed) == probe_report(rows, SPEC, 3, hashed_embed)


def test_bad_label_is_refused():
    rows = planted(n=20)
    rows[0]["label"] = "hyp+"
    with pytest.raises(ValueError, match="hyp\\+"):
        probe_report(rows, SPEC, 0)


def _cell(n: int, acc: float) -> dict:
    return {"n": n, "accuracy": acc, "ci": [acc - 0.05, min(1.0, acc + 0.05)]}


def hand_report() -> dict:
    ngram = {"overall": _cell(300, 0.72),
             "by_type": {"addition": _cell(40, 0.70), "tense": _cell(58, 0.95), "date": _cell(12, 0.99),
                         "gender": _cell(25, 0.31), "number": _cell(30, 0.55)},
             "by_langpair": {"en-fr": _cell(150, 0.7), "fr-en": _cell(150, 0.74)}, "by_type_langpair": {}}
    longer = {"overall": _cell(300, 0.99), "by_type": {"tense": _cell(58, 1.0)},
              "by_langpair": {"en-fr": _cell(150, 0.99)}, "by_type_langpair": {}}
    return {"classifiers": {"ngram": ngram, "longer": longer}, "n": 300, "folds": 5,
            "top_features": [{"feature": "length", "weight": 1.234}, {"feature": "was", "weight": 0.8}]}


def test_gate_failures_lines():
    assert gate_failures(hand_report(), CEILINGS) == [
        "artifact probe ngram: overall accuracy 0.72 > ceiling 0.60 (n=300)",
        "artifact probe ngram: type tense accuracy 0.95 > ceiling 0.65 (n=58)",
    ]  # ngram's gender 0.31: a trained classifier below chance is no artifact (next test)


def test_gate_shows_more_places_at_the_bound():
    report = hand_report()
    report["classifiers"]["ngram"] = {"overall": _cell(300, 0.6012), "by_type": {}}
    assert gate_failures(report, CEILINGS) == ["artifact probe ngram: overall accuracy 0.6012 > ceiling 0.60 (n=300)"]


def test_card_lines_hold_the_tables():
    lines = card_lines(hand_report(), CEILINGS)
    assert lines[0] == "## Hypothesis-only artifact probe"
    assert "| type | ngram | longer |" in lines
    assert "| tense | 0.95 [0.90–1.00] (58) | 1.00 [0.95–1.00] (58) |" in lines
    assert "| addition | 0.70 [0.65–0.75] (40) | – |" in lines
    assert "| ngram | 300 | 0.72 | 0.67–0.77 |" in lines
    assert "| fr-en | 0.74 [0.69–0.79] (150) | – |" in lines
    assert "| `length` | +1.234 |" in lines
    assert not any("<" in line and ">" in line for line in lines)


def test_rows_that_share_a_hypothesis_are_one_item_in_one_fold():
    """PAWS-X gives fr-en and de-en the same English sentence and its edit under different sources: split across
    folds, the probe learned that sentence's words ('she moved') and scored 0.92 on gender."""
    from tasks.hallucigen.artifact_probe import fold_of

    rows = [{"source": f"s{k}", "hyp1": f"h{k}", "hyp2": f"b{k}"} for k in range(10)]
    rows += [{"source": "Il a déménagé.", "hyp1": "He moved.", "hyp2": "She moved."},
             {"source": "Er zog um.", "hyp1": "She moved.", "hyp2": "He moved."}]
    folds = fold_of(rows, 5)
    assert folds[10] == folds[11] and len(set(folds)) == 5


def test_a_figure_below_the_floor_fails_only_for_a_baseline_and_where_its_interval_is_below_chance():
    """Sides balanced exactly put a type below chance by cross-validation alone (negation 0.28 for the encoder on
    29 edits, 14 removed): a trained classifier is never held to the floor. An untrained baseline far below chance
    is an artifact the other way (hyp+ the longer one every time), where its interval lies below 0.5."""
    report = hand_report()
    report["classifiers"]["ngram"]["by_type"]["negation"] = {"n": 29, "accuracy": 0.28, "ci": [0.12, 0.45]}
    report["classifiers"]["longer"]["by_type"]["addition"] = {"n": 30, "accuracy": 0.35, "ci": [0.18, 0.53]}
    assert not any("negation" in line or "addition" in line for line in gate_failures(report, CEILINGS))
    report["classifiers"]["longer"]["by_type"]["addition"] = {"n": 30, "accuracy": 0.31, "ci": [0.2, 0.45]}
    assert "artifact probe longer: type addition accuracy 0.31 < floor 0.40 (n=30)" in gate_failures(report, CEILINGS)
