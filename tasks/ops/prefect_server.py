"""The local Prefect server that every stage of `make run` reports to: started once in the background
(SQLite under the repo's git-ignored `.prefect/`), reused while it answers, so each stage's flow run,
task runs and artifacts stay visible in the UI afterwards.

    python -m tasks.ops.prefect_server start|serve|stop|status [--port N]

start: in the background, unless one answers; serve: in the foreground (`make server`), unless one answers;
stop: the background one; status: whether one answers.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tasks.errors import PipelineError
from tasks.params import ROOT

STATE_DIR = ROOT / ".prefect"
HOST = "127.0.0.1"
PORT = 4200
QUIET = {"PREFECT_SERVER_ANALYTICS_ENABLED": "false", "DO_NOT_TRACK": "1"}
# A task denied a `tag:gpu` slot retries after the limit's mean slot occupancy, capped by this setting (30 s by
# default): with dozens of short model shards queued, the slot stood idle 2-10 s between shards (about 200 s of
# the detect stage's 660 s). Capped at 2 s, a freed slot is taken within about a second.
SERVER_SETTINGS = {**QUIET, "PREFECT_SERVER_TASKS_TAG_CONCURRENCY_SLOT_WAIT_SECONDS": "2"}


def api_url(port: int = PORT, host: str = HOST) -> str:
    return f"http://{host}:{port}/api"


def free_port(host: str = HOST) -> int:
    """A port nothing listens on now (for servers that must not meet `make run`'s)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def ui_url(api: str) -> str:
    return api.removesuffix("/api")


def answers(api: str, timeout_s: float = 2.0) -> bool:
    """True when a Prefect server's health endpoint at ``api`` says so."""
    try:
        with urllib.request.urlopen(f"{api}/health", timeout=timeout_s) as resp:
            return resp.status == 200 and resp.read().strip() == b"true"
    except (urllib.error.URLError, OSError, ValueError):
        return False


def client_env(api: str, home: Path = STATE_DIR, base: dict | None = None) -> dict:
    """The environment of a process whose flows report to the server at ``api`` (analytics off)."""
    return {**(os.environ if base is None else base), **QUIET, "PREFECT_API_URL": api, "PREFECT_HOME": str(home)}


def _pid_file(home: Path) -> Path:
    return home / "server.pid"


def _server_command(host: str, port: int) -> list[str]:
    return [str(Path(sys.executable).parent / "prefect"), "server", "start", "--host", host, "--port", str(port)]


def _server_env(home: Path, host: str, port: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    # the UI asks the server where its API is: without these it names the default port, not this one
    env.update(SERVER_SETTINGS, PREFECT_HOME=str(home), PREFECT_SERVER_API_HOST=host, PREFECT_SERVER_API_PORT=str(port),
               PREFECT_UI_API_URL=api_url(port, host))
    return env


def start_server(home: Path = STATE_DIR, port: int = PORT, host: str = HOST, timeout_s: float = 180) -> str:
    """Start `prefect server start` detached from this process (it outlives `make run`); return its API URL
    once it answers. Its log is ``home/server.log``, its database ``home/prefect.db``."""
    home.mkdir(parents=True, exist_ok=True)
    api = api_url(port, host)
    with open(home / "server.log", "ab") as log:
        proc = subprocess.Popen(_server_command(host, port), env=_server_env(home, host, port),
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    _pid_file(home).write_text(f"{proc.pid}\n", encoding="utf-8")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if answers(api):
            return api
        if proc.poll() is not None:
            if answers(api):  # another process won the port in the meantime: share that one
                return api
            raise PipelineError(f"prefect server on {host}:{port} exited with code {proc.returncode}; "
                                f"see {home / 'server.log'}")
        time.sleep(0.5)
    stop_server(home)
    raise PipelineError(f"prefect server on {host}:{port} did not answer within {timeout_s:.0f} s; "
                        f"see {home / 'server.log'}")


def ensure_server(home: Path = STATE_DIR, port: int = PORT, host: str = HOST) -> tuple[str, bool]:
    """The API URL of the server on ``host:port``, started first if none answers; and whether it was started."""
    api = api_url(port, host)
    if answers(api):
        return api, False
    return start_server(home, port, host), True


def stop_server(home: Path = STATE_DIR, timeout_s: float = 30) -> bool:
    """Stop the server this state folder started (its whole process group); False when none runs."""
    pid_file = _pid_file(home)
    if not pid_file.is_file():
        return False
    pid = int(pid_file.read_text(encoding="utf-8"))
    pid_file.unlink()
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.waitpid(pid, os.WNOHANG)  # reap it when this process started it
        except ChildProcessError:
            pass
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    os.killpg(pid, signal.SIGKILL)
    return True


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["start", "serve", "stop", "status"])
    ap.add_argument("--port", type=int, default=PORT)
    args = ap.parse_args(argv)
    api = api_url(args.port)
    if args.action == "serve" and not answers(api):
        STATE_DIR.mkdir(exist_ok=True)
        command = _server_command(HOST, args.port)
        os.execve(command[0], command, _server_env(STATE_DIR, HOST, args.port))
    if args.action in ("start", "serve"):
        api, started = ensure_server(port=args.port)
        print(f"Prefect server {'started' if started else 'already running'}: UI {ui_url(api)}, "
              f"export PREFECT_API_URL={api}")
    elif args.action == "stop":
        print("stopped the background Prefect server" if stop_server() else "no background Prefect server to stop")
    else:
        print(f"{ui_url(api)}: {'answers' if answers(api) else 'no server'}")


if __name__ == "__main__":
    try:
        main()
    except PipelineError as exc:
        raise SystemExit(f"ERROR prefect server: {exc}") from None
