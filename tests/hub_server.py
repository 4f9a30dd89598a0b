"""A real Hugging Face Hub-compatible HTTP server on 127.0.0.1 for tests: the endpoints huggingface_hub
(`hf_hub_download`, transformers' `from_pretrained`) calls, for models and datasets, over repos held in
memory; it records every request. Point a process at it with ``HF_ENDPOINT=<url>``.

Answered: repo info (`/api/{models,datasets}/{repo}`, and at a revision: `.../revision/{rev}`), the file
tree (`/api/.../tree/{rev}[/{folder}]`), and file resolve (`/{repo}/resolve/{rev}/{path}`,
`/datasets/{repo}/resolve/{rev}/{path}`; GET and HEAD) with the headers huggingface_hub reads: ETag,
X-Repo-Commit, Content-Length. A repo's commit id is derived from its files, so changing a file changes
it, as on the Hub. Unknown repos, revisions and files answer 404 with the Hub's X-Error-Code."""
from __future__ import annotations

import contextlib
import hashlib
import http.server
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

RESOLVE = re.compile(r"^/(?:(datasets)/)?(.+?)/resolve/([^/]+)/(.+)$")
API = re.compile(r"^/api/(models|datasets)/(.+?)(?:/(revision|tree)/([^/]+)(?:/(.+))?)?$")


@dataclass
class HubRepos:
    """Repos by (type, id): type 'model' or 'dataset', files as {path in repo: bytes}."""

    repos: dict[tuple[str, str], dict[str, bytes]] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)  # (method, path) of every request
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, repo_type: str, repo_id: str, files: dict[str, bytes]) -> None:
        self.repos[(repo_type, repo_id)] = dict(files)

    def add_folder(self, repo_type: str, repo_id: str, folder: Path) -> None:
        """Serve every file below ``folder`` (relative paths in the repo)."""
        self.add(repo_type, repo_id, {p.relative_to(folder).as_posix(): p.read_bytes()
                                      for p in sorted(folder.rglob("*")) if p.is_file()})

    def commit(self, repo_type: str, repo_id: str) -> str:
        files = self.repos[(repo_type, repo_id)]
        digest = hashlib.sha1()
        for path in sorted(files):
            digest.update(f"{path}\0{hashlib.sha256(files[path]).hexdigest()}\n".encode())
        return digest.hexdigest()


class HubHandler(http.server.BaseHTTPRequestHandler):
    hub: HubRepos  # set per server

    def log_message(self, *args):
        pass

    def _send(self, code: int, body: bytes, headers: dict[str, str], head: bool = False) -> None:
        self.send_response(code)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _error(self, code: str, message: str, head: bool) -> None:
        self._send(404, json.dumps({"error": message}).encode(),
                   {"Content-Type": "application/json", "X-Error-Code": code, "X-Error-Message": message}, head)

    def _repo(self, repo_type: str, repo_id: str, revision: str, head: bool) -> dict[str, bytes] | None:
        files = self.hub.repos.get((repo_type, repo_id))
        if files is None:
            self._error("RepoNotFound", f"Repository {repo_id} not found", head)
            return None
        if revision not in ("main", self.hub.commit(repo_type, repo_id)):
            self._error("RevisionNotFound", f"Invalid rev id: {revision}", head)
            return None
        return files

    def _handle(self, head: bool) -> None:
        path = self.path.split("?", 1)[0]
        with self.hub.lock:
            self.hub.requests.append((self.command, self.path))
        if m := RESOLVE.match(path):
            repo_type = "dataset" if m.group(1) else "model"
            repo_id, revision, filename = m.group(2), m.group(3), m.group(4)
            if (files := self._repo(repo_type, repo_id, revision, head)) is None:
                return
            if filename not in files:
                self._error("EntryNotFound", f"{filename} does not exist on {revision}", head)
                return
            body = files[filename]
            self._send(200, body, {"Content-Type": "application/octet-stream",
                                   "ETag": f'"{hashlib.sha256(body).hexdigest()}"',
                                   "X-Repo-Commit": self.hub.commit(repo_type, repo_id),
                                   "Accept-Ranges": "none"}, head)
        elif m := API.match(path):
            repo_type = m.group(1)[:-1]
            repo_id, kind, revision, folder = m.group(2), m.group(3), m.group(4) or "main", m.group(5)
            if (files := self._repo(repo_type, repo_id, revision, head)) is None:
                return
            sha = self.hub.commit(repo_type, repo_id)
            if folder:
                files = {p: b for p, b in files.items() if p.startswith(folder.rstrip("/") + "/")}
                if not files:
                    self._error("EntryNotFound", f"{folder} does not exist on {revision}", head)
                    return
            if kind != "tree":
                info = {"id": repo_id, "sha": sha, "private": False, "gated": False, "disabled": False,
                        "siblings": [{"rfilename": p, "size": len(b)} for p, b in sorted(files.items())]}
            else:
                info = [{"type": "file", "path": p, "size": len(b), "oid": hashlib.sha1(b).hexdigest()}
                        for p, b in sorted(files.items())]
            self._send(200, json.dumps(info).encode(), {"Content-Type": "application/json"}, head)
        else:
            self._error("EntryNotFound", f"no such endpoint: {path}", head)

    def do_GET(self):
        self._handle(head=False)

    def do_HEAD(self):
        self._handle(head=True)


@contextlib.contextmanager
def hub_server(hub: HubRepos) -> Iterator[str]:
    """Serve ``hub`` on a free port of 127.0.0.1; yields the endpoint URL for HF_ENDPOINT."""
    handler = type("BoundHubHandler", (HubHandler,), {"hub": hub})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
