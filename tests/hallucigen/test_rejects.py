"""tasks/hallucigen/rejects.py: rejected examples leave the pool; a bad rejects file names file and row."""

import csv

import pytest

from tasks.errors import InputError
from tasks.hallucigen.select import Candidate


def _cand(key, t, lp, source, good, bad, origin="shroom"):
    return Candidate(key=key, type=t, row={"langpair": lp, "source": source, "hyp_good": good, "hyp_bad": bad,
                                           "hyp_good_origin": origin, "edit_start": 0})


def test_rules_of_reads_the_failing_rules_a_note_opens_with():
    from tasks.hallucigen.rejects import rules_of

    assert [rules_of(n) for n in ("1,4,5: garbled", "5: giveaway", "3/5: odd", "4 (also 1): calque", "odd", "")] == [
        "1,4,5", "5", "3,5", "4", "", ""]


def test_rejected_examples_leave_the_pool_the_source_pair_on_rule_1_else_the_one_edit(tmp_path):
    from tasks.hallucigen.rejects import drop_rejected, read_rejects, reject_rows, write_rejects

    judged = [{"scenario": "paraphrase", "langpair": "en", "type": "tense", "source": "S1", "hyp_good": "G1",
               "hyp_bad": "B1 tense", "valid": False, "note": "1: hyp_good drops a clause"},
              {"scenario": "paraphrase", "langpair": "en", "type": "gender", "source": "S2", "hyp_good": "G2",
               "hyp_bad": "B2 gender", "valid": False, "note": "5: giveaway"},
              {"scenario": "paraphrase", "langpair": "en", "type": "number", "source": "S3", "hyp_good": "G3",
               "hyp_bad": "B3 number", "valid": True, "note": ""},
              {"scenario": "translation", "langpair": "de-en", "type": "tense", "source": "Er lebte in Paris.",
               "hyp_good": "He lived in Paris.", "hyp_bad": "He lives in Paris.", "valid": False, "note": "4: odd"}]
    path = tmp_path / "rejected.csv"
    assert write_rejects(path, reject_rows(judged)) == 3  # the valid item is no reject
    assert write_rejects(path, reject_rows(judged[:1])) == 3  # merging the same verdict again adds nothing
    pool = {"tense": [_cand("s1", "tense", "en", "S1", "G1", "B1 tense"),
                      _cand("s4", "tense", "en", "S4", "G4", "B4 tense"),
                      # a PAWS-X candidate is matched as built: without the tokenizer's spaces
                      _cand("p1", "tense", "de-en", "Er lebte in Paris.", "He lived in Paris .", "He lives in Paris .",
                            "pawsx")],
            "gender": [_cand("s1", "gender", "en", "S1", "G1", "B1 gender"),
                       _cand("s2", "gender", "en", "S2", "G2", "B2 gender"),
                       _cand("s2", "gender", "en", "S2", "G2", "B2 other gender")],
            "number": [_cand("s3", "number", "en", "S3", "G3", "B3 number")]}
    assert drop_rejected(pool, read_rejects(path)) == {"unfaithful_hyp_good": 2, "rejected_edit": 2}
    assert {t: [c.row["hyp_bad"] for c in v] for t, v in pool.items()} == {
        "tense": ["B4 tense"], "gender": ["B2 other gender"], "number": ["B3 number"]}


def test_a_rejects_file_with_a_bad_row_names_the_file_and_row(tmp_path):
    from tasks.hallucigen.rejects import REJECT_FIELDS, read_rejects

    path = tmp_path / "rejected.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, REJECT_FIELDS)
        w.writeheader()
        w.writerow({"item": "000000000000", "scenario": "paraphrase", "langpair": "en", "type": "tense", "rules": "1",
                    "source": "S", "hyp_good": "G", "hyp_bad": "B", "note": "1: x"})
    with pytest.raises(InputError, match=r"rejected\.csv: row 2: item 000000000000 is not the id"):
        read_rejects(path)
    with pytest.raises(InputError, match=r"missing\.csv: annotation sheet not found"):
        read_rejects(tmp_path / "missing.csv")
    path.write_text("item,source\nabc,S\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"rejected\.csv: row 2: missing item id or one of the columns"):
        read_rejects(path)
