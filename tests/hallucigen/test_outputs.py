"""tasks/hallucigen/outputs.py: the card's near-copy count and the artifact probe's section with its gate."""

from tasks.hallucigen.outputs import absent_type_lines, near_copy_lines, probe_lines, short_split_lines


def test_the_card_counts_near_copy_hyp_good_per_split_and_direction():
    rows = [{"split": "test", "langpair": "en", "source": "We got a problem.", "hyp_good": "We have a problem."},
            {"split": "test", "langpair": "en", "source": "We got a problem.", "hyp_good": "There is trouble here."},
            {"split": "trial", "langpair": "sv", "source": "En man spelar.", "hyp_good": "En man spelar gitarr."}]
    lines = near_copy_lines(rows, 0.1)
    assert lines[-2:] == ["- test en: 1 of 2", "- trial sv: 1 of 1"] and "cap: 10% of a split" in lines[1]


def test_the_probe_section_says_what_the_gate_did_and_sets_the_fluency_check_beside_it():
    cell = {"n": 40, "accuracy": 0.7, "ci": [0.55, 0.82]}
    probe = {"classifiers": {"ngram": {"overall": cell, "by_type": {"tense": cell}, "by_langpair": {"en": cell},
                                       "by_type_langpair": {"tense/en": cell}}},
             "top_features": [{"feature": "was", "weight": 1.2}], "n": 40, "folds": 5,
             "gate": {"failures": ["artifact probe ngram: overall accuracy 0.70 > ceiling 0.60 (n=40)"],
                      "on_exceed": "warn", "ceilings": {"overall": 0.6, "per_type": 0.65, "per_type_override": {},
                                                        "min_examples": 20, "floor": 0.4, "classifiers": ["ngram"]}}}
    blind = {"by_split": {"test/en": {"n": 30, "accuracy": 0.5}, "trial/en": {"n": 10, "accuracy": 0.7}}}
    lines = probe_lines(probe, blind)
    assert "Gate (a warning only):" in lines
    assert "- artifact probe ngram: overall accuracy 0.70 > ceiling 0.60 (n=40)" in lines
    assert ("The zero-shot fluency check (untrained, next section) picks hyp- with accuracy 0.550 over the same 40 "
            "examples.") in lines
    assert probe_lines(None)[2] == "Not run in this build (`artifact_probe.enabled: false`)."


def test_the_card_names_the_types_no_source_supplies_and_the_short_splits_with_their_counts():
    tally = {"read": 10, "kept": 0, "rejected": 10, "rejected_by_reason": {"drifting_translation": 3,
                                                                            "no_candidate": 7}}
    stats = {"directions": {"en-fr": {"applicability": {"conversion": tally, "date": {**tally, "kept": 4}}}}}
    assert absent_type_lines(stats, [])[3:] == ["- en-fr: conversion: 0 of 10 source items (no_candidate 7, "
                                                "drifting_translation 3)"]
    assert absent_type_lines(stats, [{"langpair": "en-fr", "type": "conversion"}]) == []  # e.g. from ACES
    offer = {"labelled_hallucination": 76, "with_another_paraphrase": 4, "with_one_labelled_faithful": 0}
    english = {"en": {"applicability": {"natural": tally}, "natural_sources": offer}}
    assert absent_type_lines(english, [])[4:] == [
        "- en: SHROOM PG sources with a paraphrase labelled Hallucination (a natural hyp-): 76; with another "
        "paraphrase to be hyp+: 4; with one labelled Not Hallucination: 0"]
    english["en"]["applicability"]["natural"] = {**tally, "kept": 2}
    assert absent_type_lines(english, []) == []
    rows = [{"split": "test", "langpair": "sv"}] * 3 + [{"split": "trial", "langpair": "sv"}] * 2
    lines = short_split_lines(rows, {"sv": {"faithful_sources": 5}}, {"sizes": {"sv": {"trial": 2, "test": 119}}})
    assert lines[3:] == ["- sv test: 3 of 119 examples (one per source; 5 sources with a faithful hyp+, shared by "
                         "trial and test)"]
    assert short_split_lines(rows, {}, {"sizes": {"trial": 2, "test": 3}}) == []
