"""The environment and runner for tests that run flows or `dvc repro` as subprocesses in a copy of the project
(`tasks.ops.repo_copy.copy_repo`)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tasks.ops.prefect_server import SERVER_SETTINGS


def stage_env(mirror: Path) -> dict[str, str]:
    """This interpreter's bin first on PATH, the raw-data mirror set, Prefect and DVC analytics off."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["HALLUCI_RAW_MIRROR"] = str(mirror)
    env.update(SERVER_SETTINGS)  # analytics off; the gpu slot retry cap of a server started with this env
    return env


def run(args: list[str], cwd: Path, env: dict, check: bool = True) -> subprocess.CompletedProcess:
    """Run a command; with ``check`` a non-zero exit fails the test with the output's tail."""
    proc = subprocess.run(args, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=3600)
    if check and proc.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc
