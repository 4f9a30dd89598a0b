"""Choosing a model client from params: {backend: local | openai, local: {...}, openai: {...}}."""
from __future__ import annotations

from tasks.models.http import OpenAIChatClient
from tasks.models.local import LocalChatClient


def make_client(params: dict):
    """The client params['backend'] names, built from params['local'] or params['openai']."""
    if params["backend"] == "local":
        return LocalChatClient(**params["local"])
    if params["backend"] == "openai":
        return OpenAIChatClient(**params["openai"])
    raise ValueError(f"unknown model backend {params['backend']!r}: 'local' or 'openai'")


def summed_failures(failures: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    """Client failure counts by reason with ``more`` added, in reason order (shards of one run, merged)."""
    total = dict(failures)
    for reason, n in more.items():
        total[reason] = total.get(reason, 0) + n
    return dict(sorted(total.items()))
