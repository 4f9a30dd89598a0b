"""Model clients: the OpenAI-compatible backend against a real HTTP server on 127.0.0.1 (canned, empty,
malformed and failing answers, retries, timeouts, the API key only in the Authorization header), the
generation parsers, and the local SmolLM2 backend for real."""
from __future__ import annotations

import json
import time

import pytest

from tasks.hallucigen.llm_generation import (
    generate,
    parse_paraphrase,
    parse_translation,
)
from tasks.models.client import summed_failures
from tasks.models.http import OpenAIChatClient
from tests.chat_server import ChatHandler, chat_server

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


@pytest.fixture(scope="module")
def server():
    with chat_server(Handler) as url:
        yield url


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


def test_generation_over_http_keeps_the_key_out_of_artifacts(server, monkeypatch):
    monkeypatch.setenv("HALLUCI_TEST_KEY", CANARY)
    client = OpenAIChatClient(server, "any", api_key_env="HALLUCI_TEST_KEY", timeout_s=2, retries=0)
    rows = [{"id": "en:test:0", "scenario": "paraphrase", "langpair": "en", "split": "test", "source": "A cat sat.",
             "origin": "o"},
            {"id": "fr-en:test:0", "scenario": "translation", "langpair": "fr-en", "split": "test",
             "source": "Un chat.", "origin": "o"}]
    examples, tally = generate(rows, client, "mentions", "any")
    # the server echoes the paraphrase prompt, which names hyp+ and hyp- but gives neither: rejected
    assert tally.as_dict()["kept"] == 1 and tally.as_dict()["rejected_by_reason"] == {"unparsable_completion": 1}
    assert examples[0]["langpair"] == "fr-en" and examples[0]["type"] == "natural"
    assert examples[0]["hyp_good"] == "answer to Translate the following text into English"
    assert examples[0]["hyp_bad"].startswith("answer to Translate the following text incorrectly into English")
    assert CANARY not in json.dumps(examples) and CANARY not in json.dumps(client.failures)


@pytest.mark.parametrize("completion,expected", [
    ("hyp+: The cat sat.\nhyp-: The cat sat on 3 mats.", ("The cat sat.", "The cat sat on 3 mats.")),
    ('Hyp+ = "Le chat."  hyp- = "Le chien."', ("Le chat.", "Le chien.")),
    ("hyp+: Same.\nhyp-: Same.", "identical_hypotheses"),
    ("Here is a paraphrase: the cat sat.", "unparsable_completion"),
    ("   ", "empty_completion"),
    (None, "empty_completion"),
])
def test_parse_paraphrase(completion, expected):
    assert parse_paraphrase(completion) == expected


def test_parse_translation():
    assert parse_translation("\nFrench: Le chat dort.\nNote: literal.", "French") == "Le chat dort."
    assert parse_translation("  \n ", "French") is None


def test_local_smollm2_backend_generates():
    from tasks.models.local import LocalChatClient

    client = LocalChatClient("smollm2", max_new_tokens=8, batch_size=2)
    answers = client.complete(["Say hello.", "Name a colour."])
    assert len(answers) == 2 and all(a is None or isinstance(a, str) for a in answers)
    assert any(answers)
    assert answers == client.complete(["Say hello.", "Name a colour."])  # greedy decoding is deterministic


def test_local_choose_ranks_the_greedy_continuation_first():
    """Log-probabilities of allowed answers agree with greedy decoding: the model's own next token (one-token
    path) and its own next two tokens (several-token path) are the most probable option, after a prefix."""
    from tasks.models.local import LocalChatClient, load_causal_lm

    client = LocalChatClient("smollm2", max_new_tokens=2, batch_size=2)
    tokenizer, _ = load_causal_lm("smollm2")
    prompts, prefix = ["Name a colour.", "Write a JSON object with a key called answer."], '{"'
    greedy = [tokenizer(prefix + c, add_special_tokens=False)["input_ids"] for c in
              client.complete(prompts, prefix=prefix)]
    for i, prompt in enumerate(prompts):
        ids = greedy[i][len(tokenizer(prefix, add_special_tokens=False)["input_ids"]):]
        first, two = tokenizer.decode(ids[:1]), tokenizer.decode(ids[:2])
        others = [o for o in (" no", " Yes", "x", " maybe") if o != first]
        best, scores = client.choose([prompt], [*others, first], prefix=prefix)[0]
        assert best == len(others) and len(scores) == len(others) + 1, (prompt, first, scores)
        longer = [o + " the end" for o in others]
        best, _ = client.choose([prompt], [two, *longer], prefix=prefix)[0]
        assert best == 0, (prompt, two)


def test_local_client_runs_the_shared_prompt_start_once_with_the_same_answers():
    """Prompts that start alike (few-shot demonstrations) share one key/value cache of their common tokens;
    the greedy answers are those of each prompt run alone and whole, and the option log-probabilities those
    of one uncached forward pass."""
    import torch

    from tasks.models.local import LocalChatClient, load_causal_lm, shared_cache, shared_length

    demos = "".join(f"Example {i}: the museum in town {i} opened in {1900 + i}. Answer: {1900 + i}.\n"
                    for i in range(12))
    prompts = [demos + q for q in ("When did the museum in town 3 open?", "Which town has the museum of 1907?",
                                   "Name the last town listed.")]
    client = LocalChatClient("smollm2", max_new_tokens=12, batch_size=2)
    tokenizer, model = load_causal_lm("smollm2")
    seqs = client._encode(tokenizer, prompts, '{"answer": "')
    assert shared_length(seqs) > 200 and shared_cache(model, seqs).get_seq_length() == shared_length(seqs)
    alone = []
    for ids in seqs:
        with torch.inference_mode():
            row = model.generate(input_ids=torch.tensor([ids]), max_new_tokens=12, do_sample=False,
                                 pad_token_id=tokenizer.pad_token_id)[0]
        alone.append(tokenizer.decode(row[len(ids):], skip_special_tokens=True).strip() or None)
    assert client.complete(prompts, prefix='{"answer": "') == alone and any(alone)
    options = ["1903", "1907", "town"]
    chosen = client.choose(prompts, options, prefix='{"answer": "')
    option_ids = [tokenizer(o, add_special_tokens=False)["input_ids"] for o in options]
    for ids, (best, scores) in zip(seqs, chosen):
        whole = []
        for o in option_ids:
            with torch.inference_mode():
                logp = torch.log_softmax(model(input_ids=torch.tensor([ids + o])).logits.float(), -1)[0]
            whole.append(sum(float(logp[len(ids) - 1 + j, t]) for j, t in enumerate(o)))
        assert scores == pytest.approx(whole, abs=2e-3) and best == max(range(3), key=whole.__getitem__)


def test_local_client_stops_each_row_when_its_answer_is_finished():
    """With ``until``, every row of a batch stops at the first step its continuation passes the test, and
    the answer is the start of the one it gives without a stop (greedy, the same batch)."""
    from tasks.models.local import LocalChatClient

    client = LocalChatClient("smollm2", max_new_tokens=40, batch_size=3)
    prompts = ["Describe the sea in two sentences.", "Tell me about Paris.", "Explain how bread is made."]
    whole = client.complete(prompts)
    stopped = client.complete(prompts, until=lambda text: len(text.split()) > 3)
    assert all(len(w.split()) > 5 for w in whole), whole
    for w, s in zip(whole, stopped):
        assert w.startswith(s) and len(s.split()) == 4, (w, s)


@pytest.mark.parametrize("continuation,closed", [
    ('It opens at 9."}', True), ("It opens at 9.", False), ('Say \\"hi\\" to', False), ("Sure.\nUser:", True),
    ('Say \\"hi\\"."', True), ("", False)])
def test_closed_json_string(continuation, closed):
    from tasks.charp.generate import closed_json_string

    assert closed_json_string(continuation) is closed


def test_int8_client_quantises_on_cpu_and_ranks_clear_answers_as_float32_does():
    """``int8`` replaces the chat model's Linear layers by dynamically quantised ones on CPU; where float32
    ranks one answer far ahead, so does int8 (close calls may flip: SmolLM2's log-probabilities moved by up to
    4.1 nats on these prompts)."""
    from tasks.models.local import LocalChatClient, load_causal_lm

    _, model = load_causal_lm("smollm2", int8=True)
    kinds = {type(m).__module__ for m in model.modules() if type(m).__name__ == "Linear"}
    assert kinds == {"torch.ao.nn.quantized.dynamic.modules.linear"}, kinds
    prompts = ["What is the capital of France?", "What colour is the sky on a clear day?",
               "How many legs does a cat have?"]
    options, prefix = ["Paris", "Blue", "Four", "Tokyo"], "The answer is: "
    fp32 = LocalChatClient("smollm2", batch_size=2).choose(prompts, options, prefix=prefix)
    int8 = LocalChatClient("smollm2", batch_size=2, int8=True).choose(prompts, options, prefix=prefix)
    assert [b for b, _ in fp32] == [b for b, _ in int8] == [0, 1, 2]
    assert int8 != fp32  # the quantised model's log-probabilities differ
