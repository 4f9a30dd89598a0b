"""Helpers for tests that run real servers as separate processes on 127.0.0.1 (Prefect, moto S3, Dask):
free ports, waiting, the Prefect REST API, process groups, commits and digests of temporary repo copies."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(sys.executable).parent.parent
GIT_USER = ["-c", "user.name=halluci-bench tests", "-c", "user.email=tests@halluci-bench.invalid"]


def free_port() -> int:
    """A free TCP port on 127.0.0.1; the test is skipped where loopback ports cannot be bound."""
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    except OSError as exc:
        pytest.skip(f"no free port on 127.0.0.1: {exc}")


def wait(predicate, timeout_s: float, what: str, every: float = 2):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"timed out after {timeout_s} s waiting for {what}")


def api(base: str, method: str, path: str, body: dict | None = None, attempts: int = 6):
    """One call to the Prefect REST API. As Prefect's own client does, a 429/502/503 (the server busy, e.g. its
    SQLite locked on loaded cores) is asked again, up to ``attempts`` times with a doubling pause (1 s to 16 s);
    so is a read (a GET or a filter) that timed out, which a server waiting on its locked SQLite can leave
    unanswered for over 30 s."""
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json"}, method=method)
    read_only = method == "GET" or path.endswith("/filter")
    for attempt in range(attempts):
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as exc:
            if exc.code not in (429, 502, 503) or attempt == attempts - 1:
                raise
        except TimeoutError:
            if not read_only or attempt == attempts - 1:
                raise
        time.sleep(min(2 ** attempt, 16))


def prefect_healthy(base: str) -> bool:
    try:
        return bool(api(base, "GET", "/health", attempts=1))
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


def flow_run_state(base: str, deployment_id: str, timeout_s: float = 600) -> tuple[str, str]:
    """Run a deployment once through the API; (final state type, flow run id)."""
    run = api(base, "POST", f"/deployments/{deployment_id}/create_flow_run", {})
    state = wait(lambda: (s := api(base, "GET", f"/flow_runs/{run['id']}")["state"]["type"]) in
                 ("COMPLETED", "FAILED", "CRASHED") and s, timeout_s, "the flow run")
    return state, run["id"]


def flow_run_logs(base: str, run_id: str, timeout_s: float = 60) -> list[str]:
    """The messages a flow run logged, once its closing "Finished in state" line has reached the API (a worker's
    process sends its logs in batches, after the run's state is final); what has arrived if it never does."""
    deadline = time.monotonic() + timeout_s
    while True:
        entries = api(base, "POST", "/logs/filter", {"logs": {"flow_run_id": {"any_": [run_id]}}, "limit": 200})
        closed = any(e["task_run_id"] is None and e["message"].startswith("Finished in state") for e in entries)
        if closed or time.monotonic() > deadline:
            return [e["message"] for e in entries]
        time.sleep(2)


@contextmanager
def started(args: list[str], log: Path, **kwargs):
    """A process in its own process group, logging to ``log``; the whole group is stopped on exit."""
    with open(log, "w") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **kwargs)
        try:
            yield proc
        finally:
            stop_group(proc)


def group_members(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``, read from /proc."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(stat.parent.name))
    return members


def stop_group(proc: subprocess.Popen, grace_s: float = 30) -> None:
    """SIGTERM every process of ``proc``'s group (a child outlives its leader: `make worker` -> prefect), then
    SIGKILL whatever is left after ``grace_s``; the leader is reaped."""
    deadline = time.monotonic() + grace_s
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if not group_members(proc.pid):
            break
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        while group_members(proc.pid) and time.monotonic() < deadline:
            proc.poll()
            time.sleep(0.2)
        deadline = time.monotonic() + 5
    proc.wait()


def commit_all(repo: Path, message: str) -> None:
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", *GIT_USER, "commit", "-q", "-m", message], cwd=repo, check=True)


def tree_digests(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder``, by relative path."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}
