"""params.yaml is validated per section at stage start: a bad value is one line naming the key; flows take
their validated params as Prefect flow parameters, so every run records what it was built with."""
from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tasks.errors import ParamsError, PipelineError
from tasks.params import PARAMS_FILE, ROOT, load_params
from tasks.params_schema import (
    SECTIONS,
    CharpGenerate,
    DialogueBuild,
    as_dict,
    flow_keys,
    flow_params,
    validate_section,
)


@pytest.fixture
def raw() -> dict:
    return copy.deepcopy(load_params())


def _error(raw: dict, section: str) -> str:
    with pytest.raises(ParamsError) as info:
        validate_section(raw, section)
    return str(info.value)


def test_every_section_of_params_yaml_is_valid_and_round_trips(raw):
    assert set(SECTIONS) == set(raw)
    for name, section in raw.items():
        assert as_dict(validate_section(raw, name)) == section


def test_negative_size(raw):
    raw["hallucigen_translation"]["sizes"]["trial"] = -5
    assert _error(raw, "hallucigen_translation") == \
        "params.yaml: hallucigen_translation.sizes.trial: must be >= 1 (got -5)"


def test_generation_shards_must_be_whole_batches(raw):
    raw["charp"]["generation"].update(batch_size=4, shard_rows=6)
    assert _error(raw, "charp") == ("params.yaml: charp.generation: shard_rows (6) must be a multiple of "
                                    "batch_size (4): a shard of whole batches gives the same predictions as one shard")


def test_unknown_type_lists_the_known_ones(raw):
    raw["hallucigen_translation"]["types"].append("sarcasm")
    assert _error(raw, "hallucigen_translation") == (
        "params.yaml: hallucigen_translation.types[10]: must be one of 'addition', 'named-entity', 'number', "
        "'conversion', 'date', 'gender', 'pronoun', 'antonym', 'tense', 'negation' or 'natural' (got 'sarcasm')")


def test_unknown_split(raw):
    raw["pawsx_edits"]["splits"] = ["dev", "tset"]
    assert _error(raw, "pawsx_edits") == \
        "params.yaml: pawsx_edits.splits[1]: must be one of 'dev' or 'test' (got 'tset')"
    raw = load_params()
    raw["hallucigen_translation"]["pawsx_splits"] = ["tset"]
    assert _error(raw, "hallucigen_translation") == \
        "params.yaml: hallucigen_translation.pawsx_splits[0]: must be one of 'dev' or 'test' (got 'tset')"


def test_unknown_direction(raw):
    raw["hallucigen_translation"]["directions"][1] = "en-xx"
    assert _error(raw, "hallucigen_translation") == ("params.yaml: hallucigen_translation.directions[1]: must be one "
                                                     "of 'en-fr', 'fr-en', 'en-de' or 'de-en' (got 'en-xx')")


def test_missing_spacy_model_is_named(raw):
    raw["pawsx_edits"]["spacy_model"] = "en_core_web_nope"
    assert _error(raw, "pawsx_edits") == ("params.yaml: pawsx_edits.spacy_model: spaCy model 'en_core_web_nope' is "
                                          "not installed (pip install it, or name an installed one)")
    from tasks.edits.spacy_model import load_english

    with pytest.raises(PipelineError, match=r"^spaCy model 'en_core_web_nope' is not installed"):
        load_english("en_core_web_nope")


def test_unknown_and_missing_keys_and_union_values(raw):
    raw["charp"]["sedd"] = 13
    assert _error(raw, "charp") == "params.yaml: charp.sedd: unknown key"
    raw = load_params()
    del raw["charp"]["seed"]
    assert _error(raw, "charp") == "params.yaml: charp.seed: missing"
    raw = load_params()
    raw["dialogue"]["truncation"] = ["full", -1]
    assert _error(raw, "dialogue") == \
        "params.yaml: dialogue.truncation[1]: must be one of 'full' or must be >= 0 (got -1)"
    raw = load_params()
    raw["charp"]["grid"]["systems"] = ["nope"]
    assert _error(raw, "charp") == \
        ("params.yaml: charp: grid.systems ['nope'] are not in systems (['flan-t5-base', 'godel-base', 'godel-large', "
         "'smollm2'])")
    raw = load_params()
    del raw["detect"]["detectors"]["similarity"]["model"]
    assert _error(raw, "detect") == "params.yaml: detect.detectors.similarity: a similarity detector needs 'model'"


def test_stage_views_read_only_their_keys(tmp_path):
    assert CharpGenerate.params_keys() == ["charp.dataset", "charp.eval_dataset", "charp.seed", "charp.splits",
                                           "charp.subsets", "charp.systems", "charp.generation", "charp.fewshot",
                                           "charp.client"]
    assert DialogueBuild.params_keys(dataset="begin") == ["dialogue.seed", "dialogue.truncation", "dialogue.begin"]
    from flows.dialogue import dialogue
    from flows.score import score

    assert flow_keys(score) == ["score", "detect.detectors"]
    got = flow_params(dialogue, "begin")
    assert got["dataset"] == "begin" and as_dict(got["params"]) == {
        "seed": 13, "truncation": ["full", 3, 2, 1, 0], "options": load_params("dialogue")["begin"]}
    with pytest.raises(ParamsError, match=r"^params.yaml: dialogue.sarcasm: missing$"):
        flow_params(dialogue, "sarcasm")
    with pytest.raises(ParamsError, match=r"^dialogue takes 1 argument\(s\) \(dataset\), got 0$"):
        flow_params(dialogue)


def test_bad_params_stop_the_stage_with_one_line(tmp_path):
    """The real entry point, on a copy of the code: exit 1 and one line on stderr, before any work."""
    for name in ("flows", "tasks"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    params = load_params()
    params["hallucigen_translation"]["sizes"]["trial"] = -5
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "flows.hallucigen_translation"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "ERROR hallucigen_translation: params.yaml: hallucigen_translation.sizes.trial: must be >= 1 (got -5)"]
    assert not (tmp_path / "data").exists()


def test_flow_runs_record_their_params(tmp_path):
    """A real Prefect run (temporary server) stores the validated params as the flow run's parameters."""
    from prefect.client.orchestration import get_client
    from prefect.testing.utilities import prefect_test_harness

    from flows.fetch import fetch

    params = flow_params(fetch)["params"].model_copy(update={"sources": ["no-such-source"]})
    with prefect_test_harness(server_startup_timeout=180):
        state = fetch(params=params, return_state=True)
        assert state.is_failed() and "unknown sources ['no-such-source']" in str(state.message)
        with get_client(sync_client=True) as client:
            run = client.read_flow_run(state.state_details.flow_run_id)
    assert run.parameters == {"params": {**load_params("fetch"), "sources": ["no-such-source"]}}
    assert PARAMS_FILE.read_text(encoding="utf-8")  # the real params file is untouched


@pytest.mark.parametrize("base,test_profile", [("offline", "offline-small"), ("paper", "paper-small")])
def test_test_profiles_set_only_known_keys_to_valid_values(tmp_path, base, test_profile):
    """The profiles the end-to-end builds shrink their base profile with (tests/fixtures/profiles)."""
    from tasks.profiles import apply_profile

    params = tmp_path / "params.yaml"
    shutil.copy(PARAMS_FILE, params)
    apply_profile(base, params)
    apply_profile(test_profile, params, Path(__file__).parent / "fixtures" / "profiles")
    raw = load_params(path=params)
    assert all(validate_section(raw, name) for name in SECTIONS)


@pytest.mark.parametrize("profile", ["offline", "full", "paper"])
def test_every_profile_gives_valid_params(tmp_path, profile):
    """Each profile validates (full's `sources_per_setting: null`, every test source, was refused)."""
    from tasks.profiles import apply_profile

    params = tmp_path / "params.yaml"
    shutil.copy(PARAMS_FILE, params)
    apply_profile(profile, params)
    raw = load_params(path=params)
    valid = {name: as_dict(validate_section(raw, name)) for name in SECTIONS}
    coerced = [name for name in SECTIONS if valid[name] != raw[name]]
    assert coerced == ([] if profile in ("offline", "full") else ["train_detector"])
    if profile == "paper":  # ruamel writes 2e-05, a string to PyYAML (YAML 1.1): the schema makes it a float
        assert (raw["train_detector"]["learning_rate"], valid["train_detector"]["learning_rate"]) == ("2e-05", 2e-05)


def test_schema_names_are_the_ones_the_code_knows():
    from typing import get_args

    from tasks.detectors.llm_prompt import PROMPTS
    from tasks.detectors.registry import KINDS
    from tasks.edits.library import TYPES
    from tasks.params_schema import DetectorKind, DetectorSpec, HallucinationType, PawsxSplit
    from tasks.pawsx.build import SPLIT_FILES

    assert get_args(HallucinationType) == TYPES
    assert set(get_args(DetectorKind)) == KINDS
    assert set(get_args(PawsxSplit)) == set(SPLIT_FILES)
    assert set(get_args(get_args(DetectorSpec.model_fields["prompt"].annotation)[0])) == set(PROMPTS)


def test_an_llm_judge_must_not_be_the_few_shot_systems_model(raw):
    """The rubric judge needs no client; an LLM judge on the few-shot system's model and endpoint would grade its
    own output, and another model on the same endpoint is another judge."""
    charp = raw["charp"]
    charp["judge"]["client"] = copy.deepcopy(charp["client"])
    validate_section(raw, "charp")
    charp["judge"]["method"] = "llm"
    assert _error(raw, "charp") == (
        "params.yaml: charp: judge.client names the few-shot system's model (local qwen2.5-0.5b): the judge would "
        "grade its own output; name another model or endpoint")
    for client in (charp["client"], charp["judge"]["client"]):
        client["backend"] = "openai"
    charp["client"]["openai"]["base_url"] = charp["client"]["openai"]["base_url"] + "/"
    assert "judge.client names the few-shot system's model (openai gpt-3.5-turbo http://127.0.0.1:8000/v1)" in \
        _error(raw, "charp")
    charp["judge"]["client"]["openai"]["model"] = "gpt-4-turbo"
    validate_section(raw, "charp")


def test_decoding_values_are_checked(raw):
    raw["detect"]["llm"]["decoding"]["top_p"] = 1.5
    assert _error(raw, "detect") == "params.yaml: detect.llm.decoding.top_p: must be <= 1.0 (got 1.5)"


def test_generators_are_named_systems_with_known_settings(raw):
    llm = raw["hallucigen_llm"]
    llm["generators"] = ["smollm2", "mixtral"]
    assert _error(raw, "hallucigen_llm") == (
        "params.yaml: hallucigen_llm: generators: unknown system 'mixtral' (known: ['gpt-sw3-6.7b-v2', "
        "'llama-2-7b-chat', 'mixtral-8x7b-instruct', 'smollm2'])")
    llm["generators"] = ["smollm2", "smollm2"]
    assert _error(raw, "hallucigen_llm").startswith("params.yaml: hallucigen_llm.generators: must not repeat a value")
    llm["generators"] = ["smollm2"]
    llm["systems"]["smollm2"]["settings"] = ["en", "fi"]
    assert _error(raw, "hallucigen_llm").startswith("params.yaml: hallucigen_llm.systems.smollm2.settings[1]: ")
