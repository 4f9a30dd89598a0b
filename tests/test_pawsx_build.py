"""PAWS-X reading and building on fixtures with bad rows: every row accounted for, errors name file and row."""
import shutil
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
    # id 1 is already past (no past is moved into the present); id 2 has a modal; id 8 has an empty French source
    assert fr_tense["kept"] == 0
    assert fr_tense["rejected_by_reason"] == {"bad_label": 1, "duplicate_id": 1, "empty_sentence": 2,
                                              "malformed_row": 1, "missing_source": 1, "modal": 1,
                                              "not_paraphrase": 1, "same_tense": 1}
    assert result.stats["examples"]["de-en"]["tense"]["kept"] == 1  # id 8: 'He has a car' -> 'He had a car'
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


def _pawsx_with_non_utf8(tmp_path: Path) -> Path:
    """The bad-rows fixture plus English and French rows whose bytes are Latin-1, not UTF-8, between good rows."""
    root = tmp_path / "pawsx"
    shutil.copytree(FIXTURE, root)
    en, fr, de = (root / "x-final" / lang / "dev_2k.tsv" for lang in ("en", "fr", "de"))
    en.write_bytes(en.read_bytes() + b"9\tThe caf\xe9 opened in 1990 .\tIn 1990 the caf\xe9 opened .\t1\n"
                   b"10\tThe girls sing in the choir .\tIn the choir , the girls sing .\t1\n")
    fr.write_bytes(fr.read_bytes()
                   + b"10\tLes filles chantent dans le ch\x9cur.\tDans le ch\x9cur chantent les filles.\t1\n"
                   b"11\tIl pleut.\tIl pleut encore.\t1\n")
    de.write_bytes(de.read_bytes() + "10\tDie Mädchen singen im Chor.\tIm Chor singen die Mädchen.\t1\n".encode())
    return root


def test_reader_counts_non_utf8_rows_and_reads_on(tmp_path):
    en = _pawsx_with_non_utf8(tmp_path) / "x-final" / "en" / "dev_2k.tsv"
    rows, rejects, tally = read_pawsx(en, "x-final/en/dev_2k.tsv")
    assert [r.id for r in rows] == ["1", "2", "7", "8", "10"]
    assert rows[-1].line == 12 and rows[-1].sentence1 == "The girls sing in the choir ."
    assert [(r.file, r.line, r.id, r.reason) for r in rejects][-1] == ("x-final/en/dev_2k.tsv", 11, "9", "non_utf8")
    assert tally.as_dict()["rejected_by_reason"]["non_utf8"] == 1 and tally.read == 11


def test_both_builds_report_non_utf8_rows_with_file_and_line(tmp_path, nlp):
    from tasks.hallucigen.translation import pawsx_pool

    root = _pawsx_with_non_utf8(tmp_path)
    result = build_examples(root, PARAMS, batched_parser(nlp), batched_parser(nlp, pipes=TAG_PIPES))
    bad = [(r["file"], r["line"], r["pawsx_id"], r["langpair"], r["type"])
           for r in result.rejects if r["reason"] == "non_utf8"]
    assert bad == [("x-final/en/dev_2k.tsv", 11, "9", lp, t)
                   for lp in ("fr-en", "de-en") for t in ("tense", "negation")]
    assert result.stats["files"]["x-final/fr/dev_2k.tsv"]["rejected_lines"] == {"empty_sentence": [4], "non_utf8": [5]}
    assert result.stats["examples"]["fr-en"]["tense"]["rejected_by_reason"]["missing_source"] == 2  # ids 8 and 10
    assert "de-en:tense:dev:10" in {e["id"] for e in result.examples}

    items, files, _ = pawsx_pool(root, ["dev"])
    assert files["x-final/en/dev_2k.tsv"]["rejected_lines"]["non_utf8"] == [11]
    assert files["x-final/fr/dev_2k.tsv"]["rejected_lines"]["non_utf8"] == [5]
    assert files["x-final/fr/dev_2k.tsv"]["kept"] + files["x-final/fr/dev_2k.tsv"]["rejected"] == 5
    assert [(it["key"], "fr" in it) for it in items if it["key"].endswith((":9", ":10"))] == [("pawsx:dev:10", False)]
