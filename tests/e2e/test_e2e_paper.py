"""The paper profile end to end: a copy of the project switched to `profiles/paper.yaml`, shrunk by
tests/fixtures/profiles/paper-small.yaml, runs `dvc repro` of every stage with every paper Hub id answered by
a local Hub-compatible server (tiny random-weight models of the paper's architectures, the upstream data
layouts) and gpt-3.5-turbo (few-shot) and gpt-4-turbo (judge) by a local OpenAI-compatible server. Checked: every
stage completes; ACES rows are mapped to types and replace the perturbations of their types; the judge and the
few-shot system are other models, decoded as the paper says; the translation build rebuilt by direction on a
Dask cluster gives the same bytes (the build's determinism and runner independence); eCHARP/hCHARP are built;
FLAN-T5/GODEL train and generate with beam search; the NLI detectors follow the three-condition rule; the
pickle-only critic loads only with allow_pickle: true; a changed file on the Hub fails `fetch` with the hash
pinned in the source lock. Stage times are written to the test's log (`pytest -s` shows them)."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml

from tasks.detectors.nli import nli_decide
from tasks.hallucigen.aces import ACES_TYPES, PHENOMENA
from tasks.ops.repo_copy import copy_repo
from tests import hub_content as hc
from tests.chat_server import ChatHandler, chat_server
from tests.dask_cluster import restore, snapshot, task_runs
from tests.hub_server import hub_server
from tests.paths import FIXTURES
from tests.repo_copy import run

pytestmark = [pytest.mark.slow, pytest.mark.e2e]


class Gpt4Turbo(ChatHandler):
    """The endpoint of gpt-3.5-turbo (the few-shot system: a response as JSON) and gpt-4-turbo (the judge: its
    categories as JSON)."""

    auth: list[str] = []
    prompts: list[str] = []
    bodies: list[dict] = []

    def reply(self, prompt: str):
        Gpt4Turbo.prompts.append(prompt)
        if "demonstration examples" in prompt:
            return self.completion('{"response": "Yes, it was born in 1901."}')
        return self.completion('{"category": [1]}')


def repro_timed(repo: Path, env: dict, target: list[str]) -> dict[str, float]:
    """`dvc repro` (fails the test on a non-zero exit); seconds per stage, from the 'Running stage' lines."""
    proc = subprocess.Popen(["dvc", "repro", *target], cwd=repo, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    times, current, started, lines = {}, None, time.monotonic(), []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Running stage '"):
            now = time.monotonic()
            if current:
                times[current] = round(now - started, 1)
            current, started = line.split("'")[1], now
    if current:
        times[current] = round(time.monotonic() - started, 1)
    if proc.wait() != 0:
        pytest.fail(f"dvc repro failed:\n{''.join(lines)[-6000:]}")
    return times


@pytest.fixture(scope="module")
def paper_repo(tmp_path_factory, e2e_env):
    hub = hc.paper_hub(tmp_path_factory.mktemp("hub-models"))
    repo = copy_repo(tmp_path_factory.mktemp("e2e-paper") / "repo")
    with hub_server(hub) as hub_url, chat_server(Gpt4Turbo) as chat_url:
        env = {**e2e_env, "HF_ENDPOINT": hub_url, "HF_HOME": str(repo.parent / "hf-home"),
               "HF_HUB_DISABLE_TELEMETRY": "1", "OPENAI_API_KEY": "sk-test-paper"}
        shutil.copy(FIXTURES / "profiles" / "paper-small.yaml", repo / "profiles")
        (repo / "profiles" / "local-servers.yaml").write_text(yaml.safe_dump(
            {"charp": {"client": {"openai": {"base_url": chat_url}},
                       "judge": {"client": {"openai": {"base_url": chat_url}}}}}))
        for profile in ("paper", "paper-small", "local-servers"):
            run([sys.executable, "-m", "tasks.profiles", profile], repo, env)
        times = repro_timed(repo, env, [])
        print("paper-profile stage times (s):", json.dumps(times, indent=1))
        (repo.parent / "stage_times.json").write_text(json.dumps(times, indent=1))
        yield repo, env, hub, times


def test_every_stage_completes(paper_repo):
    repo, env, _, times = paper_repo
    stages = [line.split()[0] for line in run(["dvc", "stage", "list"], repo, env).stdout.splitlines()]
    assert sorted(times) == sorted(stages)
    assert {"dialogue@faithdial", "dialogue@charp", "charp_train@flan-t5-base-full",
            "charp_train@godel-base-full"} <= set(stages)
    assert run(["dvc", "status", "--quiet"], repo, env, check=False).returncode == 0


def test_aces_rows_are_mapped_to_types(paper_repo):
    """``source: aces``: every example of the nine ACES types is an ACES row of its mapped type, and tense and
    negation come from PAWS-X in the X->en directions only (overview §2.1)."""
    repo = paper_repo[0]
    rows = pq.read_table(repo / "data/hallucigen/translation/test.generation.parquet").to_pylist()
    aces = [r for r in rows if str(r.get("edit_detail", "")).startswith("aces:")]
    assert aces and {r["id"] for r in aces} == {r["id"] for r in rows if r["type"] in ACES_TYPES}
    assert all(PHENOMENA[r["edit_detail"].split(":", 1)[1]] == r["type"] for r in aces)
    assert {r["langpair"] for r in rows if r["type"] not in ACES_TYPES} <= {"fr-en", "de-en"}
    tally = json.loads((repo / "metrics/hallucigen_translation.json").read_text())["aces"]
    assert tally == {"read": 8 * len(PHENOMENA) + 2, "kept": 8 * len(PHENOMENA), "rejected": 2,
                     "rejected_by_reason": {"other_langpair": 1, "unmapped_phenomenon": 1}}


def test_dataset_cards_carry_the_source_blind_check(paper_repo):
    """The hypothesis-only check ran in both HalluciGen builds on the paper profile's fluency model (the tiny
    Llama): one figure per split and direction/language, over every built example, in the metrics and the card
    (the shared offline test build leaves it out: tests/fixtures/profiles/offline-small.yaml)."""
    from collections import Counter

    repo = paper_repo[0]
    for scenario in ("translation", "paraphrase"):
        report = json.loads((repo / f"metrics/hallucigen_{scenario}.json").read_text())["source_blind"]
        assert report["model"] == "meta-llama/Llama-2-7b-chat-hf"
        built = Counter(f"{split}/{r['langpair']}" for split in ("trial", "test") for r in pq.read_table(
            repo / f"data/hallucigen/{scenario}/{split}.detection.parquet").to_pylist())
        assert {k: f["n"] for k, f in report["by_split"].items()} == dict(built)
        card = (repo / f"data/hallucigen/{scenario}/README.md").read_text()
        assert "## Source-blind artifact check" in card and "Not run" not in card
        for key, f in report["by_split"].items():
            ci = f"{f['f1_ci'][0]}–{f['f1_ci'][1]}"
            assert f"| {key.replace('/', ' | ')} | {f['n']} | {f['f1']} | {ci} | {f['accuracy']} |" in card


def test_translation_build_by_direction_on_dask_matches_the_local_build(paper_repo, cluster):
    """The built translation dataset (PAWS-X edits and ACES rows) rebuilt with one shard per direction on the
    two Dask workers: the same files, byte for byte, as the build's shards one at a time on the local runner."""
    repo, env, _, _ = paper_repo
    address, cluster_env = cluster
    before = snapshot([repo / "data/hallucigen/translation", repo / "metrics/hallucigen_translation.json"])
    try:
        run([sys.executable, "-m", "flows.hallucigen_translation"], repo,
            {**env, "PREFECT_HOME": cluster_env["PREFECT_HOME"], "PREFECT_API_URL": cluster_env["PREFECT_API_URL"],
             "HALLUCI_DASK_SCHEDULER": address})
        runs = task_runs(cluster_env, "build-")
        directions = yaml.safe_load((repo / "params.yaml").read_text())["hallucigen_translation"]["directions"]
        assert sorted(r["name"] for r in runs) == sorted(f"build-{d}" for d in directions)
        assert {r["state_type"] for r in runs} == {"COMPLETED"}
        assert snapshot(list(before)) == before
    finally:
        restore(before)


def test_echarp_and_hcharp_are_built(paper_repo):
    repo = paper_repo[0]
    for split in ("echarp", "hcharp"):
        for h in ("h-full", "h-0"):
            assert pq.read_table(repo / f"data/dialogue/charp/{split}/{h}.parquet").num_rows == 6


def test_t5_systems_train_and_generate_with_beam_search(paper_repo):
    repo = paper_repo[0]
    params = yaml.safe_load((repo / "params.yaml").read_text())
    assert params["charp"]["generation"]["beam_size"] == 4
    for system in ("flan-t5-base", "godel-base"):
        assert json.loads((repo / f"data/charp/models/{system}/h-full/config.json").read_text())["model_type"] == "t5"
        for h in ("full", "0"):
            preds = pq.read_table(repo / f"data/charp/predictions/{system}/train-h-full.eval-h-{h}.parquet")
            assert preds.num_rows == 6


def test_nli_detectors_apply_the_three_condition_rule(paper_repo):
    repo = paper_repo[0]
    rows = [r for p in (repo / "data/detections").glob("*.parquet") for r in pq.read_table(p).to_pylist()
            if r["detector"] in ("nli-bge-m3", "nli-scandi") and r["score_2"] is not None]  # pair sets
    assert {r["detector"] for r in rows} == {"nli-bge-m3", "nli-scandi"}
    for r in rows:  # entailment = 1 - not_entailment (two-way, and three-way with neutral + contradiction)
        n1, n2 = r["score_1"], r["score_2"]
        assert r["prediction"] == nli_decide(1 - n1, n1, 1 - n2, n2), r


def test_pickle_critic_loads_only_with_allow_pickle(paper_repo):
    repo, env, hub, _ = paper_repo
    report = (repo / "data/charp/reports/README.md").read_text()
    assert f"Critic: FaithDial critic ({hc.CRITIC})." in report
    charp = json.loads((repo / "metrics/charp.json").read_text())
    assert len(charp) == 10 and all("critic" in cell for cell in charp.values())  # 6 grid/few-shot, 2 gold, 2 control
    params_file = repo / "params.yaml"
    saved = params_file.read_text()
    try:
        params_file.write_text(saved.replace("allow_pickle: true", "allow_pickle: false"))
        proc = run([sys.executable, "-m", "flows.charp_score"], repo, env, check=False)
    finally:
        params_file.write_text(saved)
    assert proc.returncode == 1
    error = [line for line in proc.stderr.splitlines() if line.startswith("ERROR")]
    assert len(error) == 1 and error[0].startswith(f"ERROR charp_score: critic '{hc.CRITIC}' cannot be loaded (")
    assert error[0].endswith("pickle-only weights need charp.metrics.critic.allow_pickle: true")


def test_changed_hub_file_fails_fetch_with_the_pinned_hash(paper_repo):
    repo, env, hub, _ = paper_repo
    lock_file = repo / "tasks/fetch/sources.lock.tsv"
    saved_lock = lock_file.read_text()
    files = hub.repos[("dataset", hc.ACES)]
    served = files["data/challenge_set.jsonl"]
    changed = served + b"\n"
    try:
        run([sys.executable, "-m", "tasks.fetch.pin"], repo, env)
        pinned = hashlib.sha256(served).hexdigest()
        assert f"aces\tchallenge_set.jsonl\t{pinned}" in lock_file.read_text()
        files["data/challenge_set.jsonl"] = changed
        proc = run(["dvc", "repro", "fetch"], repo, env, check=False)
    finally:
        files["data/challenge_set.jsonl"] = served
        lock_file.write_text(saved_lock)
    assert proc.returncode != 0
    expected = (f"ERROR fetch: source 'aces': file 'challenge_set.jsonl' from upstream hf://datasets/nikitam/ACES@main "
                f"has sha256 {hashlib.sha256(changed).hexdigest()}, expected {pinned} (lock file)")
    assert expected in proc.stdout + proc.stderr


def test_the_judge_and_the_few_shot_system_are_other_models_decoded_as_the_paper(paper_repo):
    """The few-shot prompts went to gpt-3.5-turbo at temperature 1.0, top-p 1.0 and a seed (Appendix B.3's
    settings; a frequency penalty of 0 is the endpoint's default, so not sent), the judge's to gpt-4-turbo:
    no system is graded by its own model."""
    sent = {(b["model"], "demonstration examples" in b["messages"][0]["content"],
             json.dumps({k: v for k, v in b.items() if k not in ("model", "messages")}, sort_keys=True))
            for b in Gpt4Turbo.bodies}
    assert sent == {("gpt-3.5-turbo", True, '{"max_tokens": 256, "seed": 13, "temperature": 1.0, "top_p": 1.0}'),
                    ("gpt-4-turbo", False, '{"max_tokens": 256, "temperature": 0.0}')}


def test_each_generator_makes_its_own_examples_and_results_rows(paper_repo):
    """The overview's generators (§3): Mixtral for English and Swedish paraphrases, gpt-sw3 for Swedish ones and
    Llama-2 for translation, each under its own id and with its own rows in the generation results (Tables 4 and
    6; one per prompt)."""
    repo = paper_repo[0]
    rows = pq.read_table(repo / "data/hallucigen_llm/generation.parquet").to_pylist()
    stats = json.loads((repo / "metrics/hallucigen_llm.json").read_text())
    made = {(r["id"].split(":")[1], r["langpair"]) for r in rows}
    assert {s for s, _ in made} <= {"mixtral-8x7b-instruct", "gpt-sw3-6.7b-v2", "llama-2-7b-chat"}
    assert all(lp in ({"en", "sv"} if s == "mixtral-8x7b-instruct" else {"sv"} if s == "gpt-sw3-6.7b-v2"
                      else {"en-fr", "fr-en", "en-de", "de-en"}) for s, lp in made)
    sources = Counter()  # the first 2 test sources of each direction and language
    for scenario in ("translation", "paraphrase"):
        test = pq.read_table(repo / f"data/hallucigen/{scenario}/test.generation.parquet")
        sources.update({lp: min(2, n) for lp, n in Counter(test["langpair"].to_pylist()).items()})
    # one example per paraphrase source, one per translation source and prompt (general, mentions)
    assert {s: g["read"] for s, g in stats["generators"].items()} == {
        "mixtral-8x7b-instruct": sources["en"] + sources["sv"], "gpt-sw3-6.7b-v2": sources["sv"],
        "llama-2-7b-chat": 2 * sum(sources[d] for d in ("en-fr", "fr-en", "en-de", "de-en"))}
    assert stats["read"] == sum(g["read"] for g in stats["generators"].values()) == stats["kept"] + stats["rejected"]
    assert sources["sv"] and sources["en"] and sources["fr-en"]
    # the tiny random-weight models answer, unparsably for the paraphrase prompt: no client failure
    assert not [r for g in stats["generators"].values() for r in g["rejected_by_reason"] if r.startswith("client")]
    generators = json.loads((repo / "data/reports/results.json").read_text())["generation"]["generators"]
    systems = {label.split(",")[0] for label in generators if label.startswith(("mixtral", "gpt-sw3", "llama"))}
    assert systems == {s for s, _ in made}
