"""End to end, in a temporary copy of the repo: `dvc repro` runs the Prefect flows on the real mirror,
a second repro does nothing, a forced repro gives byte-identical artifacts, and an unreachable
upstream source fails the fetch flow with one line that says how to switch it off."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml

from tasks.schemas import DETECTION_EXAMPLE, EDIT_EXAMPLE, REJECT

ROOT = Path(__file__).resolve().parent.parent
OUTPUTS = ["data/pawsx_edits/examples.parquet", "data/pawsx_edits/detection.parquet",
           "data/pawsx_edits/rejects.parquet", "metrics/pawsx_edits.json", "data/raw/SOURCES.json",
           "data/raw/pawsx/x-final/en/dev_2k.tsv"]


def _run(args, cwd, env, check=True):
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if check and proc.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def _digests(repo: Path) -> dict[str, str]:
    return {p: hashlib.sha256((repo / p).read_bytes()).hexdigest() for p in OUTPUTS}


@pytest.fixture(scope="module")
def repo(tmp_path_factory, mirror):
    """A copy of the project's tracked and untracked-but-not-ignored files, as a fresh git repo."""
    dest = tmp_path_factory.mktemp("e2e") / "repo"
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split("\n")
    for rel in filter(None, files):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    for stale in ("dvc.lock", "metrics/pawsx_edits.json"):
        (dest / stale).unlink(missing_ok=True)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    return dest


@pytest.fixture(scope="module")
def env(mirror):
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["HALLUCI_RAW_MIRROR"] = str(mirror)
    return env


@pytest.fixture(scope="module")
def built(repo, env):
    _run(["dvc", "repro"], repo, env)
    return repo


def test_repro_builds_the_dataset(built):
    examples = pq.read_table(built / "data/pawsx_edits/examples.parquet")
    detection = pq.read_table(built / "data/pawsx_edits/detection.parquet")
    rejects = pq.read_table(built / "data/pawsx_edits/rejects.parquet")
    assert examples.schema.equals(EDIT_EXAMPLE) and detection.schema.equals(DETECTION_EXAMPLE)
    assert rejects.schema.equals(REJECT)
    stats = json.loads((built / "metrics/pawsx_edits.json").read_text())
    kept = rejected = 0
    for langpair in ("fr-en", "de-en"):
        for type_ in ("tense", "negation"):
            s = stats["examples"][langpair][type_]
            assert s["read"] == 4000  # English rows of dev_2k + test_2k
            assert s["kept"] + s["rejected"] == s["read"]
            assert s["kept"] > 1500, (langpair, type_, s)
            assert s["rejected_by_reason"]["not_paraphrase"] == 2230
            kept, rejected = kept + s["kept"], rejected + s["rejected"]
    assert stats["examples"]["fr-en"]["tense"]["rejected_by_reason"]["missing_source"] == 5
    assert stats["examples"]["de-en"]["tense"]["rejected_by_reason"]["missing_source"] == 28
    assert examples.num_rows == detection.num_rows == kept == stats["total_examples"]
    assert rejects.num_rows == rejected
    rows = examples.to_pylist()
    assert len({r["id"] for r in rows}) == len(rows)
    assert all(r["hyp_good"] != r["hyp_bad"] for r in rows)
    assert {r["type"] for r in rows} == {"tense", "negation"}


def test_artifacts_load_with_datasets(built):
    from datasets import load_dataset

    ds = load_dataset("parquet", data_files={"test": str(built / "data/pawsx_edits/detection.parquet")})["test"]
    assert set(ds.column_names) == {"id", "langpair", "source", "hyp1", "hyp2", "type", "label"}
    assert set(ds["label"]) == {"hyp1", "hyp2"}


def test_second_repro_is_a_no_op_and_forced_repro_is_byte_identical(built, env):
    before = _digests(built)
    out = _run(["dvc", "repro"], built, env).stdout
    assert "Data and pipelines are up to date" in out
    _run(["dvc", "repro", "--force"], built, env)
    assert _digests(built) == before


def test_unreachable_upstream_fails_in_one_line_and_keeps_data(built, env):
    registry = built / "tasks/fetch/sources.yaml"
    params_file = built / "params.yaml"
    saved = registry.read_text(), params_file.read_text()
    try:
        sources = yaml.safe_load(saved[0])
        sources["offline-only"] = {"title": "t", "licence": "l", "mirror": None,
                                   "upstream": {"kind": "url", "base": "http://127.0.0.1:9/"},
                                   "files": [{"path": "a.json", "upstream": "a.json", "sha256": None}]}
        registry.write_text(yaml.safe_dump(sources))
        params = yaml.safe_load(saved[1])
        params["fetch"]["sources"].append("offline-only")
        params_file.write_text(yaml.safe_dump(params))
        before = _digests(built)
        proc = _run([sys.executable, "-m", "flows.fetch"], built, env, check=False)
        assert proc.returncode == 1
        last = proc.stderr.strip().splitlines()[-1]
        assert last.startswith("ERROR fetch: source 'offline-only': upstream http://127.0.0.1:9/ is unreachable")
        assert "remove 'offline-only' there" in last
        assert _digests(built) == before  # the failed fetch left data/raw as it was
    finally:
        registry.write_text(saved[0])
        params_file.write_text(saved[1])
