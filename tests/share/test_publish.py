"""tasks/share/publish.py against a local Hub server on 127.0.0.1."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.hub_upload_server import hub_server as upload_server
from tests.paths import ROOT


def _publish(args: list[str], env: dict, home: Path) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("HF_")}, "HF_HOME": str(home), **env}
    return subprocess.run([sys.executable, "-m", "tasks.share.publish", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_publish_uploads_the_folder_to_the_hub_endpoint(hallucigen_folder, tmp_path):
    with upload_server() as (endpoint, hub):
        proc = _publish(["alice/halluci-translation", str(hallucigen_folder)],
                        {"HF_ENDPOINT": endpoint, "HF_TOKEN": "hf_test_secret_123"}, tmp_path / "hf")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"{endpoint}/datasets/alice/halluci-translation/commit/{'0' * 40}"
    assert hub.created == [{"name": "halluci-translation", "organization": "alice", "visibility": "public",
                            "type": "dataset"}]
    [commit] = hub.commits
    assert commit["repo"] == "alice/halluci-translation" and commit["revision"] == "main"
    assert commit["files"] == {p.name: p.read_bytes() for p in hallucigen_folder.iterdir()}
    assert hub.validated[0]["metadata"]["configs"][0]["config_name"] == "generation"
    assert set(hub.auth) == {"Bearer hf_test_secret_123"}
    assert not [u for u in hub.unknown if u.startswith("POST")]
    assert "hf_test_secret_123" not in proc.stdout + proc.stderr


def test_publish_needs_a_token_and_a_built_folder(hallucigen_folder, tmp_path):
    with upload_server() as (endpoint, hub):
        no_token = _publish(["alice/x", str(hallucigen_folder)], {"HF_ENDPOINT": endpoint}, tmp_path / "hf")
        (hallucigen_folder / "croissant.json").unlink()
        unbuilt = _publish(["alice/x", str(hallucigen_folder)], {"HF_ENDPOINT": endpoint, "HF_TOKEN": "t"},
                           tmp_path / "hf")
        bad_repo = _publish(["x", str(hallucigen_folder)], {"HF_ENDPOINT": endpoint, "HF_TOKEN": "t"}, tmp_path / "hf")
    assert no_token.returncode == 1 and no_token.stderr.strip() == (
        "ERROR publish: set the environment variable HF_TOKEN to a Hub token with write access")
    assert unbuilt.stderr.strip() == (f"ERROR publish: {hallucigen_folder}: croissant.json is missing "
                                      "(rebuild the folder with dvc repro)")
    assert bad_repo.stderr.strip() == "ERROR publish: REPO must be <user>/<name> (got 'x')"
    assert hub.commits == [] and hub.created == []
