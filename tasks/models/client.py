"""Choosing a model client from params: {backend: local | openai, local: {...}, openai: {...}}."""
from __future__ import annotations

from tasks.models.http import OpenAIChatClient
from tasks.models.local import LocalChatClient

CLIENTS = {"local": LocalChatClient, "openai": OpenAIChatClient}


def client_class(params: dict):
    """The client class params['backend'] names."""
    if params["backend"] not in CLIENTS:
        raise ValueError(f"unknown model backend {params['backend']!r}: one of {sorted(CLIENTS)}")
    return CLIENTS[params["backend"]]


def make_client(params: dict):
    """The client params['backend'] names, built from params['local'] or params['openai']."""
    return client_class(params)(**params[params["backend"]])


def scores_answers(params: dict) -> bool:
    """Whether the client params name reads the log-probabilities of allowed answers (else it returns text)."""
    return getattr(client_class(params), "scores_answers", False)


def summed_failures(failures: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    """Client failure counts by reason with ``more`` added, in reason order (shards of one run, merged)."""
    total = dict(failures)
    for reason, n in more.items():
        total[reason] = total.get(reason, 0) + n
    return dict(sorted(total.items()))
