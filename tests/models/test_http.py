"""tasks/models/http.py: the OpenAI-compatible backend against a real HTTP server on 127.0.0.1 (canned, empty,
malformed and failing answers, retries, timeouts, the API key only in the Authorization header)."""
from __future__ import annotations

from tasks.models.client import make_client, summed_failures
from tasks.models.decoding import Decoding
from tasks.models.http import OpenAIChatClient
from tests.models.helpers import CANARY, Handler


def test_openai_client_counts_every_failure_and_retries(server, monkeypatch):
    monkeypatch.setenv("HALLUCI_TEST_KEY", CANARY)
    client = OpenAIChatClient(server, "any", api_key_env="HALLUCI_TEST_KEY", timeout_s=0.5, retries=2, backoff_s=0.01)
    answers = client.complete(["ok one", "empty", "malformed", "nojson", "flaky two", "slow", "reject"])
    assert answers[0] == "answer to ok one"
    assert answers[4] == "answer to flaky two"  # a 500 is retried
    assert answers[1:4] == [None, None, None] and answers[5:] == [None, None]
    assert client.failures == {"empty_completion": 1, "malformed_response": 2, "timeout_or_connection": 1,
                               "http_400": 1}
    assert Handler.calls["reject"] == 1  # a 4xx is not retried
    assert Handler.calls["slow"] == 3  # timeouts are retried, then counted
    assert set(Handler.auth) == {f"Bearer {CANARY}"}
    other_shard = {"http_400": 2, "http_429": 1}
    assert list(summed_failures(client.failures, other_shard).items()) == [
        ("empty_completion", 1), ("http_400", 3), ("http_429", 1), ("malformed_response", 2),
        ("timeout_or_connection", 1)]


def test_openai_client_sends_the_decoding_params_name(server):
    """Greedy by default (temperature 0 and nothing else); the overview's generation settings as temperature,
    top_k and the seed; top_p and the frequency penalty when set; the answers are text whatever ``answers`` says."""
    Handler.bodies.clear()
    OpenAIChatClient(server, "any", api_key_env=None, max_tokens=200).complete(["ok greedy"])
    OpenAIChatClient(server, "any", api_key_env=None, decoding=Decoding(temperature=0.9, top_k=10)).complete(
        ["ok sampled"])
    client = make_client({"backend": "openai", "answers": "logprob",
                          "openai": {"base_url": server, "model": "gpt-3.5-turbo", "api_key_env": None},
                          "decoding": {"temperature": 1.0, "top_p": 1.0, "frequency_penalty": 0.5, "seed": 7}})
    assert client.complete(["ok fewshot"]) == ["answer to ok fewshot"] and not client.scores_answers
    fields = [{k: v for k, v in body.items() if k != "messages"} for body in Handler.bodies]
    assert fields == [{"model": "any", "temperature": 0.0, "max_tokens": 200},
                      {"model": "any", "temperature": 0.9, "top_k": 10, "seed": 13, "max_tokens": 256},
                      {"model": "gpt-3.5-turbo", "temperature": 1.0, "top_p": 1.0, "frequency_penalty": 0.5, "seed": 7,
                       "max_tokens": 256}]
