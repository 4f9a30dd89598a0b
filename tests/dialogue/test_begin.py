"""tasks/dialogue/begin.py on the real mirror: the label mapping, an unknown label a counted reject."""
from __future__ import annotations

import shutil

from tasks.dialogue.begin import load_begin
from tests.dialogue.helpers import _accounted

FAITHFUL = {"2022": ["Fully attributable"], "2021": ["entailment"]}


def test_begin_real_mirror_and_label_mapping(mirror):
    result = load_begin(mirror, FAITHFUL)
    _accounted(result)
    assert len(result.splits["dev"]) == 430 + 414 + 383
    assert len(result.splits["dev_2021"]) == 836
    cmu = result.tallies["begin/cmu-dog/begin_dev_cmu.tsv"].as_dict()
    assert cmu["rejected_by_reason"] == {"empty_history_turn": 2}
    for row in result.splits["dev"] + result.splits["dev_2021"]:
        assert row["faithful"] == (row["fine_label"] in ("Fully attributable", "entailment"))
        assert len(row["history"]) == 1
    assert sum(r["faithful"] for r in result.splits["dev_2021"]) == 282


def test_begin_unknown_label_is_rejected(mirror, tmp_path):
    shutil.copytree(mirror / "begin", tmp_path / "begin")
    shutil.copytree(mirror / "begin-2021", tmp_path / "begin-2021")
    path = tmp_path / "begin" / "wow" / "begin_dev_wow.tsv"
    lines = path.read_text().split("\n")
    lines[1] = lines[1].rsplit("\t", 1)[0] + "\tMaybe attributable"
    lines[2] = "only\tthree\tfields"
    path.write_text("\n".join(lines))
    result = load_begin(tmp_path, FAITHFUL)
    wow = result.tallies["begin/wow/begin_dev_wow.tsv"].as_dict()
    assert wow["rejected_by_reason"] == {"malformed_row": 1, "unknown_label": 1}
    assert {(r["index"], r["reason"]) for r in result.rejects} >= {(0, "unknown_label"), (1, "malformed_row")}
