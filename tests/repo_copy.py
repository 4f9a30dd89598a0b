"""A copy of the project (tracked and untracked-but-not-ignored files) as a fresh git repo, and the
environment to run its stages: for tests that run flows or `dvc repro` as subprocesses."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def copy_repo(dest: Path) -> Path:
    """Copy the project's files into ``dest`` (without dvc.lock and metrics, as before a first repro)."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split("\n")
    for rel in filter(None, files):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    (dest / "dvc.lock").unlink(missing_ok=True)
    shutil.rmtree(dest / "metrics", ignore_errors=True)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    return dest


def stage_env(mirror: Path) -> dict[str, str]:
    """This interpreter's bin first on PATH, the raw-data mirror set, Prefect and DVC analytics off."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["HALLUCI_RAW_MIRROR"] = str(mirror)
    env.update(PREFECT_SERVER_ANALYTICS_ENABLED="false", DO_NOT_TRACK="1")
    return env


def run(args: list[str], cwd: Path, env: dict, check: bool = True) -> subprocess.CompletedProcess:
    """Run a command; with ``check`` a non-zero exit fails the test with the output's tail."""
    proc = subprocess.run(args, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
    if check and proc.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc
