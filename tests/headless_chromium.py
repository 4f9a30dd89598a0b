"""Headless Chromium (Debian's `chromium`) driven over the DevTools protocol, for tests of the Prefect UI:
load a page, wait until the single-page app has rendered a given text, save a screenshot."""
from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Self

from tasks.ops.prefect_server import free_port


class Chromium:
    """One headless browser with one page; use as a context manager."""

    def __init__(self, width: int = 1440, height: int = 1200):
        self.binary = shutil.which("chromium")
        if self.binary is None:
            raise RuntimeError("chromium not found: apt-get install -y chromium (CI: .ci/run installs it)")
        self.size = f"{width},{height}"
        self._ids = itertools.count(1)

    def __enter__(self) -> Self:
        from websockets.sync.client import connect

        port = free_port()
        self._profile = tempfile.TemporaryDirectory(prefix="chromium-")
        self._proc = subprocess.Popen(
            [self.binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
             f"--window-size={self.size}", f"--remote-debugging-port={port}", f"--user-data-dir={self._profile.name}",
             "about:blank"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as resp:
                    pages = [t for t in json.load(resp) if t["type"] == "page"]
                if pages:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or self._proc.poll() is not None:
                self.__exit__()
                raise RuntimeError(f"chromium did not open its DevTools port {port}")
            time.sleep(0.3)
        self._ws = connect(pages[0]["webSocketDebuggerUrl"], max_size=None, open_timeout=30)
        return self

    def __exit__(self, *exc) -> None:
        if getattr(self, "_ws", None) is not None:
            self._ws.close()
        self._proc.terminate()
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        # chromium's helper processes (its own session) can still write to the profile after the browser exits
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        for _ in range(10):
            try:
                self._profile.cleanup()
                return
            except OSError:
                time.sleep(0.5)
        self._profile.cleanup()

    def call(self, method: str, **params) -> dict:
        """One DevTools command; its result (events that arrive meanwhile are dropped)."""
        msg_id = next(self._ids)
        self._ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self._ws.recv(timeout=60))
            if reply.get("id") == msg_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def text(self) -> str:
        return self.call("Runtime.evaluate", expression="document.body ? document.body.innerText : ''",
                         returnByValue=True)["result"].get("value", "")

    def open_and_wait_for(self, url: str, needle: str, timeout_s: float = 60) -> str:
        """Navigate to ``url`` and return the page's rendered text once it contains ``needle``."""
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + timeout_s
        while True:
            text = self.text()
            if needle in text or time.monotonic() > deadline:
                return text
            time.sleep(0.5)

    def screenshot(self, path: Path) -> Path:
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))
        return path
