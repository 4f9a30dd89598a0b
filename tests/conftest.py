"""Shared fixtures: the real spaCy English pipeline, the raw-data mirror, and the one built copy of the
project that every end-to-end test shares. The session gets its own Prefect home (set before Prefect is
imported): its database, temporary servers and `tag:gpu` limit are not those of a `make run`, a Prefect
server or another test session on the same machine, whose model tasks would otherwise hold the gpu slot."""
from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tasks.ops.repo_copy import copy_repo
from tests.chat_server import chat_server
from tests.models.helpers import Handler
from tests.prefect_server import prefect_server
from tests.repo_copy import run, stage_env

ROOT = Path(__file__).resolve().parent.parent
MIRROR = Path(os.environ.get("HALLUCI_RAW_MIRROR") or ROOT.parent / "shared" / "data" / "raw")
# Idle OpenMP threads sleep instead of spinning: with the cores shared, spinning torch threads made a
# SmolLM2 generation of 8 tokens take 90 s instead of 5 s (set before torch is imported; the same as `make`).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# Under `make test` two xdist workers keep both cores busy (2-5% idle in CI), so every torch process of the
# session runs one thread: two SmolLM2 scorings side by side took 20.5 s with one thread each and 23.4 s with
# the default two. Every process of the session (stages, Dask workers) gets the same setting, so byte-for-byte
# comparisons across runners compare like with like.
if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
# e5 vectors on disk (tasks/models/vector_cache.py) shared by both xdist workers, every repo copy and later sessions:
# the built copy and the paper build embed the same PAWS-X sentences. A build's bytes do not depend on it
# (tests/models/test_vector_cache.py).
os.environ.setdefault("HALLUCI_EMBED_CACHE", str(Path(tempfile.gettempdir()) / "halluci-tests-vectors"))
PREFECT_TEST_HOME = Path(tempfile.mkdtemp(prefix="halluci-tests-prefect-"))
os.environ["PREFECT_HOME"] = str(PREFECT_TEST_HOME)
os.environ.pop("PREFECT_API_URL", None)
atexit.register(shutil.rmtree, PREFECT_TEST_HOME, ignore_errors=True)  # after Prefect's own exit handlers


@pytest.fixture(scope="session")
def nlp():
    from tasks.edits.spacy_model import load_english

    return load_english()


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "MANIFEST.tsv").is_file():
        pytest.fail(f"raw-data mirror not found at {MIRROR}; set HALLUCI_RAW_MIRROR")
    return MIRROR


@pytest.fixture(scope="module")
def server():
    """A chat server with canned answers and failures (tests.models.helpers.Handler), for the HTTP client and
    the LLM generation tests."""
    with chat_server(Handler) as url:
        yield url


@pytest.fixture(scope="session")
def prefect_api(tmp_path_factory) -> Iterator[str]:
    """A Prefect server in the session's Prefect home for the flows that tests run as subprocesses: one start
    for the session instead of a temporary server per stage run."""
    with prefect_server(tmp_path_factory.mktemp("prefect-server") / "server.log") as url:
        yield url


@pytest.fixture(scope="session")
def e2e_env(mirror, prefect_api) -> dict[str, str]:
    """The environment the stages of a repo copy run in, their flow runs on the session's Prefect server."""
    return {**stage_env(mirror), "PREFECT_API_URL": prefect_api}


@pytest.fixture(scope="session")
def built_repo(tmp_path_factory, e2e_env) -> Path:
    """A copy of the project built once by `dvc repro` on the real mirror, shared by every end-to-end test
    (mark them `e2e`); a test that changes the copy restores it. HALLUCI_TEST_BUILT_REPO names a copy built by
    an earlier session instead (for a developer re-running one test; CI leaves it unset)."""
    if os.environ.get("HALLUCI_TEST_BUILT_REPO"):
        return Path(os.environ["HALLUCI_TEST_BUILT_REPO"])
    repo = copy_repo(tmp_path_factory.mktemp("e2e") / "repo")
    shutil.copy(ROOT / "tests/fixtures/profiles/offline-small.yaml", repo / "profiles")
    run([sys.executable, "-m", "tasks.profiles", "offline-small"], repo, e2e_env)
    run(["dvc", "repro"], repo, e2e_env)
    return repo


SHARED_BUILDS = {"built_repo": "built-repo", "paper_repo": "paper-repo"}


def pytest_configure(config) -> None:
    """pytest >= 9.2 silently drops pytest-xdist 3.8's groups (pytest-xdist#1386): both workers would build the
    shared copy. pyproject.toml pins pytest below 9.2; an older environment stops here with one line."""
    from packaging.version import Version

    if getattr(config.option, "dist", "no") == "loadgroup" and Version(pytest.__version__) >= Version("9.2"):
        raise pytest.UsageError(f"pytest {pytest.__version__} drops the --dist loadgroup groups of pytest-xdist "
                                "(pytest-xdist#1386); install pytest<9.2 (make setup does)")


def _shared_build(item) -> str | None:
    return next((f for f in SHARED_BUILDS if f in getattr(item, "fixturenames", ())), None)


def pytest_itemcollected(item) -> None:
    """Groups for pytest-xdist (`make test`: -n 2 --dist loadgroup --no-loadscope-reorder): every test that uses
    a shared build joins that build's group, which one worker builds once; the other tests group by module, so
    most module fixtures start once."""
    shared = _shared_build(item)
    item.add_marker(pytest.mark.xdist_group(SHARED_BUILDS[shared] if shared else item.nodeid.split("::")[0]))


def pytest_collection_modifyitems(config, items) -> None:
    """The built copy's group first and the paper build's second, so the two workers start on the two builds
    side by side (the order within a group stays the same)."""
    builds = list(SHARED_BUILDS)
    items.sort(key=lambda item: builds.index(b) if (b := _shared_build(item)) else len(builds))


pytest_plugins = ["tests.s3_remote", "tests.dask_cluster"]
