"""Every DVC stage declares the project modules, data files and params keys its flow uses (foreach and matrix
stages resolved), so changing any of them reruns the stage; the checker finds each kind of drift."""
from __future__ import annotations

import textwrap
from dataclasses import replace

import pytest

from tasks.pipeline.imports import closure_paths, import_closure
from tasks.pipeline.stage_deps import Stage, compact, dvc_stages, params_readers, problems


@pytest.fixture(scope="module")
def stages() -> dict[str, Stage]:
    return {s.name: s for s in dvc_stages()}


def test_every_stage_declares_what_its_flow_uses(stages):
    assert {"fetch", "dialogue@dstc11", "dialogue@begin", "charp_train@smollm2-0", "charp_generate@smollm2-0-full",
            "charp_fewshot@0", "charp_probe", "detect", "score"} <= set(stages)
    found = [line for stage in stages.values() for line in problems(stage)]
    assert found == [], "\n".join(found) + "\n(fix: python -m tasks.pipeline.stage_deps --write)"


def test_a_missing_module_is_named_with_its_stage(stages):
    detect = stages["detect"]
    deps = tuple(d for d in detect.deps if d not in ("tasks/text.py",))
    assert problems(replace(detect, deps=deps)) == [
        "stage detect: deps miss tasks/text.py (the flow imports or reads it)"]


def test_a_test_fixture_as_a_dep_is_named(stages):
    translation = stages["hallucigen_translation"]
    assert "curation/review" in translation.deps
    assert problems(replace(translation, deps=(*translation.deps, "tests/fixtures/aces"))) == [
        "stage hallucigen_translation: dep tests/fixtures/aces is a test fixture; data a build reads lives in "
        "curation/ or data/"]


def test_a_missing_data_file_or_folder_is_named(stages):
    detect, fetch = stages["detect"], stages["fetch"]
    assert problems(replace(detect, deps=tuple(d for d in detect.deps if not d.startswith("tasks/edits")))) == [
        "stage detect: deps miss tasks/edits/lexicon (the flow imports or reads it)",
        "stage detect: deps miss tasks/edits/lexicons.py (the flow imports or reads it)"]
    assert problems(replace(fetch, deps=tuple(d for d in fetch.deps if d != "tasks/fetch/sources.yaml"))) == [
        "stage fetch: deps miss tasks/fetch/sources.yaml (the flow imports or reads it)"]


def test_a_file_named_in_params_is_a_dep(stages):
    score = stages["charp_score"]
    assert problems(replace(score, deps=tuple(d for d in score.deps if not d.endswith("judge_examples.jsonl")))) == [
        "stage charp_score: deps miss tasks/charp/judge_examples.jsonl (named in its params)"]


def test_an_artifact_named_in_params_is_a_dep(stages):
    """The critic charp_score loads (charp.metrics.critic.model) is another stage's output: without it among
    the deps, a retrained critic left the CHARP scores stale."""
    score = stages["charp_score"]
    assert problems(replace(score, deps=tuple(d for d in score.deps if d != "data/detectors/critic"))) == [
        "stage charp_score: deps miss data/detectors/critic (named in its params)"]


def test_an_undeclared_params_key_is_named(stages):
    gen, dialogue = stages["charp_generate@smollm2-0-full"], stages["dialogue@begin"]
    assert problems(replace(gen, params=tuple(p for p in gen.params if p != "charp.seed"))) == [
        "stage charp_generate@smollm2-0-full: params miss charp.seed (the flow's parameters read it)"]
    assert problems(replace(dialogue, params=("dialogue.seed", "dialogue.truncation", "dialogue.dstc11"))) == [
        "stage dialogue@begin: params miss dialogue.begin (the flow's parameters read it)"]
    assert problems(replace(gen, params=("charp", "detect.gpu_concurrency"))) == []  # a section covers its keys


def test_a_folder_dep_covers_everything_below_it(stages):
    detect = stages["detect"]
    assert problems(replace(detect, deps=("flows", "tasks", "data"))) == []


def _project(tmp_path, files: dict[str, str]):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def test_closure_of_a_small_project(tmp_path):
    root = _project(tmp_path, {
        "flows/__init__.py": '"""Flows."""\n',
        "flows/x.py": "import os\nfrom tasks.a import f\n",
        "tasks/__init__.py": '"""Tasks."""\n',
        "tasks/a/__init__.py": "CONSTANT = 1\n",
        "tasks/a/f.py": "def g():\n    from .b import h\n    return open('words.tsv')\n",
        "tasks/a/b.py": "h = 1\n",
        "tasks/a/words.tsv": "w\n",
        "tasks/a/other.tsv": "unused\n",
        "tasks/unused.py": "x = 1\n",
    })
    assert import_closure("flows.x", root)[0] == ["flows.x", "tasks.a", "tasks.a.b", "tasks.a.f"]
    assert closure_paths("flows.x", root) == ["flows/x.py", "tasks/a/__init__.py", "tasks/a/b.py", "tasks/a/f.py",
                                              "tasks/a/words.tsv"]
    assert compact({"tasks/a/b.py", "tasks/a/f.py", "tasks/a/words.tsv", "tasks/a/__init__.py", "tasks/a/other.tsv"},
                   root / "tasks", root) == ["tasks/a"]
    assert compact({"tasks/a/b.py", "tasks/a/f.py"}, root / "tasks", root) == ["tasks/a/b.py", "tasks/a/f.py"]


def test_a_module_reading_params_itself_is_flagged(tmp_path):
    root = _project(tmp_path, {
        "flows/x.py": "from tasks.a import f\n",
        "tasks/a.py": "from tasks.params import load_params\n\ndef f():\n    return load_params('detect')['seed']\n",
        "tasks/b.py": "if __name__ == '__main__':\n    from tasks.params import load_params\n    load_params('x')\n",
        "flows/y.py": "import tasks.b\n",
    })
    assert params_readers("flows.x", root) == ["tasks.a"]
    assert params_readers("flows.y", root) == []


def test_the_grid_driver_runs_the_cells_dvc_yaml_runs():
    """benchmarks.charp_grid (the GPU machine's path, without DVC) trains and generates exactly the cells of
    the charp_train, charp_generate and charp_fewshot stages."""
    from benchmarks.charp_grid import phase_jobs
    from tasks.params import load_params

    params = load_params("charp")
    stages = {s.module: [] for s in dvc_stages()}
    for s in dvc_stages():
        stages[s.module].append(s.args)
    trained = sorted((system, h) for _, system, h, _ in phase_jobs("train", params))
    assert trained == sorted(stages["flows.charp_train"])
    generated = sorted((c.system, c.train_h, c.eval_h) for _, c, _ in phase_jobs("generate", params))
    assert generated == sorted(stages["flows.charp_generate"])
    assert len(generated) == len(params["grid"]["eval_h"]) * (1 + len(params["grid"]["train_h"]))
