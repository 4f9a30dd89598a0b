"""The seven-category LLM judge (CHARP Appendix C.3): the checklist prompt with two in-context examples
per category (tasks/charp/judge_examples.jsonl, written for this project: see tasks/charp/README.md),
through a model client: a local model's category is read from the log-probabilities of the allowed answers;
an endpoint's free text must give a list of category numbers 1-7, an unparsable one is asked again up to
`retries` times, then counted as unparsable."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tasks.charp.formatting import history_lines
from tasks.errors import InputError
from tasks.models.parsing import json_field

CATEGORIES = {
    1: "The system's prediction is of high quality and is an equivalent or a paraphrase of the ground truth response.",
    2: "The system's prediction aligns with the ground truth response, but adds extra information, meaning that the "
       "content in the prediction is absent from the ground truth response, the given knowledge or the given history.",
    3: "The system's prediction is an identical copy or a very similar rephrasing of the entire knowledge. Meaning "
       "that its content is the exact same that can be found in the knowledge. It might contain content that aligns "
       "with the ground truth response, but it also contains off-topic content from the knowledge. It should not "
       "contain information that is absent from the given knowledge.",
    4: "The system's prediction states doubt and ignorance, saying it doesn't know, doesn't understand, or is not "
       "equiped to answer; yet it copies or rephrases the content from the knowledge. The system's prediction content "
       "may originate from the whole knowledge or from the part of the knowledge that correctly aligns with the ground "
       "truth response or from the part of the knowledge that is not aligned with the ground truth response. It should "
       "not contain information that is absent from the given knowledge. For example:",
    5: "The system's prediction is an identical copy or a very similar rephrasing of the part of the knowledge whose "
       "content is off-topic and does not align with the ground truth response. The content of the system prediction "
       "should not contain any content that aligns (even partially) with the ground truth response. It should not "
       "contain information that is absent from the given knowledge or state ignorance by saying it doesn't know and "
       "is not able to get that information.",
    6: "The system's prediction does not align with the ground truth response and its content is made of mixed-up "
       "information coming from both the knowledge part that aligns with the ground truth response (on-topic) and the "
       "part that does not align with the ground truth response (off-topic). Both parts are not just a copy of the "
       "knowledge, but are merged together, which leads to wrong and inaccurate information in the prediction.",
    7: "The system's prediction does not align with the ground truth response yet it cannot be classified as any of "
       "the previously mentioned categories. This includes but is not limited to: having extra information that is "
       "absent from the given knowledge, having two or more content elements that contradict each other, being empty.",
}
INSTRUCTION = (
    "Your task is to assess the quality of a machine learning system's response in a conversation. The conversation "
    "'history' includes interactions between a user (Seeker) and a bot (Wizard), along with relevant 'knowledge' that "
    "pertains to the Seeker's last utterance. You are also provided with a 'response' (a ground truth or expected "
    "response) and the 'prediction' (the system's predicted response). Your evaluation involves comparing the "
    "system's 'prediction' with the 'response', considering the entire conversation 'history' and the provided "
    "'knowledge'.\nThe evaluation is structured around categorizing the system's response into specific categories. "
    "Your output should be a JSON dictionary with a single <key, value> pair. The key is \"category\", and the value "
    "is a list of the category numbers that the predicted response falls under. For example: \"category\": [1]. These "
    "categories are:")


def load_examples(path: Path) -> dict[int, list[dict]]:
    """Two in-context examples per category from a JSON Lines file; anything else is an error naming the row."""
    by_cat: dict[int, list[dict]] = {c: [] for c in CATEGORIES}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        try:
            ex = json.loads(line)
            by_cat[int(ex["category"])].append(ex)
            assert all(k in ex for k in ("history", "knowledge", "response", "prediction"))
        except (json.JSONDecodeError, KeyError, ValueError, AssertionError) as exc:
            raise InputError(f"{path}: row {n}: not a judge example ({exc!r})") from exc
    short = [c for c, exs in by_cat.items() if len(exs) < 2]
    if short:
        raise InputError(f"{path}: categories {short} have fewer than two examples")
    return by_cat


def _block(history: list[str], knowledge: str, response: str, prediction: str) -> str:
    return json.dumps({"history": history, "knowledge": knowledge, "response": response, "prediction": prediction},
                      ensure_ascii=False)


def judge_prompt(examples: dict[int, list[dict]], turn: dict, prediction: str) -> str:
    parts = [INSTRUCTION]
    for c, text in CATEGORIES.items():
        shots = " ".join(_block(e["history"], e["knowledge"], e["response"], e["prediction"]) +
                         f' -> {{"category": [{c}]}}' for e in examples[c][:2])
        parts.append(f"{c}. {text}\n{shots}")
    parts.append("Now you must evaluate the following:\n" + _block(history_lines(turn["history"]), turn["knowledge"],
                                                                    turn["response"], prediction))
    return "\n".join(parts)


LIST = re.compile(r"\[\s*([1-7](?:\s*,\s*[1-7])*)\s*\]")


def parse_categories(answer: str | None) -> list[int] | None:
    """The category list of {"category": [...]} (or the first list of numbers 1-7); None when there is none."""
    if not answer:
        return None
    value = json_field(answer, "category")
    if isinstance(value, int):
        value = [value]
    if isinstance(value, list) and value and all(isinstance(v, int) and 1 <= v <= 7 for v in value):
        return sorted(set(value))
    m = LIST.search(answer)
    return sorted({int(v) for v in m.group(1).split(",")}) if m else None


CATEGORY_PREFIX = '{"category": ['


def judge(items: list[tuple[dict, str]], examples: dict[int, list[dict]], client, retries: int
          ) -> tuple[list[list[int] | None], dict]:
    """Categories per (turn, prediction); figures: asked, retried, unparsable. A client that scores answers
    (local models) gives the most probable category after the opened list, so every prediction gets one;
    another client's free text is parsed, an unparsable answer asked again up to ``retries`` times."""
    result, asked_again = judge_items(items, examples, client, retries)
    return result, judge_figures(result, asked_again)


def judge_items(items: list[tuple[dict, str]], examples: dict[int, list[dict]], client, retries: int
                ) -> tuple[list[list[int] | None], list[int]]:
    """Categories per (turn, prediction), all in one call to the client (the prompts share their examples), and
    how many times each was asked again."""
    prompts = [judge_prompt(examples, t, p) for t, p in items]
    if getattr(client, "scores_answers", False):
        options = [str(c) for c in CATEGORIES]
        result = [[int(options[best])] for best, _ in client.choose(prompts, options, prefix=CATEGORY_PREFIX)]
        return result, [0] * len(items)
    result: list[list[int] | None] = [parse_categories(a) for a in client.complete(prompts)]
    asked_again = [0] * len(items)
    for _ in range(retries):
        todo = [i for i, r in enumerate(result) if r is None]
        if not todo:
            break
        for i, answer in zip(todo, client.complete([prompts[i] for i in todo])):
            result[i], asked_again[i] = parse_categories(answer), asked_again[i] + 1
    return result, asked_again


def judge_figures(result: list[list[int] | None], asked_again: list[int]) -> dict:
    return {"asked": len(result), "retried": sum(asked_again), "unparsable": sum(r is None for r in result)}
