"""A copy of the project as before its first `dvc repro`: tracked and untracked-but-not-ignored files, without
dvc.lock and metrics, as a fresh git repo (for benchmarks and tests that rebuild it from nothing)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tasks.params import ROOT


def copy_repo(dest: Path, root: Path = ROOT) -> Path:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.splitlines()
    for rel in files:
        if (root / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / rel, dest / rel)
    (dest / "dvc.lock").unlink(missing_ok=True)
    shutil.rmtree(dest / "metrics", ignore_errors=True)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    return dest
