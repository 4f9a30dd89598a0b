"""Faults: the report site renders the same bytes whatever the hash seed, and a model client that gets no answer
(a closed port on 127.0.0.1, a loopback chat server that fails some prompts) follows the client-failure rule of
tasks/models/client.py in every stage that calls one: a failed prompt is rejected with the client's reason, a
client that failed on every item fails the stage with one line and leaves the previous outputs as they were, a
client that failed on some gives one warning line."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from flows.charp_generate import check_client, merged
from flows.hallucigen_llm import check_generators, generated, save
from tasks.charp.cells import Cell
from tasks.charp.generate import fewshot_cell
from tasks.detectors.shards import check_clients, merge, plan, run_shard
from tasks.errors import PipelineError
from tasks.io import write_parquet
from tasks.models.client import client_label
from tasks.ops.repo_copy import copy_repo
from tasks.schemas import CHARP_PREDICTION, DETECTOR_OUTPUT, DIALOGUE_TURN, HALLUCIGEN_GENERATION
from tasks.scoring.eval_sets import EvalSet
from tests.chat_server import ChatHandler, chat_server
from tests.repo_copy import run, stage_env

ROOT = Path(__file__).resolve().parents[2]
CANARY = "sk-canary-7c41e2"
KEPT = "nothing written, the previous outputs are kept"


# --- the site: the same artifacts give the same bytes under any PYTHONHASHSEED ---------------------------------

def _table(rows: list[dict], schema: pa.Schema, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist([{f.name: r.get(f.name) for f in schema} for r in rows], schema), path)


def _cell_metrics(base: float) -> dict:
    """A cell's figures as charp_score writes them: the four report metrics, their intervals, the critic's control
    difference and judge categories (all beyond the four share one rank and are ordered by name)."""
    return {"n": 2, "bleu": base, "bertscore_gold": 0.4, "bertscore_knowledge": 0.3, "critic": 0.5,
            "bleu_ci": [base - 1, base + 1], "bertscore_gold_ci": [0.3, 0.5], "critic_ci": [0.0, 1.0],
            "critic_minus_gold": 0.1, "critic_minus_gold_ci": [-0.2, 0.4],
            **{f"judge_{k}": k / 10 for k in range(1, 8)}, "judge_unparsable": 0, "zeta": None}


@pytest.fixture
def site_root(tmp_path) -> Path:
    """The smallest artifacts every part of the site reads: a HalluciGen folder, detector scores, a CHARP grid."""
    root = tmp_path / "repo"
    gen = [{"id": f"t{i}", "scenario": "translation", "langpair": "fr-en", "split": "test", "type": t,
            "source": f"Il a {i} chats.", "hyp_good": f"He has {i} cats.", "hyp_bad": f"He has {i + 1} cats.",
            "edit_detail": f"{i} -> {i + 1}"} for i, t in enumerate(["number", "negation", "date", "number"])]
    _table(gen, HALLUCIGEN_GENERATION, root / "data/hallucigen/translation/test.generation.parquet")
    (root / "metrics").mkdir(parents=True)
    (root / "metrics/hallucigen_translation.json").write_text(json.dumps({"examples": {
        "test/fr-en/date": 1, "test/fr-en/negation": 1, "test/fr-en/number": 2}}))
    outputs = [{"eval_set": "hallucigen-translation-test", "id": r["id"], "langpair": "fr-en", "type": r["type"],
                "detector": det, "gold": "hyp1", "prediction": pred, "answer": None}
               for det, pred in (("rules", "hyp2"), ("llm", None), ("vote", "hyp1")) for r in gen]
    _table(outputs, DETECTOR_OUTPUT, root / "data/detections/hallucigen-translation-test.parquet")
    (root / "data/reports").mkdir(parents=True)
    (root / "data/reports/results.json").write_text(json.dumps({"thresholds": {}, "binary": {}, "detection": {
        "hallucigen-translation-test": {d: {"all": {"n": 4, "accuracy": 0.5, "f1": 0.4}} for d in ("rules", "llm")}}}))
    turns = [{"id": "d1", "split": "test", "dialogue_id": "x", "history": [{"speaker": "seeker", "text": "A pool?"}],
              "knowledge": "Hotel A: has a pool.", "response": "Yes, it has a pool."}]
    cells = {}
    for system, train_h in (("smollm2", "full"), ("fewshot", "none")):
        for eval_h in ("full", "2", "0"):
            _table(turns, DIALOGUE_TURN, root / f"data/dialogue/dstc11/test/h-{eval_h}.parquet")
            cell = Cell(system, train_h, eval_h)
            _table([{"id": "d1", "system": system, "train_h": train_h, "eval_h": eval_h, "prediction": "No."}],
                   CHARP_PREDICTION, root / f"data/charp/predictions/{system}/{cell.file_stem}.parquet")
            cells[f"{system}.train-h-{train_h}.eval-h-{eval_h}"] = _cell_metrics(len(cells) + 1.0)
    (root / "data/charp/reports").mkdir(parents=True)
    (root / "data/charp/reports/results.json").write_text(json.dumps({"cells": cells}))
    return root


RENDER = """
import sys
from pathlib import Path
from tasks.site import collect
from tasks.site.render import render_site
root, out = Path(sys.argv[1]), Path(sys.argv[2])
render_site({"datasets": collect.datasets(root), "types": collect.examples_by_type(root, 10),
             "detectors": collect.detector_pages(root, 50), "charp": collect.charp(root, "dstc11", "test", 3)}, {}, out)
"""


def _render(root: Path, out: Path, seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", RENDER, str(root), str(out)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_site_bytes_do_not_depend_on_the_hash_seed(site_root, tmp_path):
    builds = {seed: _render(site_root, tmp_path / f"site-{seed}", seed) for seed in ("1", "2", "3")}
    assert sorted(builds["1"]) == ["charp.html", "detectors/hallucigen-translation-test.html", "index.html",
                                   "types/translation-date.html", "types/translation-negation.html",
                                   "types/translation-number.html"]
    assert builds["1"] == builds["2"] == builds["3"]
    header = builds["1"]["charp.html"].decode().split("</tr>")[1]
    names = [h.split("<th>")[1] for h in header.split("</th>") if "<th>" in h]
    assert names[:15] == ["bleu", "bertscore_gold", "bertscore_knowledge", "critic", "bertscore_gold_ci", "bleu_ci",
                          "critic_ci", "critic_minus_gold", "critic_minus_gold_ci", "judge_1", "judge_2", "judge_3",
                          "judge_4", "judge_5", "judge_6"]
    assert names[15:17] == ["judge_7", "judge_unparsable"] and len(names) == 3 * 17


# --- model clients: a closed port and a loopback server that fails some prompts ---------------------------------

def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on: bound, then closed."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Partial(ChatHandler):
    """Fails a prompt naming FAIL (503), and the incorrect-translation prompt of a HALF source; answers EMPTY with
    blanks; else a paraphrase pair, a translation or a detection answer."""

    auth: list[str] = []

    def reply(self, prompt: str) -> tuple[int, bytes]:
        if "FAIL" in prompt or ("HALF" in prompt and "incorrectly" in prompt):
            return 503, b"{}"
        if "EMPTY" in prompt:
            return self.completion("  ")
        if "hyp+" in prompt:
            return self.completion("hyp+: A cat sat.\nhyp-: A dog sat on a hat.")
        if prompt.startswith("Translate the following text into"):
            return self.completion("A cat.")
        if prompt.startswith("Translate"):
            return self.completion("Two dogs.")
        if "Output:" in prompt:
            return self.completion('{"response": "It has a pool."}')
        return self.completion("hypothesis1")


@pytest.fixture(scope="module")
def partial():
    with chat_server(Partial) as url:
        yield url


def _openai(url: str) -> dict:
    return {"backend": "openai", "local": {"model": "smollm2"},
            "openai": {"base_url": url, "model": "m", "api_key_env": "HALLUCI_TEST_KEY", "timeout_s": 5, "retries": 0}}


def _source(i: int, scenario: str, langpair: str, text: str) -> dict:
    return {"id": f"{langpair}:test:{i}", "scenario": scenario, "langpair": langpair, "split": "test", "source": text,
            "origin": f"o{i}"}


SOURCES = [_source(0, "paraphrase", "en", "A cat sat."), _source(1, "translation", "fr-en", "Un chat."),
           _source(2, "translation", "fr-en", "FAIL un chien."), _source(3, "paraphrase", "en", "EMPTY here."),
           _source(4, "translation", "de-en", "Ein Hund."), _source(5, "translation", "de-en", "HALF ein Hund.")]


def _previous(root: Path) -> dict[Path, bytes]:
    """A previous build's outputs under root: a 7-row generation.parquet and its metrics."""
    rows = [{**{f.name: None for f in HALLUCIGEN_GENERATION}, "id": f"llm:old:{i}", "scenario": "paraphrase",
             "langpair": "en", "split": "test", "source": "Old.", "hyp_good": "Old.", "hyp_bad": "Older.",
             "type": "natural"} for i in range(7)]
    write_parquet(rows, HALLUCIGEN_GENERATION, root / "data/hallucigen_llm/generation.parquet")
    (root / "metrics").mkdir(parents=True, exist_ok=True)
    (root / "metrics/hallucigen_llm.json").write_text('{"read": 7, "kept": 7}\n')
    return {p: p.read_bytes() for p in (root / "data/hallucigen_llm/generation.parquet",
                                        root / "metrics/hallucigen_llm.json")}


def _generator(client: dict) -> dict:
    """hallucigen_llm params with one generator, 'gen', on ``client``, and the 'mentions' prompt."""
    return {"generators": ["gen"], "systems": {"gen": {"settings": None, "client": client}},
            "translation_prompts": ["mentions"]}


def test_unreachable_endpoint_rejects_every_source_with_its_reason_and_fails_the_stage(tmp_path, monkeypatch):
    monkeypatch.setenv("HALLUCI_TEST_KEY", CANARY)
    port = closed_port()
    params = _generator(_openai(f"http://127.0.0.1:{port}/v1"))
    examples, stats = generated(SOURCES, params, "gen")
    assert examples == [] and stats["read"] == len(SOURCES) == stats["kept"] + stats["rejected"]
    assert stats["rejected_by_reason"] == {"client_failure:timeout_or_connection": 6}
    assert stats["client_failures"] == {"timeout_or_connection": 10}  # 2 prompts per translation source
    before = _previous(tmp_path)
    with pytest.raises(PipelineError) as failed:
        check_generators({"gen": stats}, params)
    assert str(failed.value) == ("the model client failed on all 6 examples of generator gen "
                                 f"(timeout_or_connection 6): openai model m at http://127.0.0.1:{port}/v1; {KEPT}")
    assert {p: p.read_bytes() for p in before} == before
    assert CANARY not in str(failed.value) and CANARY not in json.dumps(stats)


def test_a_server_that_fails_some_prompts_keeps_the_rest_and_warns_once(partial, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HALLUCI_TEST_KEY", CANARY)
    params = _generator(_openai(partial))
    examples, stats = generated(SOURCES, params, "gen")
    assert [e["id"] for e in examples] == ["llm:gen:table9:en:test:0", "llm:gen:mentions:fr-en:test:1",
                                           "llm:gen:mentions:de-en:test:4"]
    assert stats["read"] == 6 and stats["kept"] == 3 and stats["rejected"] == 3
    # an empty answer is the model's: not a client failure
    assert stats["rejected_by_reason"] == {"client_failure:http_503": 2, "empty_completion": 1}
    assert stats["client_failures"] == {"empty_completion": 1, "http_503": 3}
    _previous(tmp_path)
    capsys.readouterr()
    check_generators({"gen": stats}, params)
    save(examples, stats, root=tmp_path)
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "WARNING hallucigen_llm: 2 of 6 examples of generator gen failed in the model client (http_503 2)"]
    assert pq.read_table(tmp_path / "data/hallucigen_llm/generation.parquet").num_rows == 3
    assert json.loads((tmp_path / "metrics/hallucigen_llm.json").read_text()) == stats
    assert CANARY not in err and set(Partial.auth) == {f"Bearer {CANARY}"}


def test_client_label_names_the_endpoint_without_credentials():
    params = _openai(f"https://user:{CANARY}@api.example.com:8443/v1?api-key={CANARY}#x")
    assert client_label(params) == "openai model m at https://api.example.com:8443/v1"
    assert client_label({**params, "backend": "local"}) == "local model smollm2"


TURN = {"id": "t", "history": [{"speaker": "seeker", "text": "Is there a pool?"}], "knowledge": "Hotel A: a pool.",
        "response": "Yes."}


def _fewshot(client: dict) -> tuple[list[str], dict]:
    """Four turns in two shards (the second turn's knowledge makes the server fail), merged as the flow does."""
    turns = [{**TURN, "id": f"t{i}", "knowledge": "FAIL" if i == 1 else TURN["knowledge"]} for i in range(4)]
    return merged([fewshot_cell(turns[:2], [TURN] * 3, client), fewshot_cell(turns[2:], [TURN] * 3, client)])


def test_fewshot_cell_follows_the_client_failure_rule(partial, capsys):
    cell = Cell("fewshot", "none", "full")
    client = _openai(partial)
    predictions, stats = _fewshot(client)
    assert predictions == ["It has a pool.", "", "It has a pool.", "It has a pool."]
    assert stats == {"unusable_answers": 1, "client_failures": {"http_503": 1}}
    capsys.readouterr()
    check_client(cell, stats, 4, client)
    assert capsys.readouterr().err.splitlines() == [
        "WARNING charp_generate: 1 of 4 turns of fewshot.train-h-none.eval-h-full failed in the model client "
        "(http_503 1)"]
    port = closed_port()
    closed = _openai(f"http://127.0.0.1:{port}/v1")
    predictions, stats = _fewshot(closed)
    assert predictions == [""] * 4 and stats["client_failures"] == {"timeout_or_connection": 4}
    with pytest.raises(PipelineError) as failed:
        check_client(cell, stats, 4, closed)
    assert str(failed.value) == (
        "the model client failed on all 4 turns of fewshot.train-h-none.eval-h-full (timeout_or_connection 4): "
        f"openai model m at http://127.0.0.1:{port}/v1; {KEPT}")
    check_client(Cell("smollm2", "full", "full"), {}, 4, closed)  # a trained system has no client


def _detect(llm: dict) -> tuple[list[dict], dict, dict, list[str]]:
    """llm-general on a four-example pair set in two shards; the server fails the example whose source says FAIL."""
    rows = [{"id": f"p{i}", "langpair": "fr-en", "type": "number", "source": "FAIL" if i == 2 else f"Il a {i} ans.",
             "hyp1": f"He is {i + 1}.", "hyp2": f"He is {i}.", "label": "hyp1"} for i in range(4)]
    sets = {"hallucigen-translation-test": EvalSet("hallucigen-translation-test", "pair", "translation", rows=rows)}
    spec = {"llm-general": {"kind": "llm_prompt", "prompt": "general"}}
    shards = plan(spec, sets, 13, 2, llm)
    outputs, stats = merge(shards, [run_shard(s, llm) for s in shards])
    return outputs, stats, spec, list(sets)


def test_llm_detector_follows_the_client_failure_rule(partial, capsys):
    llm = _openai(partial)
    outputs, stats, spec, sets = _detect(llm)
    assert [o["prediction"] for o in outputs] == ["hyp1", "hyp1", None, "hyp1"]
    assert stats["llm-general"]["client_failures"] == {"http_503": 1}
    capsys.readouterr()
    check_clients(spec, stats, sets, llm)
    assert capsys.readouterr().err.splitlines() == [
        "WARNING detect: 1 of 4 examples of llm-general failed in the model client (http_503 1)"]
    port = closed_port()
    closed = _openai(f"http://127.0.0.1:{port}/v1")
    outputs, stats, spec, sets = _detect(closed)
    assert [o["prediction"] for o in outputs] == [None] * 4
    with pytest.raises(PipelineError) as failed:
        check_clients(spec, stats, sets, closed)
    assert str(failed.value) == ("the model client failed on all 4 examples of llm-general (timeout_or_connection 4): "
                                 f"openai model m at http://127.0.0.1:{port}/v1; {KEPT}")


def test_openai_client_gives_each_prompts_failure_reason(partial):
    from tasks.models.http import OpenAIChatClient

    client = OpenAIChatClient(partial, "m", api_key_env=None, retries=0)
    answers = client.complete(["Is it FAIL?", "EMPTY", "Which one?"])
    assert answers == [None, None, "hypothesis1"]
    assert client.call_failures == ["http_503", None, None]  # an empty answer is an answer
    assert client.failures == {"empty_completion": 1, "http_503": 1}


def test_local_client_never_fails_a_prompt():
    from tasks.models.local import LocalChatClient

    client = LocalChatClient("smollm2", max_new_tokens=4, batch_size=2)
    answers = client.complete(["Say hello.", "Name a colour."])
    assert len(answers) == 2 and client.call_failures == [None, None]


# --- the stage itself, as `dvc repro hallucigen_llm` runs it -----------------------------------------------------

def _stage_repo(tmp_path: Path, base_url: str) -> Path:
    """A repo copy whose hallucigen_llm stage reads four test sources and calls the endpoint at base_url."""
    repo = copy_repo(tmp_path / "repo")
    for scenario, rows in (("translation", SOURCES[1:3]), ("paraphrase", [SOURCES[0], SOURCES[3]])):
        gen = [{**{f.name: None for f in HALLUCIGEN_GENERATION}, **r, "hyp_good": r["source"], "hyp_bad": "x",
                "type": "number"} for r in rows]
        write_parquet(gen, HALLUCIGEN_GENERATION, repo / f"data/hallucigen/{scenario}/test.generation.parquet")
    params = yaml.safe_load((repo / "params.yaml").read_text())
    params["hallucigen_llm"].update(enabled=True, sources_per_setting=2, translation_prompts=["mentions"])
    client = params["hallucigen_llm"]["systems"]["smollm2"]["client"]
    client.update(backend="openai", openai=_openai(base_url)["openai"])
    (repo / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False, allow_unicode=True))
    return repo


@pytest.mark.slow
def test_hallucigen_llm_stage_fails_in_one_line_or_warns_in_one(tmp_path, prefect_api, partial):
    port = closed_port()
    repo = _stage_repo(tmp_path / "closed", f"http://127.0.0.1:{port}/v1")
    before = _previous(repo)
    env = {**stage_env(tmp_path), "PREFECT_API_URL": prefect_api, "HALLUCI_TEST_KEY": CANARY}
    proc = run([sys.executable, "-m", "flows.hallucigen_llm"], repo, env, check=False)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert lines[-1] == ("ERROR hallucigen_llm: the model client failed on all 4 examples of generator smollm2 "
                         f"(timeout_or_connection 4): openai model m at http://127.0.0.1:{port}/v1; {KEPT}")
    assert [line for line in lines if "failed on all" in line] == [lines[-1]]
    assert not any("Traceback" in line for line in lines) and CANARY not in proc.stderr + proc.stdout
    assert {p: p.read_bytes() for p in before} == before

    repo = _stage_repo(tmp_path / "partial", partial)
    _previous(repo)
    proc = run([sys.executable, "-m", "flows.hallucigen_llm"], repo, env)
    assert [line for line in proc.stderr.splitlines() if "failed in the model client" in line] == [
        "WARNING hallucigen_llm: 1 of 4 examples of generator smollm2 failed in the model client (http_503 1)"]
    stats = json.loads((repo / "metrics/hallucigen_llm.json").read_text())
    assert stats["read"] == 4 and stats["kept"] == 2 and stats["rejected_by_reason"] == {
        "client_failure:http_503": 1, "empty_completion": 1}
    assert pq.read_table(repo / "data/hallucigen_llm/generation.parquet").num_rows == 2
