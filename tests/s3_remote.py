"""Fixtures for the DVC remote tests: a real moto S3 server on 127.0.0.1 (a separate process) that enforces
IAM credentials, and a copy of the repo that built the `fetch` stage and pushed it through `make remote`
and `make push`. Loaded by conftest.py (pytest_plugins)."""
from __future__ import annotations

import json
import shutil
import sys
import urllib.request
from pathlib import Path

import pytest

from tasks.ops.repo_copy import copy_repo
from tests.loopback import ROOT, VENV, commit_all, free_port, started, wait
from tests.repo_copy import run, stage_env

BUCKET = "halluci-bench-ci"
TARGETS = ["fetch", "dialogue@begin"]  # fetch: persistent output, restored by the lock file only


def _client(service: str, endpoint: str):
    import boto3

    return boto3.client(service, endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="bootstrap",
                        aws_secret_access_key="bootstrap")


def _s3_up(endpoint: str) -> bool:
    try:
        _client("s3", endpoint).list_buckets()
        return True
    except Exception:  # noqa: BLE001 - any failure means "not up yet"
        return False


@pytest.fixture(scope="session")
def moto_s3(tmp_path_factory):
    """{endpoint, bucket, key, secret}: a bucket and an IAM user's key; after set-up every request must be signed
    with a known key (moto's reset-auth), so a wrong secret is refused as real S3 refuses it."""
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    log = tmp_path_factory.mktemp("moto") / "moto.log"
    with started([str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(port)], log):
        wait(lambda: _s3_up(endpoint), 60, "the moto S3 server", every=0.5)
        iam = _client("iam", endpoint)
        iam.create_user(UserName="nightly")
        policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
        iam.put_user_policy(UserName="nightly", PolicyName="all", PolicyDocument=json.dumps(policy))
        key = iam.create_access_key(UserName="nightly")["AccessKey"]
        _client("s3", endpoint).create_bucket(Bucket=BUCKET)
        urllib.request.urlopen(urllib.request.Request(endpoint + "/moto-api/reset-auth", data=b"0", method="POST",
                                                      headers={"Content-Type": "text/plain"}), timeout=30)
        yield {"endpoint": endpoint, "bucket": BUCKET, "key": key["AccessKeyId"], "secret": key["SecretAccessKey"]}


@pytest.fixture(scope="session")
def s3_env(moto_s3, mirror, tmp_path_factory):
    """The environment of every command: the stages' (venv first on PATH, the mirror, analytics off), and the
    remote's credentials only from the environment (no ~/.aws files)."""
    env = {k: v for k, v in stage_env(mirror).items() if not k.startswith("AWS_") and k != "PREFECT_API_URL"}
    empty = tmp_path_factory.mktemp("aws") / "none"
    return {**env, "AWS_ACCESS_KEY_ID": moto_s3["key"], "AWS_SECRET_ACCESS_KEY": moto_s3["secret"],
            "AWS_CONFIG_FILE": str(empty), "AWS_SHARED_CREDENTIALS_FILE": str(empty)}


def wrong_secret(env: dict) -> dict:
    return {**env, "AWS_SECRET_ACCESS_KEY": "not-the-secret"}


@pytest.fixture(scope="session")
def pushed(moto_s3, s3_env, tmp_path_factory) -> Path:
    """A repo copy with the remote configured by `make remote` (committed), the TARGETS built by `dvc repro` and
    committed, and `make push` done: the repo other machines clone."""
    repo = copy_repo(tmp_path_factory.mktemp("origin") / "repo")
    shutil.copytree(ROOT / "metrics", repo / "metrics")  # the nightly compares metrics/score.json
    make = ["make", f"VENV={VENV}"]
    run([*make, "remote", f"DVC_S3_BUCKET={moto_s3['bucket']}", f"DVC_S3_ENDPOINT={moto_s3['endpoint']}"], repo,
        s3_env)
    run(["dvc", "repro", *TARGETS], repo, s3_env)
    commit_all(repo, "built")
    run([*make, "push"], repo, s3_env)
    assert (repo / "data/dialogue/begin/rejects.parquet").is_file()
    return repo
