"""A real HTTP server on 127.0.0.1 that answers the Hub API calls of a dataset upload (create repo, preupload,
commit) and records what it received: the repos created, the files committed (decoded) and the Authorization
headers, the card metadata it was asked to validate. Every file is asked for in the "regular" upload mode,
so its bytes travel inside the commit."""
from __future__ import annotations

import base64
import contextlib
import http.server
import json
import re
import threading

import yaml


class HubRecorder(http.server.BaseHTTPRequestHandler):
    created: list[dict] = []
    commits: list[dict] = []
    auth: list[str] = []
    unknown: list[str] = []
    validated: list[dict] = []

    def log_message(self, *args):
        pass

    def _answer(self, code: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).auth.append(self.headers.get("Authorization", ""))
        host = f"http://{self.headers['Host']}"
        if self.path == "/api/repos/create":
            req = json.loads(body)
            type(self).created.append(req)
            repo = f"{req.get('organization')}/{req['name']}" if req.get("organization") else req["name"]
            return self._answer(200, {"url": f"{host}/datasets/{repo}", "name": repo})
        if self.path == "/api/validate-yaml":
            req = json.loads(body)
            try:
                meta = yaml.safe_load(req["content"].split("---\n")[1])
            except (IndexError, yaml.YAMLError) as exc:
                return self._answer(400, {"errors": [{"message": f"front matter: {exc}"}]})
            type(self).validated.append({"repoType": req["repoType"], "metadata": meta})
            return self._answer(200, {})
        if m := re.fullmatch(r"/api/datasets/(.+)/preupload/(.+)", self.path):
            files = json.loads(body)["files"]
            return self._answer(200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False}
                                                for f in files]})
        if m := re.fullmatch(r"/api/datasets/(.+)/commit/(.+)", self.path):
            lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
            header = next(x["value"] for x in lines if x["key"] == "header")
            files = {x["value"]["path"]: base64.b64decode(x["value"]["content"]) for x in lines if x["key"] == "file"}
            type(self).commits.append({"repo": m[1], "revision": m[2], "summary": header.get("summary"),
                                       "files": files, "other": [x["key"] for x in lines
                                                                 if x["key"] not in ("header", "file")]})
            oid = "0" * 40
            return self._answer(200, {"commitUrl": f"{host}/datasets/{m[1]}/commit/{oid}", "commitOid": oid,
                                      "pullRequestUrl": None})
        type(self).unknown.append(f"POST {self.path}")
        return self._answer(404, {"error": f"not recorded: {self.path}"})

    def do_GET(self):
        type(self).unknown.append(f"GET {self.path}")
        return self._answer(404, {"error": f"not recorded: {self.path}"})


@contextlib.contextmanager
def hub_server():
    """Serve a fresh recorder class on a free port; yields (endpoint URL, the recorder class)."""
    recorder = type("Recorder", (HubRecorder,), {"created": [], "commits": [], "auth": [], "unknown": [],
                                                   "validated": []})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), recorder)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}", recorder
    finally:
        srv.shutdown()
