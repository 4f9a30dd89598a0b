"""An OpenAI-compatible chat-completions client over plain HTTP: retries with backoff, then a counted
failure; the API key comes from an environment variable and never reaches logs or artifacts."""
from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request

from tasks.models.decoding import Decoding


class OpenAIChatClient:
    """POST {base_url}/chat/completions for each prompt; failures are counted by reason, never raised.
    ``call_failures`` holds, per prompt of the latest ``complete``, why no answer came back (a reason counted in
    ``failures``, e.g. "timeout_or_connection"), or None when the model answered (an empty answer included).
    ``decoding`` sets the request's temperature, top-p, top-k, frequency penalty and seed; the answers are always
    text (``answers`` is accepted for the params' sake: an endpoint gives no log-probabilities here)."""

    scores_answers = False

    def __init__(self, base_url: str, model: str, api_key_env: str | None = "OPENAI_API_KEY", timeout_s: float = 60,
                 retries: int = 3, backoff_s: float = 1.0, max_tokens: int = 256, decoding: Decoding | None = None,
                 answers: str = "text"):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.timeout_s, self.retries, self.backoff_s = model, timeout_s, retries, backoff_s
        self.max_tokens, self.decoding = max_tokens, decoding or Decoding()
        self._key_env = api_key_env
        self.failures: dict[str, int] = {}
        self.call_failures: list[str | None] = []

    def _count(self, reason: str) -> None:
        self.failures[reason] = self.failures.get(reason, 0) + 1

    def _headers(self) -> dict:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self._key_env) if self._key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _post(self, prompt: str) -> tuple[str | None, str | None]:
        """(the completion, None); (None, None) for an empty one; (None, why no answer came back)."""
        body = json.dumps({"model": self.model, **self.decoding.request_fields(), "max_tokens": self.max_tokens,
                           "messages": [{"role": "user", "content": prompt}]}).encode("utf-8")
        last = "http_error"
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                req = urllib.request.Request(self.url, data=body, headers=self._headers(), method="POST")
                with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                    payload = json.loads(resp.read().decode("utf-8"))
            except urllib.error.HTTPError as exc:
                last = f"http_{exc.code}"
                if 400 <= exc.code < 500 and exc.code != 429:
                    break  # a client error does not get better by retrying
                continue
            except (TimeoutError, urllib.error.URLError, ConnectionError):
                last = "timeout_or_connection"
                continue
            except json.JSONDecodeError:
                last = "malformed_response"
                continue
            try:
                content = payload["choices"][0]["message"]["content"]
            except (KeyError, IndexError, TypeError):
                self._count("malformed_response")
                return None, "malformed_response"
            if not isinstance(content, str) or not content.strip():
                self._count("empty_completion")
                return None, None
            return content.strip(), None
        self._count(last)
        return None, last

    def complete(self, prompts: list[str]) -> list[str | None]:
        answers = [self._post(p) for p in prompts]
        self.call_failures = [reason for _, reason in answers]
        return [text for text, _ in answers]

