"""The paper path against a local Hub-compatible server (tests/hub_server.py) serving the upstream data
layouts and tiny random-weight models of the paper's architectures (tests/hub_content.py): Hub fetch with
the source lock, ACES mapping, FaithDial/CHARP loaders, NLI's three-condition rule on a two-way and a
three-way model, seq2seq (T5) training and beam search, and the pickle-only critic. Each piece runs in a
subprocess (tests/paper_probe.py) whose HF_ENDPOINT is the server."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tasks.hallucigen.aces import PHENOMENA
from tests import hub_content as hc
from tests.hub_server import hub_server
from tests.paths import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    repos = hc.paper_hub(tmp_path_factory.mktemp("hub-models"))
    with hub_server(repos) as url:
        yield repos, url


def probe(url: str, hf_home: Path, *args: str, offline: bool = False) -> dict:
    env = {**os.environ, "HF_ENDPOINT": url, "HF_HOME": str(hf_home), "HF_HUB_DISABLE_TELEMETRY": "1",
           "HF_HUB_OFFLINE": "1" if offline else "0"}
    proc = subprocess.run([sys.executable, "-m", "tests.paper_probe", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        pytest.fail(f"paper_probe {args[0]} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def fetched(hub, tmp_path_factory):
    repos, url = hub
    work = tmp_path_factory.mktemp("paper")
    lock = work / "sources.lock.tsv"
    result = probe(url, work / "hf-home", "fetch", str(work / "raw"), str(lock))
    return work, lock, result


@pytest.fixture(scope="module")
def models(hub, fetched):
    repos, url = hub
    work = fetched[0]
    start = len(repos.requests)
    result = probe(url, work / "hf-home", "models", str(work / "models"), str(work / "raw"))
    return result, repos.requests[start:]


def test_fetch_pins_hub_files_and_a_changed_file_fails_with_the_pinned_hash(hub, fetched):
    repos, url = hub
    work, lock, result = fetched
    assert result["files"] == {"aces": ["challenge_set.jsonl"], "faithdial": ["train.json", "valid.json", "test.json"],
                               "charp": ["echarp.json", "hcharp.json"]}
    pinned = dict(((s, p), h) for s, p, h in (line.split("\t") for line in lock.read_text().splitlines()[1:]))
    served = repos.repos[("dataset", hc.CHARP)]["data/hcharp.json"]
    assert pinned[("charp", "hcharp.json")] == hashlib.sha256(served).hexdigest()
    assert (work / "raw" / "charp" / "hcharp.json").read_bytes() == served
    assert ("HEAD", "/datasets/huawei-noah/CHARP/resolve/main/data/hcharp.json") in repos.requests

    changed = served.replace(b"Who exactly?", b"Who, exactly?")
    repos.repos[("dataset", hc.CHARP)]["data/hcharp.json"] = changed
    try:
        again = probe(url, work / "hf-home", "fetch", str(work / "raw-again"), str(lock))
    finally:
        repos.repos[("dataset", hc.CHARP)]["data/hcharp.json"] = served
    assert again == {"error": f"source 'charp': file 'hcharp.json' from upstream hf://datasets/huawei-noah/CHARP@main "
                              f"has sha256 {hashlib.sha256(changed).hexdigest()}, expected "
                              f"{pinned[('charp', 'hcharp.json')]} (lock file)"}


def test_aces_rows_map_to_hallucigen_types(models):
    result, _ = models
    expected = sorted(set(PHENOMENA.values()))
    assert result["aces_types"] == {d: expected for d in ("de-en", "en-de", "en-fr", "fr-en")}
    assert result["aces_tally"] == {"read": 2 * 4 * len(PHENOMENA) + 2, "kept": 2 * 4 * len(PHENOMENA), "rejected": 2,
                                    "rejected_by_reason": {"other_langpair": 1, "unmapped_phenomenon": 1}}


def test_faithdial_and_charp_splits_are_built_from_the_hub_files(models):
    result, _ = models
    assert result["faithdial_turns"] == {"train": 18, "valid": 12, "test": 6}
    assert {k: result["charp_turns"][k] for k in ("echarp", "hcharp")} == {"echarp": 6, "hcharp": 6}


@pytest.mark.parametrize("name,columns", [(hc.BGE_M3, [1]), (hc.SCANDI, [1, 2])])
def test_nli_applies_the_three_condition_rule(models, name, columns):
    result = models[0][f"nli:{name}"]
    assert result["not_entailment_columns"] == columns
    assert result["labels"] == result["rule"]
    assert result["e_plus_n"] == [1.0] * 6


def test_t5_trains_and_generates_with_beam_search(models):
    result, _ = models
    losses = result["t5_losses"]
    assert (losses["train_turns"], losses["valid_turns"]) == (18, 12)
    assert [e["epoch"] for e in losses["epochs"]] == [1, 2]
    assert losses["epochs"][1]["train_loss"] < losses["epochs"][0]["train_loss"]
    assert "model.safetensors" in result["t5_saved"] and "tokenizer.json" in result["t5_saved"]
    assert len(result["t5_generated"]) == 6


def test_pickle_critic_loads_only_with_allow_pickle(models):
    result, requests = models
    assert 0.0 <= result["critic_pickle"] <= 1.0
    assert result["critic_safetensors_only"].startswith(f"critic '{hc.CRITIC}' cannot be loaded (")
    assert result["critic_safetensors_only"].endswith(
        "pickle-only weights need charp.metrics.critic.allow_pickle: true")
    assert [m for m, path in requests if path.startswith(f"/{hc.CRITIC}/resolve/")
            and path.endswith("/pytorch_model.bin")] == ["HEAD", "GET"]
    assert not [r for r in requests if "/commits/" in r[1] or "/discussions" in r[1]]  # no safetensors conversion bot


def _hub_check(url: str, hf_home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_ENDPOINT": url, "HF_HOME": str(hf_home), "HF_HUB_DISABLE_TELEMETRY": "1"}
    return subprocess.run([sys.executable, "-m", "tasks.fetch.hub_check"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_hub_check_lists_every_paper_repo_and_fails_on_a_missing_file(hub, tmp_path):
    repos, url = hub
    proc = _hub_check(url, tmp_path / "hf-home")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    charp_commit = repos.commit("dataset", hc.CHARP)
    assert f"ok dataset {hc.CHARP}@main commit {charp_commit}" in lines
    assert [line.split(" commit ")[0] for line in lines] == [
        f"ok dataset {hc.ACES}@main", f"ok dataset {hc.FAITHDIAL}@main", f"ok dataset {hc.CHARP}@main",
        f"ok model {hc.GPT_SW3} (hallucigen_llm generator gpt-sw3-6.7b-v2)",
        f"ok model {hc.XLMR_BASE} (cross-encoder base)", f"ok model {hc.CRITIC} (critic)",
        f"ok model {hc.BGE_M3} (nli detector nli-bge-m3)", f"ok model {hc.SCANDI} (nli detector nli-scandi)",
        f"ok model {hc.FLAN_T5} (charp system flan-t5-base)",
        f"ok model {hc.LLAMA} (hallucigen_llm generator llama-2-7b-chat)",
        f"ok model {hc.GODEL} (charp system godel-base)",
        f"ok model {hc.MIXTRAL} (hallucigen_llm generator mixtral-8x7b-instruct)",
        f"ok model {hc.ROBERTA_LARGE} (BERTScore)"]
    assert lines[5].endswith("weights pickle-only")
    assert lines[6].endswith("weights safetensors, labels ['entailment', 'not_entailment']")
    assert lines[7].endswith("weights safetensors, labels ['contradiction', 'entailment', 'neutral']")

    files = repos.repos[("dataset", hc.CHARP)]
    saved = files.pop("data/hcharp.json")
    try:
        proc = _hub_check(url, tmp_path / "hf-home")
    finally:
        files["data/hcharp.json"] = saved
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[2].startswith(f"MISSING dataset {hc.CHARP}@main commit ")
    assert "missing files ['data/hcharp.json']" in proc.stdout.splitlines()[2]
