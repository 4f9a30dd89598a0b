"""A real Prefect server for tests (`prefect server start` on a free port) and a small client for its API."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tasks.ops.prefect_server import SERVER_SETTINGS
from tests.loopback import api


@contextmanager
def prefect_server(log_path: Path, timeout_s: float = 300) -> Iterator[str]:
    """Start a server in this environment's Prefect home; yield its API URL once healthy; stop it after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/api"
    with open(log_path, "w") as log:
        server = subprocess.Popen([sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
                                   "--port", str(port)], stdout=log, stderr=subprocess.STDOUT,
                                  env={**os.environ, **SERVER_SETTINGS})
    try:
        deadline = time.monotonic() + timeout_s
        while not _healthy(url):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Prefect server on {url} did not start:\n{log_path.read_text()[-3000:]}")
            time.sleep(1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=60)


def api_post(url: str, path: str, body: dict) -> list | dict:
    """POST ``body`` as JSON to the API and return the decoded answer (a busy server's 503 is asked again)."""
    return api(url, "POST", path, body)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=5) as resp:
            return resp.status == 200
    except OSError:
        return False
