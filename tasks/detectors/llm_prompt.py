"""LLM prompt detector with the overview's three detection prompts (Tables 9-10): general, meaning and
support. The answer must name hypothesis1 or hypothesis2; anything else is no answer (scored incorrect,
as in the overview) and is counted as unparsable."""
from __future__ import annotations

import re

from tasks.detectors.base import Decisions

PROMPTS = {
    "general": "Which hypothesis is an incorrect {task} of the source: hypothesis1 or hypothesis2?",
    "meaning": "Given the source which hypothesis contains content which is not present in the source, or has a "
               "different meaning to the source: hypothesis1 or hypothesis2?",
    "support": "Which hypothesis is not supported by the source: hypothesis1 or hypothesis2?",
}
TEMPLATE = "{question}\nsource: {source}\nhypothesis1: {hyp1}\nhypothesis2: {hyp2}\n" \
           "Acceptable answers: 'hypothesis1', 'hypothesis2'\nAnswer:"
ANSWER = re.compile(r"\bhyp(?:othesis)?\s*([12])\b", re.IGNORECASE)


def detection_prompt(prompt: str, scenario: str, source: str, hyp1: str, hyp2: str) -> str:
    question = PROMPTS[prompt].format(task="translation" if scenario == "translation" else "paraphrase")
    return TEMPLATE.format(question=question, source=source, hyp1=hyp1, hyp2=hyp2)


def parse_answer(answer: str | None) -> str | None:
    """"hyp1"/"hyp2" when the answer names exactly one of the two hypotheses, else None."""
    if not answer:
        return None
    named = set(ANSWER.findall(answer))
    return f"hyp{named.pop()}" if len(named) == 1 else None


class LLMPromptDetector:
    """One of the three prompts through a model client (local transformers or OpenAI-compatible HTTP)."""

    can_score = False

    def __init__(self, name: str, client, prompt: str):
        if prompt not in PROMPTS:
            raise ValueError(f"unknown detection prompt {prompt!r}: one of {sorted(PROMPTS)}")
        self.name, self.client, self.prompt = name, client, prompt
        self.unparsable = 0

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        raise NotImplementedError(f"{self.name} compares two hypotheses; it gives no per-hypothesis score")

    def decide(self, sources: list[str], hyp1s: list[str], hyp2s: list[str], scenario: str = "paraphrase") -> Decisions:
        prompts = [detection_prompt(self.prompt, scenario, s, a, b) for s, a, b in zip(sources, hyp1s, hyp2s)]
        answers = self.client.complete(prompts)
        labels = [parse_answer(a) for a in answers]
        self.unparsable += sum(label is None for label in labels)
        return Decisions(labels, answers=answers)
