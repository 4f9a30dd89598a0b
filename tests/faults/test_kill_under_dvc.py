"""A stage killed with SIGKILL under `dvc repro` keeps its previous outputs byte for byte, leaves no temporary
inside a DVC-tracked out (its temporaries are in .scratch/), leaves `dvc status` clean, and the next run of
the stage removes what it left. The fast tests check where the atomic writers put their temporaries."""
from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tasks.io as io
from tasks.io import TEMP_SIBLING, atomic_dir, atomic_path, sweep_stale_temporaries, temp_dir
from tasks.ops.repo_copy import copy_repo
from tests.repo_copy import run, stage_env

ROOT = Path(__file__).resolve().parents[2]
STAGE, OUT = "dialogue@dstc11", "data/dialogue/dstc11"
BUILT = [OUT, "metrics/dialogue/dstc11.json"]
UP_TO_DATE = "Data and pipelines are up to date."
KILLED_WRITER = """
import sys, time
from pathlib import Path
import tasks.io as io
io.PROJECT_ROOT, io.SCRATCH = Path(sys.argv[1]), Path(sys.argv[1]) / ".scratch"
with io.atomic_dir(Path(sys.argv[1]) / "data" / "dialogue" / "dstc11") as tmp:
    io.write_json({"new": True}, tmp / "a.json")
    print("writing", flush=True)
    time.sleep(60)
"""


def _digests(repo: Path) -> dict[str, str]:
    """md5 of every file of the stage's outputs (hidden ones included), by repo-relative path."""
    files = [p for rel in BUILT for p in ([repo / rel] if (repo / rel).is_file() else (repo / rel).rglob("*"))]
    return {p.relative_to(repo).as_posix(): hashlib.md5(p.read_bytes()).hexdigest() for p in files if p.is_file()}


def _temporaries(repo: Path, where: str) -> list[Path]:
    return sorted(p for p in (repo / where).rglob("*") if TEMP_SIBLING.match(p.name))


def _writer_pid(tmp: Path) -> int:
    return int(TEMP_SIBLING.match(tmp.name)["pid"])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _dvc(repo: Path, env: dict, *args: str) -> str:
    return run(["dvc", *args], repo, env).stdout


@pytest.fixture(scope="module")
def stage_repo(tmp_path_factory, mirror, prefect_api) -> tuple[Path, dict, dict[str, str]]:
    """A copy of the project with `fetch` and the stage built once, its env, and the outputs' digests."""
    repo = copy_repo(tmp_path_factory.mktemp("kill-under-dvc") / "repo")
    env = {**stage_env(mirror), "PREFECT_API_URL": prefect_api}
    _dvc(repo, env, "repro", STAGE)
    built = _digests(repo)
    assert len(built) > 5 and OUT + "/test/h-full.parquet" in built, built
    return repo, env, built


def _kill_while_writing(repo: Path, env: dict, group: bool) -> tuple[Path, int]:
    """Start `dvc repro -f -s STAGE`, and once the flow has a temporary holding a file, SIGKILL the flow (or the
    whole process group, dvc included). Returns the flow's temporary and dvc's exit status."""
    for _ in range(3):
        dvc = subprocess.Popen(["dvc", "repro", "-f", "-s", STAGE], cwd=repo, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 300
        while dvc.poll() is None and time.monotonic() < deadline:
            writing = [t for t in (*repo.glob("data/**/.dstc11.*.tmp"), *repo.glob(".scratch/.dstc11.*.tmp"))
                       if _alive(_writer_pid(t)) and any(p.is_file() for p in t.rglob("*"))]
            if writing:
                if group:
                    os.killpg(dvc.pid, signal.SIGKILL)
                else:
                    os.kill(_writer_pid(writing[0]), signal.SIGKILL)
                return writing[0], dvc.wait(timeout=120)
            time.sleep(0.01)
        if dvc.poll() is None:
            os.killpg(dvc.pid, signal.SIGKILL)
            pytest.fail(f"dvc repro -f -s {STAGE} wrote nothing in 300 s")
        # the stage finished between two looks: its outputs are the same bytes again; try once more
    pytest.fail(f"dvc repro -f -s {STAGE} finished before a kill three times")


@pytest.mark.slow
@pytest.mark.parametrize("group", [False, True], ids=["flow-killed", "dvc-group-killed"])
def test_a_stage_killed_under_dvc_repro_keeps_its_outputs_and_status(stage_repo, group):
    repo, env, built = stage_repo
    left, rc = _kill_while_writing(repo, env, group)

    assert rc != 0
    assert _digests(repo) == built  # DVC deleted the outs before running the command: persist keeps them
    assert _temporaries(repo, "data") == [] and _temporaries(repo, "metrics") == []
    assert left.parent == repo / ".scratch" and left.exists()  # outside every out, git- and dvc-ignored
    assert _dvc(repo, env, "status", STAGE).strip() == UP_TO_DATE  # also no dep of `site` under data/dialogue moved
    assert "Stage 'dialogue@dstc11' didn't change, skipping" in _dvc(repo, env, "repro", STAGE)
    assert _digests(repo) == built

    rerun = run(["dvc", "repro", "-f", "-s", STAGE], repo, env)
    assert f"removed .scratch/{left.name}, left by a killed run" in rerun.stderr
    assert not left.exists() and _temporaries(repo, ".") == []
    assert _digests(repo) == built and _dvc(repo, env, "status", STAGE).strip() == UP_TO_DATE


def test_temporaries_of_a_path_under_the_project_root_go_to_the_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(io, "PROJECT_ROOT", tmp_path)
    monkeypatch.setattr(io, "SCRATCH", tmp_path / ".scratch")
    out = tmp_path / "data" / "dialogue" / "dstc11"
    with atomic_dir(out) as tmp:
        assert tmp.parent == tmp_path / ".scratch" and tmp.name.startswith(f".dstc11.{os.getpid()}-")
        with atomic_path(tmp / "test" / "h-full.parquet") as part:  # inside a temporary: beside its target
            assert part.parent == tmp / "test"
            part.write_text("rows")
        assert list((tmp_path / "data" / "dialogue").iterdir()) == []
    with atomic_path(tmp_path / "metrics" / "dstc11.json") as tmp:
        assert tmp.parent == tmp_path / ".scratch"
        tmp.write_text("{}")
    assert (out / "test" / "h-full.parquet").read_text() == "rows" and (tmp_path / "metrics/dstc11.json").is_file()
    assert list((tmp_path / ".scratch").iterdir()) == [] and list((tmp_path / "data" / "dialogue").iterdir()) == [out]

    elsewhere = tmp_path.parent / f"{tmp_path.name}-cache" / "models" / "x"
    assert temp_dir(elsewhere) == elsewhere.parent  # outside the project root: a sibling, as in ~/.cache


def test_the_sweep_removes_a_killed_writers_scratch_temporary(tmp_path):
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert writer.stdout.readline() == "writing\n"
        (left,) = (tmp_path / ".scratch").iterdir()
        assert left.name.startswith(f".dstc11.{writer.pid}-") and (left / "a.json").is_file()
        assert not (tmp_path / "data" / "dialogue" / "dstc11").exists()
        assert sweep_stale_temporaries(tmp_path / ".scratch") == []  # its writer still runs
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
    assert sweep_stale_temporaries(tmp_path / ".scratch", tmp_path / "data") == [left]
    assert list((tmp_path / ".scratch").iterdir()) == []


def test_the_scratch_folder_is_ignored_by_git_and_dvc_and_swept_at_stage_start():
    assert io.SCRATCH == ROOT / ".scratch"
    ignored = subprocess.run(["git", "check-ignore", "-q", ".scratch/.dstc11.1-abcdefgh.tmp"], cwd=ROOT, check=False)
    assert ignored.returncode == 0
    assert "/.scratch/" in (ROOT / ".dvcignore").read_text().splitlines()
    from flows.main import ARTIFACT_ROOTS

    assert io.SCRATCH in ARTIFACT_ROOTS
