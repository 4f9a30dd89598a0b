"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests: a handler class answers
each prompt through its ``reply`` method; it records the Authorization headers it saw."""
from __future__ import annotations

import contextlib
import http.server
import json
import threading


class ChatHandler(http.server.BaseHTTPRequestHandler):
    """Subclasses implement reply(prompt) -> (status, body bytes); ``completion`` wraps a text answer. The
    request bodies are kept in ``bodies`` (a subclass may hold its own list)."""

    auth: list[str] = []
    bodies: list[dict] = []

    def log_message(self, *args):
        pass

    @staticmethod
    def completion(text: str) -> tuple[int, bytes]:
        return 200, json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]}).encode()

    def reply(self, prompt: str) -> tuple[int, bytes]:
        raise NotImplementedError

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).auth.append(self.headers.get("Authorization", ""))
        type(self).bodies.append(body)
        code, data = self.reply(body["messages"][0]["content"])
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextlib.contextmanager
def chat_server(handler: type[ChatHandler]):
    """Serve ``handler`` on a free port; yields the base URL (.../v1)."""
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    finally:
        srv.shutdown()
