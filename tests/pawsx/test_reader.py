"""tasks/pawsx/reader.py on fixtures with bad rows: rejects with line and reason, errors name the file."""

import pytest

from tasks.errors import InputError
from tasks.pawsx.reader import read_pawsx
from tests.pawsx.helpers import FIXTURE, _pawsx_with_non_utf8

EN = FIXTURE / "x-final" / "en" / "dev_2k.tsv"


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


def test_reader_counts_non_utf8_rows_and_reads_on(tmp_path):
    en = _pawsx_with_non_utf8(tmp_path) / "x-final" / "en" / "dev_2k.tsv"
    rows, rejects, tally = read_pawsx(en, "x-final/en/dev_2k.tsv")
    assert [r.id for r in rows] == ["1", "2", "7", "8", "10"]
    assert rows[-1].line == 12 and rows[-1].sentence1 == "The girls sing in the choir ."
    assert [(r.file, r.line, r.id, r.reason) for r in rejects][-1] == ("x-final/en/dev_2k.tsv", 11, "9", "non_utf8")
    assert tally.as_dict()["rejected_by_reason"]["non_utf8"] == 1 and tally.read == 11
