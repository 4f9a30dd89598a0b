"""Choosing a model client from params: {backend: local | openai, local: {...}, openai: {...}, decoding: {...},
answers: logprob | text}, and the rule for a stage whose client got no answer for some of its items (endpoint
unreachable, an HTTP error, a malformed response; an empty answer is the model's own and does not count): on every
item, the stage fails with one line naming the client and the counts, before it writes anything, so the previous
outputs stay; on some, it goes on and says how many in one console line (also in the run's Prefect logs), e.g.
``WARNING hallucigen_llm: 3 of 12 examples of generator smollm2 failed in the model client
(timeout_or_connection 3)``."""
from __future__ import annotations

import logging
import sys
from urllib.parse import urlsplit

from tasks.errors import PipelineError
from tasks.models.decoding import Decoding
from tasks.models.http import OpenAIChatClient
from tasks.models.local import LocalChatClient

CLIENTS = {"local": LocalChatClient, "openai": OpenAIChatClient}


def client_class(params: dict):
    """The client class params['backend'] names."""
    if params["backend"] not in CLIENTS:
        raise ValueError(f"unknown model backend {params['backend']!r}: one of {sorted(CLIENTS)}")
    return CLIENTS[params["backend"]]


def make_client(params: dict):
    """The client params['backend'] names, built from params['local'] or params['openai'], decoding as
    params['decoding'] says (greedy where absent)."""
    return client_class(params)(**params[params["backend"]], decoding=Decoding(**params.get("decoding") or {}),
                                answers=params.get("answers", "logprob"))


def scores_answers(params: dict) -> bool:
    """Whether the client params name reads the log-probabilities of allowed answers (a local model with
    ``answers: logprob``; else it returns text)."""
    return getattr(client_class(params), "scores_answers", False) and params.get("answers", "logprob") == "logprob"


def summed_failures(failures: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    """Client failure counts by reason with ``more`` added, in reason order (shards of one run, merged)."""
    total = dict(failures)
    for reason, n in more.items():
        total[reason] = total.get(reason, 0) + n
    return dict(sorted(total.items()))


REJECT_PREFIX = "client_failure:"  # reject reason of an item the client failed on: client_failure:<client reason>
ANSWERED = "empty_completion"  # a client failure count that is an answer (empty), not a lost item


def client_label(params: dict) -> str:
    """The client that params {backend, local, openai} name, for messages: backend, model and, for an endpoint,
    its URL without credentials or query (e.g. ``openai model gpt-4o at https://api.example.com/v1``)."""
    backend = params["backend"]
    model = params[backend]["model"]
    if backend != "openai":
        return f"{backend} model {model}"
    url = urlsplit(params["openai"]["base_url"])
    host = url.hostname or ""
    netloc = f"{host}:{url.port}" if url.port else host
    return f"openai model {model} at {url.scheme}://{netloc}{url.path}"


def lost_in_client(failures: dict[str, int]) -> dict[str, int]:
    """The items a client lost, by reason, from its failure counts (one count per prompt at most); an empty
    completion is an answer and is left out."""
    return {reason: n for reason, n in sorted(failures.items()) if reason != ANSWERED and n}


def lost_in_rejects(rejected_by_reason: dict[str, int]) -> dict[str, int]:
    """The items a client lost, by reason, from rejects named ``client_failure:<reason>``."""
    return {r[len(REJECT_PREFIX):]: n for r, n in sorted(rejected_by_reason.items()) if r.startswith(REJECT_PREFIX)}


def _counts(lost: dict[str, int]) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in sorted(lost.items()))


def _to_run_logs(message: str) -> None:
    """``message`` as a warning in the current Prefect run's logs (API and UI only: the console has the plain
    line); nothing outside a run."""
    # Prefect is imported here, not at the top: the GPU-machine benchmark path uses the clients without Prefect.
    from prefect import get_run_logger
    from prefect.exceptions import MissingContextError
    from prefect.logging.handlers import APILogHandler
    from prefect.logging.loggers import PrefectLogAdapter

    try:
        run_logger = get_run_logger()
    except MissingContextError:
        return
    api_only = logging.getLogger("halluci.client_failures")
    api_only.propagate = False
    if not any(isinstance(h, APILogHandler) for h in api_only.handlers):
        api_only.addHandler(APILogHandler())
    PrefectLogAdapter(api_only, run_logger.extra).warning(message)


def check_client_failures(stage: str, lost: dict[str, int], total: int, items: str, client: str) -> None:
    """Apply the rule to ``total`` items (``items`` names them, e.g. "sources"), ``lost`` of them by reason:
    raise PipelineError when all were lost, warn when some were, else nothing."""
    n_lost = sum(lost.values())
    if not total or not n_lost:
        return
    if n_lost >= total:
        raise PipelineError(f"the model client failed on all {total} {items} ({_counts(lost)}): {client}; "
                            "nothing written, the previous outputs are kept")
    message = f"{n_lost} of {total} {items} failed in the model client ({_counts(lost)})"
    _to_run_logs(f"{stage}: {message}")
    print(f"WARNING {stage}: {message}", file=sys.stderr, flush=True)
