"""Dialogue loaders: FaithDial and CHARP on fixtures that mimic their documented schemas; DSTC11 and BEGIN
on the real mirror; bad input as counted rejects or clear errors."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tasks.dialogue.begin import load_begin
from tasks.dialogue.charp import SUBSET_SPLIT, load_charp
from tasks.dialogue.dstc11 import load_dstc11
from tasks.dialogue.faithdial import load_faithdial
from tasks.errors import InputError, PipelineError

FIXTURES = Path(__file__).parent / "fixtures"
FAITHFUL = {"2022": ["Fully attributable"], "2021": ["entailment"]}


def _accounted(result):
    for file, tally in result.tallies.items():
        d = tally.as_dict()
        assert d["kept"] + d["rejected"] == d["read"], file
    assert len(result.rejects) == sum(t.as_dict()["rejected"] for t in result.tallies.values())


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


def test_charp_fixture_joins_row_idx_and_rejects_bad_rows():
    valid, counts = load_faithdial(FIXTURES / "faithdial", ["valid"])
    result = load_charp(FIXTURES / "charp", {"echarp": "echarp.json", "hcharp": "hcharp.jsonl"},
                        valid.splits["valid"], counts["valid"])
    _accounted(result)
    assert [r["id"] for r in result.splits["echarp"]] == ["echarp:1", "echarp:4"]
    assert [r["id"] for r in result.splits["hcharp"]] == ["hcharp:1", "hcharp:4"]
    assert sorted((r["index"], r["reason"]) for r in result.rejects) == [
        (2, "row_idx_out_of_range"), (3, "row_idx_unusable_faithdial_turn"), (4, "duplicate_row_idx")]
    subset = result.splits[SUBSET_SPLIT]
    assert [r["id"] for r in subset] == ["faithdial:valid:1", "faithdial:valid:4"]
    assert all(r["split"] == SUBSET_SPLIT for r in subset)
    assert result.splits["hcharp"][0]["dialogue_id"] == "faithdial:valid:0"


def test_charp_files_with_different_row_idx_sets_fail(tmp_path):
    valid, counts = load_faithdial(FIXTURES / "faithdial", ["valid"])
    rows = json.loads((FIXTURES / "charp" / "echarp.json").read_text())
    (tmp_path / "e.json").write_text(json.dumps(rows[:2]))
    (tmp_path / "h.json").write_text(json.dumps(rows[:1]))
    with pytest.raises(PipelineError, match=r"do not hold the same row_idx set \(1 row_idx differ\)"):
        load_charp(tmp_path, {"echarp": "e.json", "hcharp": "h.json"}, valid.splits["valid"], counts["valid"])


def test_missing_or_broken_files_are_clear_errors(tmp_path):
    with pytest.raises(InputError, match="faithdial/valid.json: file not found"):
        load_faithdial(tmp_path, ["valid"])
    (tmp_path / "valid.json").write_text("[{")
    with pytest.raises(InputError, match="faithdial/valid.json: unreadable"):
        load_faithdial(tmp_path, ["valid"])


def test_dstc11_real_mirror(mirror):
    result = load_dstc11(mirror / "dstc11-track5", {"train": 0.8, "valid": 0.1, "test": 0.1}, seed=13)
    _accounted(result)
    tally = result.tallies["val/labels.json"].as_dict()
    assert (tally["read"], tally["kept"]) == (4173, 2129)
    assert tally["rejected_by_reason"] == {"not_knowledge_grounded": 2044}
    dialogues = {split: {r["dialogue_id"] for r in rows} for split, rows in result.splits.items()}
    assert not (dialogues["train"] & dialogues["valid"] or dialogues["train"] & dialogues["test"]
                or dialogues["valid"] & dialogues["test"])
    total = sum(len(d) for d in dialogues.values())
    assert total == 1793  # distinct first user turns among grounded instances
    assert abs(len(dialogues["train"]) / total - 0.8) < 0.03
    for rows in result.splits.values():
        for r in rows:
            assert r["history"][-1]["speaker"] == "seeker" and r["knowledge"] and r["response"]
    again = load_dstc11(mirror / "dstc11-track5", {"train": 0.8, "valid": 0.1, "test": 0.1}, seed=13)
    assert again.splits == result.splits


def test_dstc11_unresolved_reference_is_rejected(mirror, tmp_path):
    raw = tmp_path / "dstc11"
    shutil.copytree(mirror / "dstc11-track5", raw)
    labels = json.loads((raw / "val" / "labels.json").read_text())
    first = next(k for k, lab in enumerate(labels) if lab["target"])
    labels[first]["knowledge"][0]["doc_id"] = 9999
    labels[first + 1]["response"] = ""
    (raw / "val" / "labels.json").write_text(json.dumps(labels))
    result = load_dstc11(raw, {"train": 0.8, "valid": 0.1, "test": 0.1}, seed=13)
    by_index = {r["index"]: r["reason"] for r in result.rejects}
    assert by_index[first] == "unresolved_knowledge"
    assert by_index[first + 1] in ("empty_response", "not_knowledge_grounded")
    _accounted(result)


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
