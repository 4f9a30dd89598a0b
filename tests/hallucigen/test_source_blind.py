"""tasks/hallucigen/source_blind.py: the source-blind card's F1 with its seeded bootstrap interval."""



def test_the_source_blind_card_gives_f1_with_its_seeded_bootstrap_interval():
    from tasks.hallucigen.source_blind import _figures, card_lines

    decisions = [("hyp1", "hyp1")] * 6 + [("hyp2", "hyp2")] * 5 + [("hyp1", "hyp2")] * 3 + [("hyp2", "hyp1")] * 2 + [
        ("hyp2", None)]
    figures = _figures(decisions, 13)
    assert figures == {"n": 17, "f1": 0.6458, "f1_ci": [0.3929, 0.8786], "accuracy": 0.6471}
    assert _figures(decisions, 13) == figures and _figures(decisions, 14)["f1_ci"] != figures["f1_ci"]
    report = {"model": "smollm2", "dtype": "float32", "target_f1": 0.6, "by_split": {"test/en": figures},
              "by_type": {"test/en/tense": _figures(decisions[:4], 13)}}
    assert "| test | en | 17 | 0.6458 | 0.3929–0.8786 | 0.6471 | NO |" in card_lines(report)
