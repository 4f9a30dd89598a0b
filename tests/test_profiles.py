"""Profiles rewrite only the keys they name in params.yaml, keeping its comments."""
import shutil

import pytest
import yaml

from tasks.params import PARAMS_FILE
from tasks.profiles import apply_profile


def test_paper_switches_on_upstream_sources_and_offline_switches_back(tmp_path):
    params = tmp_path / "params.yaml"
    shutil.copy(PARAMS_FILE, params)
    original = params.read_text()
    apply_profile("paper", params)
    paper = yaml.safe_load(params.read_text())
    assert {"aces", "faithdial", "charp"} <= set(paper["fetch"]["sources"])
    assert "# Every knob of the pipeline" in params.read_text()
    apply_profile("offline", params)
    assert params.read_text() == original


def test_unknown_profile_and_unknown_key_fail(tmp_path):
    params = tmp_path / "params.yaml"
    shutil.copy(PARAMS_FILE, params)
    with pytest.raises(SystemExit, match="unknown profile 'nope'"):
        apply_profile("nope", params)
    from tasks.profiles import _merge

    with pytest.raises(KeyError, match="fetch.nope"):
        _merge(yaml.safe_load(params.read_text()), {"fetch": {"nope": 1}}, "")


def _applied(tmp_path, *names: str) -> tuple[str, str]:
    params = tmp_path / "params.yaml"
    shutil.copy(PARAMS_FILE, params)
    original = params.read_text()
    for name in names:
        apply_profile(name, params)
    return original, params.read_text()


def test_offline_profile_is_the_params_default(tmp_path):
    original, offline = _applied(tmp_path, "offline")
    assert offline == original


@pytest.mark.parametrize("name", ["full", "paper"])
def test_every_profile_switches_back_to_offline(tmp_path, name):
    original, switched = _applied(tmp_path, name)
    assert switched != original
    assert _applied(tmp_path, name, "offline")[1] == original


def test_full_lifts_every_subset_and_cap_with_offline_models_and_sources(tmp_path):
    original, full = (yaml.safe_load(text) for text in _applied(tmp_path, "full"))
    assert full["fetch"] == original["fetch"] and full["dialogue"] == original["dialogue"]
    assert full["hallucigen_llm"]["sources_per_setting"] is None
    llm = [d for d in full["detect"]["detectors"].values() if d["kind"] == "llm_prompt"]
    assert len(llm) == 3 and all(d["max_per_langpair"] is None for d in llm)
    assert [d for d in original["detect"]["detectors"].values() if d.get("max_per_langpair")]
    assert full["charp"]["subsets"] == {"train": None, "valid": None, "eval": None}
    assert full["charp"]["judge"]["max_per_cell"] is None
    assert full["charp"]["grid"]["eval_h"] == original["dialogue"]["truncation"]
    assert full["train_detector"]["base_model"] == "minilm" and full["charp"]["grid"]["systems"] == ["smollm2"]
    assert full["detect"]["llm"]["local"]["model"] == "qwen2.5-1.5b" != original["detect"]["llm"]["local"]["model"]
