"""Generation: beam search in batches from a trained checkpoint, and the few-shot path (CHARP Appendix B.3
prompt, 3 in-context examples from the training split) through a model client. Unusable few-shot
answers are counted and kept as empty predictions."""
from __future__ import annotations

import json
import re

from tqdm import tqdm

from tasks.charp.formatting import history_lines, input_ids
from tasks.models.batching import cpu_int8, length_sorted_batches
from tasks.models.client import make_client
from tasks.models.device import best_device
from tasks.models.parsing import json_field

FEWSHOT_INSTRUCTION = (
    "You are given a chitchat conversation between a ``User'' and a ``Bot''. Your goal is to generate a response to "
    "the last user turn, which in turn should be based on the given ``Knowledge''. You are prohibited from generating "
    "any extra information that is not mentioned in the given knowledge. The output should be a JSON dictionary as "
    "follow: {``response'': ``''}. Here are a few demonstration examples:")


def generate_beam(rows: list[dict], checkpoint: str, arch: str, params: dict) -> list[str]:
    """Beam-search responses (params: beam_size, batch_size, max_length, max_new_tokens, int8: dynamic int8 on
    CPU); inputs follow the training's truncation rule (formatting.input_ids) and run in batches of similar
    length; the first line of a causal model's continuation is its response."""
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    device = best_device()
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    causal = arch == "causal"
    tokenizer.padding_side = "left" if causal else "right"
    cls = AutoModelForCausalLM if causal else AutoModelForSeq2SeqLM
    model = cpu_int8(cls.from_pretrained(checkpoint, use_safetensors=True).to(device).eval(), device,
                     params.get("int8", False))
    inputs = [input_ids(tokenizer, r, params["max_length"]) for r in rows]
    out: list[str] = [""] * len(rows)
    for idx in tqdm(length_sorted_batches([len(ids) for ids in inputs], params["batch_size"]), desc="generate",
                    mininterval=10):
        enc = tokenizer.pad({"input_ids": [inputs[i] for i in idx]}, return_tensors="pt").to(device)
        with torch.inference_mode():
            gen = model.generate(**enc, num_beams=params["beam_size"], max_new_tokens=params["max_new_tokens"],
                                 do_sample=False, early_stopping=True, pad_token_id=tokenizer.pad_token_id)
        new = gen[:, enc["input_ids"].shape[1]:] if causal else gen
        for i, seq in zip(idx, new):
            text = tokenizer.decode(seq, skip_special_tokens=True).strip()
            out[i] = text.split("\n")[0].strip() if causal else text
    return out


def longest_input_first(rows: list[dict], checkpoint: str, max_length: int) -> list[int]:
    """Row indices in the order generate_beam runs them (longest input first), so that shards of whole batches
    cut from rows in this order run the batches one shard runs, and give its predictions."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    lengths = [len(input_ids(tokenizer, r, max_length)) for r in rows]
    return [i for batch in length_sorted_batches(lengths, 1) for i in batch]


def _example(turn: dict, with_answer: bool) -> str:
    lines = ["Conversation:", *history_lines(turn["history"]), f"Knowledge: {turn['knowledge']}"]
    if with_answer:
        lines.append("Output: " + json.dumps({"response": turn["response"]}, ensure_ascii=False))
    else:
        lines.append("Output:")
    return "\n".join(lines)


def fewshot_prompt(demonstrations: list[dict], turn: dict) -> str:
    """The Appendix B.3 prompt: the instruction, the demonstrations, then the input example."""
    return "\n\n".join([FEWSHOT_INSTRUCTION, *[_example(d, True) for d in demonstrations], _example(turn, False)])


RESPONSE = re.compile(r"""["'`]*response["'`]*\s*:\s*["'`]+(.*?)["'`]*\s*}""", re.DOTALL)


def parse_response(answer: str | None) -> str | None:
    """The response of a JSON answer {"response": "..."} (also with loose quoting); None when there is none."""
    if not answer:
        return None
    value = json_field(answer, "response")
    if isinstance(value, str) and value.strip():
        return value.strip()
    m = RESPONSE.search(answer)
    return m.group(1).strip() if m and m.group(1).strip() else None


FEWSHOT_PREFIX = '{"response": "'
JSON_STRING = re.compile(r'(?:[^"\\\n]|\\.)*')


def json_string_start(continuation: str | None) -> str | None:
    """The string a continuation of FEWSHOT_PREFIX holds: up to its closing quote or the line's end (the turn
    boundary), JSON escapes decoded; None when it is empty."""
    if not continuation:
        return None
    raw = JSON_STRING.match(continuation).group(0)
    try:
        value = json.loads(f'"{raw}"')
    except json.JSONDecodeError:
        value = raw
    return value.strip() or None


def closed_json_string(continuation: str) -> bool:
    """Whether a continuation of FEWSHOT_PREFIX has closed its string (a closing quote or a line's end)."""
    return JSON_STRING.match(continuation).end() < len(continuation)


def generate_fewshot(rows: list[dict], demonstrations: list[dict], client) -> tuple[list[str], int]:
    """Predictions through the client, and how many answers were unusable (kept as ""). A client that can
    start the answer (local models) continues the opened JSON string, so that the answer is a response; an
    OpenAI-compatible endpoint answers freely and its JSON is parsed."""
    prompts = [fewshot_prompt(demonstrations, r) for r in rows]
    if getattr(client, "scores_answers", False):
        parsed = [json_string_start(a) for a in client.complete(prompts, prefix=FEWSHOT_PREFIX,
                                                                        until=closed_json_string)]
    else:
        parsed = [parse_response(a) for a in client.complete(prompts)]
    return [p or "" for p in parsed], sum(p is None for p in parsed)


def fewshot_cell(rows: list[dict], demonstrations: list[dict], client_params: dict) -> tuple[list[str], dict]:
    """The few-shot system's predictions through the client ``client_params`` names, with its unusable answers
    and the client's failures by reason (a cell's or a shard's figures)."""
    client = make_client(client_params)
    predictions, unusable = generate_fewshot(rows, demonstrations, client)
    return predictions, {"unusable_answers": unusable, "client_failures": dict(sorted(client.failures.items()))}
