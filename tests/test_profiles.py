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
