"""tasks/hallucigen/build.py: the artifact probe's gate at the end of a build."""

import pytest

from tasks.errors import PipelineError
from tasks.hallucigen.build import check_probe, probe_gate

CEILINGS = {"overall": 0.6, "per_type": 0.65, "per_type_override": {"addition": 0.75}, "min_examples": 20,
            "floor": 0.4, "classifiers": ["ngram"]}


def _report(tense: float) -> dict:
    cell = {"n": 40, "accuracy": 0.55, "ci": [0.4, 0.7]}
    return {"classifiers": {"ngram": {"overall": cell, "by_langpair": {}, "by_type_langpair": {},
                                      "by_type": {"tense": {"n": 40, "accuracy": tense, "ci": [0.8, 1.0]},
                                                  "addition": {"n": 40, "accuracy": 0.7, "ci": [0.5, 0.8]}}}}}


def test_a_build_the_probe_gate_fails_stops_with_one_line_naming_type_and_figure(capsys):
    probe = {"gate": probe_gate(_report(0.95), {"ceilings": CEILINGS, "on_exceed": "fail"})}
    with pytest.raises(PipelineError) as err:
        check_probe("translation", probe)
    assert str(err.value) == ("HalluciGen translation: artifact probe ngram: type tense accuracy 0.95 > ceiling 0.65 "
                              "(n=40)")
    check_probe("translation", {"gate": probe_gate(_report(0.6), {"ceilings": CEILINGS, "on_exceed": "fail"})})
    warned = {"gate": probe_gate(_report(0.95), {"ceilings": CEILINGS, "on_exceed": "warn"})}
    check_probe("translation", warned)
    assert "WARNING HalluciGen translation: artifact probe ngram: type tense accuracy 0.95" in capsys.readouterr().err


def test_an_addition_goes_to_a_twin_where_hyp_bad_is_no_longer_than_hyp_good():
    """Every addition made hyp- the longer hypothesis (probe accuracy 1.00 on length alone). Made to hyp+'s twin,
    another faithful wording at least a word shorter, hyp- is no longer than hyp+; never on a copy of hyp+, nor
    where hyp- would still be the longer."""
    import random

    from tasks.edits import modifiers
    from tasks.edits.context import Context
    from tasks.hallucigen.build import addition_on_twin

    attested = modifiers.attested(["Där stod en ung man och väntade.", "En ung man sjunger.", "Han såg en ung man."],
                                  "sv")

    def twin(text: str, good: str):
        return text, Context("sv", random.Random(1), modifiers=attested, source=good)

    good = "En man spelar gitarr på scenen."
    edit = addition_on_twin(good, twin("En man spelar gitarr.", good))
    assert (edit.bad, edit.detail) == ("En ung man spelar gitarr.", "insert:ung")
    assert addition_on_twin("En man spelar gitarr.", twin("en man spelar gitarr", "En man spelar gitarr.")) is None
    assert addition_on_twin("En man spelar.", twin("En man spelar gitarr.", "En man spelar.")) is None
    assert addition_on_twin(good, None) is None
