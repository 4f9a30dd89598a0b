"""Shared pieces of the model tests: a chat handler with canned answers and failures, and a package builder."""
from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path

from tests.chat_server import ChatHandler

CANARY = "sk-canary-3f9d1c"


class Handler(ChatHandler):
    """Answers by the prompt's first word: ok, empty, malformed, nojson, flaky (500 once), slow, reject."""

    calls: dict[str, int] = {}
    auth: list[str] = []

    def reply(self, prompt: str) -> tuple[int, bytes]:
        kind = prompt.split()[0]
        Handler.calls[kind] = Handler.calls.get(kind, 0) + 1
        if kind == "flaky" and Handler.calls[kind] == 1:
            return 500, b"{}"
        if kind == "reject":
            return 400, b'{"error": "bad request"}'
        if kind == "slow":
            time.sleep(1.5)
        if kind == "nojson":
            return 200, b"<html>oops</html>"
        if kind == "malformed":
            return 200, json.dumps({"choices": []}).encode()
        return self.completion({"empty": "  ", "paraphrase": "hyp+: A cat sat.\nhyp-: A dog sat on a hat."}.get(
            kind, f"answer to {prompt}"))


def _wheel(folder: Path, name: str, version: str, members: dict[str, bytes]) -> None:
    """A minimal valid wheel (METADATA, WHEEL, RECORD) holding ``members``."""
    module = name.replace("-", "_")
    info = f"{module}-{version}.dist-info"
    files = dict(members)
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/RECORD"] = "".join(f"{m},,\n" for m in [*files, f"{info}/RECORD"]).encode()
    with zipfile.ZipFile(folder / f"{module}-{version}-py3-none-any.whl", "w") as archive:
        for member, data in files.items():
            archive.writestr(member, data)
