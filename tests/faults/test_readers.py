"""Fault injection into the readers and params: every bad input row is a counted reject naming its file and
index (kept + rejected = read), every bad file or setting one clear line, and a build that keeps nothing fails
instead of replacing good data with nothing. Each case runs on small inputs generated from the mirror."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tasks.dialogue.begin import load_begin
from tasks.dialogue.build import load_dialogue
from tasks.dialogue.dstc11 import load_dstc11
from tasks.errors import PipelineError
from tasks.params import ROOT, load_params
from tasks.params_schema import as_dict, flow_params
from tasks.pawsx.reader import read_pawsx
from tasks.rows import BadField, boolean, integer_text, text

FRACTIONS = {"train": 0.8, "valid": 0.1, "test": 0.1}
FAITHFUL = {"2022": ["Fully attributable"], "2021": ["entailment"]}
PAWSX = Path(__file__).parent.parent / "fixtures" / "pawsx_bad"


def accounted(result) -> dict[str, dict]:
    """Each file's tally, after checking kept + rejected = read and one reject row per rejected row."""
    tallies = {file: tally.as_dict() for file, tally in result.tallies.items()}
    for file, t in tallies.items():
        assert t["kept"] + t["rejected"] == t["read"], file
    assert len(result.rejects) == sum(t["rejected"] for t in tallies.values())
    return tallies


@pytest.fixture
def dstc11(mirror, tmp_path) -> Path:
    """The first 8 DSTC11 instances (indices 1-3 are knowledge-grounded) with the real knowledge base."""
    raw = tmp_path / "dstc11-track5"
    (raw / "val").mkdir(parents=True)
    shutil.copy(mirror / "dstc11-track5" / "knowledge.json", raw / "knowledge.json")
    for name in ("logs", "labels"):
        rows = json.loads((mirror / "dstc11-track5" / "val" / f"{name}.json").read_text(encoding="utf-8"))[:8]
        (raw / "val" / f"{name}.json").write_text(json.dumps(rows), encoding="utf-8")
    return raw


def edit_json(path: Path, change) -> None:
    rows = json.loads(path.read_text(encoding="utf-8"))
    change(rows)
    path.write_text(json.dumps(rows), encoding="utf-8")


def test_field_checks_name_the_field_and_the_fault():
    cases = [(lambda: text(123, "response"), "response_not_a_string"),
             (lambda: text(None, "response"), "empty_response"),
             (lambda: text(" None ", "response"), "empty_response"),
             (lambda: boolean("false", "target"), "target_not_a_boolean"),
             (lambda: integer_text("x6", "id"), "id_not_a_number")]
    for check, reason in cases:
        with pytest.raises(BadField) as info:
            check()
        assert info.value.reason == reason
    assert (text(" a ", "response"), boolean(False, "target"), integer_text("6", "id")) == ("a", False, 6)


def test_a_pawsx_id_that_is_not_a_number_is_a_counted_reject(tmp_path):
    """Case 1: 'x6' on line 3 was a ValueError traceback in the build's sort key."""
    path = tmp_path / "dev_2k.tsv"
    lines = (PAWSX / "x-final" / "en" / "dev_2k.tsv").read_text(encoding="utf-8").splitlines()
    lines[2] = "x6" + lines[2][1:]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows, rejects, tally = read_pawsx(path, "x-final/en/dev_2k.tsv")
    assert ("x-final/en/dev_2k.tsv", 3, "x6", "id_not_a_number") in {(r.file, r.line, r.id, r.reason) for r in rejects}
    assert "x6" not in {r.id for r in rows}
    assert tally.as_dict()["rejected_by_reason"]["id_not_a_number"] == 1
    assert tally.kept + len(rejects) == tally.read == len(lines) - 1


def test_a_pawsx_id_that_is_not_a_number_does_not_stop_the_build(tmp_path, nlp):
    from tasks.edits.spacy_model import TAG_PIPES, batched_parser
    from tasks.pawsx.build import build_examples

    root = tmp_path / "pawsx"
    shutil.copytree(PAWSX, root)
    for lang in ("en", "fr", "de"):
        path = root / "x-final" / lang / "dev_2k.tsv"
        lines = path.read_text(encoding="utf-8").splitlines()
        lines[2] = "x6" + lines[2][1:]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    params = {"seed": 13, "splits": ["dev"], "source_langs": ["fr", "de"], "types": ["tense", "negation"],
              "lexical_negation_share": 0.5}
    result = build_examples(root, params, batched_parser(nlp), batched_parser(nlp, pipes=TAG_PIPES))
    assert {(r["line"], r["pawsx_id"]) for r in result.rejects if r["reason"] == "id_not_a_number"} == {(3, "x6")}
    assert result.stats["files"]["x-final/fr/dev_2k.tsv"]["rejected_lines"]["id_not_a_number"] == [3]
    assert "x6" not in {e["pawsx_id"] for e in result.examples} and result.examples


def test_a_pawsx_build_that_keeps_nothing_fails(tmp_path, nlp):
    """Header-only files would have replaced data/pawsx_edits with empty parquet files."""
    from tasks.edits.spacy_model import TAG_PIPES, batched_parser
    from tasks.pawsx.build import build_examples

    for lang in ("en", "fr", "de"):
        path = tmp_path / "x-final" / lang / "dev_2k.tsv"
        path.parent.mkdir(parents=True)
        path.write_text("id\tsentence1\tsentence2\tlabel\n", encoding="utf-8")
    params = {"seed": 13, "splits": ["dev"], "source_langs": ["fr"], "types": ["tense"], "lexical_negation_share": 0.5}
    with pytest.raises(PipelineError, match=r"^PAWS-X: no example built from 0 rows read in \['x-final/en/dev_2k.tsv', "
                                            r"'x-final/fr/dev_2k.tsv'\]; data/pawsx_edits is left as it was$"):
        build_examples(tmp_path, params, batched_parser(nlp), batched_parser(nlp, pipes=TAG_PIPES))


@pytest.mark.parametrize("index, change, reason", [
    (1, lambda logs, labels: labels[1].update(response=123), "response_not_a_string"),
    (2, lambda logs, labels: logs[2][0].update(text=None), "empty_history_turn"),
    (3, lambda logs, labels: logs[3][-1].update(text=7), "history_turn_not_a_string"),
    (1, lambda logs, labels: labels.__setitem__(1, None), "label_not_an_object"),
    (2, lambda logs, labels: labels[2].update(target="false"), "target_not_a_boolean"),
    (3, lambda logs, labels: labels[3].update(knowledge={"domain": "hotel"}), "knowledge_not_a_list"),
    (2, lambda logs, labels: logs.__setitem__(2, "not a log"), "malformed_history"),
], ids=["response-int", "history-null", "history-int", "label-null", "target-string", "knowledge-object",
        "log-string"])
def test_dstc11_fields_of_the_wrong_type_are_counted_rejects(dstc11, index, change, reason):
    """Cases 2 and 3: tracebacks ('int' object has no attribute 'strip', 'NoneType' ... 'encode' / 'get'),
    and target "false" silently kept as knowledge-grounded."""
    logs_file, labels_file = dstc11 / "val" / "logs.json", dstc11 / "val" / "labels.json"
    before = load_dstc11(dstc11, FRACTIONS, 13)
    kept_before = {r["id"] for rows in before.splits.values() for r in rows}
    assert f"dstc11:{index}" in kept_before
    logs, labels = (json.loads(p.read_text(encoding="utf-8")) for p in (logs_file, labels_file))
    change(logs, labels)
    logs_file.write_text(json.dumps(logs), encoding="utf-8")
    labels_file.write_text(json.dumps(labels), encoding="utf-8")

    result = load_dstc11(dstc11, FRACTIONS, 13)
    tally = accounted(result)["val/labels.json"]
    assert {(r["index"], r["reason"]) for r in result.rejects} - {(r["index"], r["reason"]) for r in before.rejects} \
        == {(index, reason)}
    assert {r["id"] for rows in result.splits.values() for r in rows} == kept_before - {f"dstc11:{index}"}
    assert tally["read"] == 8


def test_a_repeated_dstc11_instance_is_kept_once(dstc11):
    edit_json(dstc11 / "val" / "logs.json", lambda logs: logs.append(logs[1]))
    edit_json(dstc11 / "val" / "labels.json", lambda labels: labels.append(labels[1]))
    result = load_dstc11(dstc11, FRACTIONS, 13)
    assert (8, "duplicate_instance") in {(r["index"], r["reason"]) for r in result.rejects}
    assert [r["id"] for rows in result.splits.values() for r in rows].count("dstc11:1") == 1
    assert accounted(result)["val/labels.json"]["read"] == 9


def test_empty_dstc11_files_fail_instead_of_an_empty_dataset(dstc11):
    """Case 5: `[]` in both files exited 0 and emptied data/dialogue/dstc11."""
    for name in ("logs", "labels"):
        (dstc11 / "val" / f"{name}.json").write_text("[]", encoding="utf-8")
    params = {"seed": 13, "options": {"split_fractions": FRACTIONS}}
    with pytest.raises(PipelineError, match=r"^dataset 'dstc11': no turn kept \(0 rows read\); "
                                            r"data/dialogue/dstc11 is left as it was$"):
        load_dialogue("dstc11", params, dstc11.parent)


def test_a_dstc11_file_that_is_not_a_list_is_one_line(dstc11):
    (dstc11 / "val" / "labels.json").write_text('{"target": true}', encoding="utf-8")
    with pytest.raises(PipelineError, match=r"^dstc11-track5/val/labels.json: must hold a JSON list, not dict$"):
        load_dstc11(dstc11, FRACTIONS, 13)


@pytest.fixture
def begin(mirror, tmp_path) -> Path:
    shutil.copytree(mirror / "begin", tmp_path / "begin")
    shutil.copytree(mirror / "begin-2021", tmp_path / "begin-2021")
    return tmp_path


def test_begin_bytes_that_are_not_utf8_are_a_counted_reject(begin):
    """Case 4: '\\xff\\xfe' in a row was a UnicodeDecodeError traceback while reading the header."""
    path = begin / "begin-2021" / "dev_05_24_21.tsv"
    lines = path.read_bytes().split(b"\n")
    lines[3] = b"\xff\xfe" + lines[3]
    path.write_bytes(b"\n".join(lines))
    result = load_begin(begin, FAITHFUL)
    tally = accounted(result)["begin-2021/dev_05_24_21.tsv"]
    assert tally["rejected_by_reason"] == {"non_utf8": 1}
    assert [(r["file"], r["index"]) for r in result.rejects if r["reason"] == "non_utf8"] == [
        ("begin-2021/dev_05_24_21.tsv", 2)]
    assert len(result.splits["dev_2021"]) == 836 - 1


def test_a_literal_none_response_is_an_empty_response(begin):
    path = begin / "begin" / "wow" / "begin_dev_wow.tsv"
    lines = path.read_text(encoding="utf-8").split("\n")
    fields = lines[1].split("\t")
    fields[4] = "None"
    lines[1] = "\t".join(fields)
    path.write_text("\n".join(lines), encoding="utf-8")
    result = load_begin(begin, FAITHFUL)
    assert (("begin/wow/begin_dev_wow.tsv", 0, "empty_response")
            in {(r["file"], r["index"], r["reason"]) for r in result.rejects})
    assert "None" not in {r["response"] for r in result.splits["dev"]}
    accounted(result)


def _stage_error(tmp_path: Path, change, *args: str) -> list[str]:
    """Stderr lines of `python -m flows.<args>` on a copy of the code whose params.yaml ``change`` edited."""
    for name in ("flows", "tasks"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    params = load_params()
    change(params)
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", *args], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert not (tmp_path / "data").exists()
    return proc.stderr.strip().splitlines()


def test_split_fractions_that_do_not_sum_to_one_are_one_line(tmp_path):
    """Case 6: a ValueError traceback inside the flow; now the params line, before any work."""
    def change(params):
        params["dialogue"]["dstc11"]["split_fractions"] = {"train": 0.8, "valid": 0.2, "test": 0.1}

    assert _stage_error(tmp_path, change, "flows.dialogue", "dstc11") == [
        "ERROR dialogue@dstc11: params.yaml: dialogue.dstc11.split_fractions: must sum to 1 "
        "(got {'train': 0.8, 'valid': 0.2, 'test': 0.1}, sum 1.1)"]


def test_a_repeated_pawsx_split_is_one_line(tmp_path):
    """Case 7: `splits: [dev, dev]` read the dev files twice (3,218 rows, 1,609 unique ids)."""
    def change(params):
        params["pawsx_edits"]["splits"] = ["dev", "dev"]

    assert _stage_error(tmp_path, change, "flows.pawsx_edits") == [
        "ERROR pawsx_edits: params.yaml: pawsx_edits.splits: must not repeat a value (got ['dev', 'dev'], 'dev' twice)"]


def test_a_begin_label_typo_is_one_line_naming_the_labels(tmp_path):
    """Case 8: 'Fully atributable' matched nothing and made all 1,227 BEGIN 2022 turns unfaithful."""
    def change(params):
        params["dialogue"]["begin"]["faithful"]["2022"] = ["Fully atributable"]

    assert _stage_error(tmp_path, change, "flows.dialogue", "begin") == [
        "ERROR dialogue@begin: params.yaml: dialogue.begin.faithful: '2022': 'Fully atributable' is not a label of "
        "BEGIN 2022 (labels: ['Fully attributable', 'Generic', 'Not fully attributable'])"]


def test_the_committed_begin_labels_build_as_before(mirror):
    """The same check passes the committed params, whose labels do occur in the data."""
    from flows.dialogue import dialogue

    options = as_dict(flow_params(dialogue, "begin")["params"])["options"]
    result = load_begin(mirror, options["faithful"])
    assert {r["fine_label"] for r in result.splits["dev"] if r["faithful"]} == set(options["faithful"]["2022"])


@pytest.mark.slow
def test_a_dstc11_build_that_reads_nothing_fails_and_keeps_the_dataset(tmp_path, mirror, e2e_env):
    """Case 5 end to end: the stage exits 1 with one line and data/dialogue/dstc11 keeps its bytes."""
    from tasks.ops.repo_copy import copy_repo
    from tests.repo_copy import run

    repo = copy_repo(tmp_path / "repo")
    raw = repo / "data" / "raw" / "dstc11-track5"
    shutil.copytree(mirror / "dstc11-track5", raw)
    run([sys.executable, "-m", "flows.dialogue", "dstc11"], repo, e2e_env)
    built = repo / "data" / "dialogue" / "dstc11"
    before = {p.relative_to(built): p.read_bytes() for p in sorted(built.rglob("*")) if p.is_file()}
    assert Path("train/h-full.parquet") in before
    for name in ("logs", "labels"):
        (raw / "val" / f"{name}.json").write_text("[]", encoding="utf-8")

    proc = run([sys.executable, "-m", "flows.dialogue", "dstc11"], repo, e2e_env, check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == (
        "ERROR dialogue@dstc11: dataset 'dstc11': no turn kept (0 rows read); data/dialogue/dstc11 is left as it was")
    assert "Traceback" not in proc.stderr
    assert {p.relative_to(built): p.read_bytes() for p in sorted(built.rglob("*")) if p.is_file()} == before
