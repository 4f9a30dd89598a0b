"""PAWS-X reading and building on fixtures with bad rows: every row accounted for, errors name file and row."""
from pathlib import Path

import pytest

from tasks.edits.spacy_model import TAG_PIPES, batched_parser
from tasks.errors import InputError
from tasks.pawsx.build import build_examples
from tasks.pawsx.reader import read_pawsx

FIXTURE = Path(__file__).parent / "fixtures" / "pawsx_bad"
EN = FIXTURE / "x-final" / "en" / "dev_2k.tsv"
PARAMS = {"seed": 13, "splits": ["dev"], "source_langs": ["fr", "de"], "types": ["tense", "negation"],
          "lexical_negation_share": 0.5}


def test_reader_rejects_bad_rows_with_line_and_reason():
    rows, rejects, tally = read_pawsx(EN, "en/dev")
    assert [r.id for r in rows] == ["1", "2", "7", "8"]
    assert [(r.line, r.reason) for r in rejects] == [
        (4, "malformed_row"), (5, "empty_sentence"), (6, "empty_sentence"), (7, "duplicate_id"), (8, "bad_label")]
    assert all(r.file == "en/dev" for r in rejects)
    assert tally.as_dict() == {"read": 9, "kept": 4, "rejected": 5, "rejected_by_reason": {
        "bad_label": 1, "duplicate_id": 1, "empty_sentence": 2, "malformed_row": 1}}


def test_reader_errors_name_the_file(tmp_path):
    with pytest.raises(InputError, match="missing.tsv: file not found"):
        read_pawsx(tmp_path / "missing.tsv")
    bad = tmp_path / "noheader.tsv"
    bad.write_text("1\ta\tb\t1\n")
    with pytest.raises(InputError, match=r"noheader.tsv: line 1: header"):
        read_pawsx(bad)


def test_build_accounts_for_every_row(nlp):
    result = build_examples(FIXTURE, PARAMS, batched_parser(nlp), batched_parser(nlp, pipes=TAG_PIPES))
    for langpair, by_type in result.stats["examples"].items():
        for type_, s in by_type.items():
            assert s["read"] == 9, (langpair, type_)
            assert s["kept"] + s["rejected"] == s["read"]
    fr_tense = result.stats["examples"]["fr-en"]["tense"]
    # id 1 and 8 are editable; id 2 has a modal; id 8 has an empty French source
    assert fr_tense["kept"] == 1
    assert fr_tense["rejected_by_reason"] == {"bad_label": 1, "duplicate_id": 1, "empty_sentence": 2,
                                              "malformed_row": 1, "missing_source": 1, "modal": 1,
                                              "not_paraphrase": 1}
    de_neg = result.stats["examples"]["de-en"]["negation"]
    assert de_neg["kept"] == 3  # ids 1, 2 (cannot), 8
    assert len(result.rejects) == sum(s["rejected"] for by in result.stats["examples"].values() for s in by.values())
    ids = [e["id"] for e in result.examples]
    assert len(ids) == len(set(ids))
    by_id = {e["id"]: e for e in result.examples}
    ex = by_id["de-en:negation:dev:8"]
    assert (ex["source"], ex["hyp_good"], ex["hyp_bad"]) == (
        "Er hat ein Auto.", "He has a car .", "He does not have a car .")
    for det in result.detection:
        ex = by_id[det["id"]]
        hyps = {"hyp1": det["hyp1"], "hyp2": det["hyp2"]}
        assert hyps[det["label"]] == ex["hyp_bad"]
        assert set(hyps.values()) == {ex["hyp_good"], ex["hyp_bad"]}
