"""tasks/models/local.py: the local SmolLM2 backend for real."""
from __future__ import annotations

import pytest


def test_local_smollm2_backend_generates():
    from tasks.models.local import LocalChatClient

    client = LocalChatClient("smollm2", max_new_tokens=8, batch_size=2)
    answers = client.complete(["Say hello.", "Name a colour."])
    assert len(answers) == 2 and all(a is None or isinstance(a, str) for a in answers)
    assert any(answers)
    assert answers == client.complete(["Say hello.", "Name a colour."])  # greedy decoding is deterministic


def test_local_client_shows_progress_over_several_batches(capfd):
    from tasks.models.local import LocalChatClient

    client = LocalChatClient("smollm2", max_new_tokens=2, batch_size=1)
    client.complete(["Say hello.", "Name a colour."])
    client.choose(["Yes or no?", "Pick one."], ["yes", "no"])
    err = capfd.readouterr().err
    assert "smollm2 answers: 100%" in err and "2/2" in err and "smollm2 choices: 100%" in err
    LocalChatClient("smollm2", max_new_tokens=2, batch_size=2).complete(["Say hello.", "Name a colour."])
    assert "smollm2 answers" not in capfd.readouterr().err  # one batch: no bar


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
