"""tasks/dialogue/faithdial.py on fixtures that mimic the documented schema; missing or broken files are
clear errors."""
from __future__ import annotations

import pytest

from tasks.dialogue.faithdial import load_faithdial
from tasks.errors import InputError
from tests.dialogue.helpers import _accounted
from tests.paths import FIXTURES


def test_faithdial_fixture():
    result, counts = load_faithdial(FIXTURES / "faithdial", ["train", "valid", "test"])
    assert counts == {"train": 1, "valid": 5, "test": 3}
    _accounted(result)
    valid = result.splits["valid"]
    assert [r["id"] for r in valid] == ["faithdial:valid:0", "faithdial:valid:1", "faithdial:valid:2",
                                        "faithdial:valid:4"]
    second = valid[1]
    assert [(t["speaker"], t["text"]) for t in second["history"]] == [
        ("seeker", "Do you like jazz?"), ("wizard", "I know jazz began in New Orleans in the late 1800s."),
        ("seeker", "Who was its first star?")]
    assert (second["begin"], second["vrm"], second["dialogue_id"]) == (["Fully attributable"], ["Edification"],
                                                                         "faithdial:valid:0")
    assert valid[0]["original_response"] == "I love jazz, I play it every day!"
    reasons = sorted((r["file"], r["index"], r["reason"]) for r in result.rejects)
    assert reasons == [("test.json", 0, "empty_response"), ("test.json", 2, "malformed_dialogue"),
                       ("valid.json", 3, "empty_knowledge")]


def test_missing_or_broken_files_are_clear_errors(tmp_path):
    with pytest.raises(InputError, match="faithdial/valid.json: file not found"):
        load_faithdial(tmp_path, ["valid"])
    (tmp_path / "valid.json").write_text("[{")
    with pytest.raises(InputError, match="faithdial/valid.json: unreadable"):
        load_faithdial(tmp_path, ["valid"])
