"""The DVC remote (S3-compatible storage, configured by `make remote`): pull before and push after a pipeline
run, outputs and run-cache both, so any machine restores every artifact and `dvc repro` there reruns nothing.
Credentials come from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or `.dvc/config.local`,
never from the repository.

Usage: python -m tasks.remote pull|push [targets...]   (make pull, make push)
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tasks.errors import PipelineError
from tasks.params import ROOT

DENIED = ("403", "Forbidden", "AccessDenied", "SignatureDoesNotMatch", "InvalidAccessKeyId", "credentials")


class RemoteError(PipelineError):
    """A pull from or push to the DVC remote failed."""


def _dvc(args: list[str], root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["dvc", *args], check=False, cwd=root, capture_output=True, text=True)


def default_remote(root: Path = ROOT) -> tuple[str, str] | None:
    """(name, url) of the default DVC remote, or None when none is configured."""
    name = _dvc(["config", "core.remote"], root).stdout.strip()
    if not name:
        return None
    return name, _dvc(["config", f"remote.{name}.url"], root).stdout.strip()


def sync(action: str, targets: list[str] = (), root: Path = ROOT) -> str | None:
    """`dvc pull` (missing files allowed: the repro rebuilds them) or `dvc push` of ``targets`` with everything
    upstream, run-cache included; returns DVC's last line, None without a remote. A failure raises one line
    naming the remote and DVC's error, with a hint when access was denied."""
    if action not in ("pull", "push"):
        raise ValueError(f"action must be pull or push, not {action!r}")
    remote = default_remote(root)
    if remote is None:
        return None
    extra = ["--allow-missing"] if action == "pull" else []
    scope = ["--with-deps", *targets] if targets else []
    proc = _dvc([action, "--run-cache", *extra, *scope], root)
    output = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        errors = [line.removeprefix("ERROR:").strip() for line in output.splitlines() if line.startswith("ERROR")]
        reason = errors[0] if errors else (output.splitlines() or ["no output"])[-1]
        hint = ("; access denied: check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or `dvc remote modify --local`)"
                if any(word in reason for word in DENIED) else "")
        raise RemoteError(f"dvc {action} with remote '{remote[0]}' ({remote[1]}) failed: {reason}{hint}")
    return output.splitlines()[-1] if output else ""


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("pull", "push"):
        print("usage: python -m tasks.remote pull|push [targets...]", file=sys.stderr)
        return 2
    try:
        last = sync(argv[0], argv[1:])
    except RemoteError as exc:
        print(f"ERROR {exc}", file=sys.stderr)
        return 1
    print(last if last is not None else "no DVC remote configured (make remote): nothing to do")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
