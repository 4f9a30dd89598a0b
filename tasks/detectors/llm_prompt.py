"""LLM prompt detector with the overview's three detection prompts (Tables 9-10): general, meaning and
support. A client that scores answers (local models) is asked for the log-probabilities of the allowed answers,
so every example gets a score: pairs are asked in both orders (hyp1/hyp2 and swapped), which cancels the
model's preference for one position, and a pair gets an answer unless the two orders cancel exactly (a model that
names the first position in both orders with the same probability has said nothing about the pair: no answer,
counted in `no_answer`, scored incorrect); single hypotheses (binary sets) get a yes/no question of
the same prompt. A client that returns only text (OpenAI-compatible endpoints) is parsed: the answer must name
hypothesis1 or hypothesis2; anything else is no answer (scored incorrect, as in the overview), counted as
unparsable."""
from __future__ import annotations

import math
import re

from tasks.detectors.base import Decisions

PROMPTS = {
    "general": "Which hypothesis is an incorrect {task} of the source: hypothesis1 or hypothesis2?",
    "meaning": "Given the source which hypothesis contains content which is not present in the source, or has a "
               "different meaning to the source: hypothesis1 or hypothesis2?",
    "support": "Which hypothesis is not supported by the source: hypothesis1 or hypothesis2?",
}
# The same prompts about one hypothesis: (question, the answer that says it is hallucinated).
QUESTIONS = {
    "general": ("Is the hypothesis an incorrect rendering of the source? Answer Yes or No.", "Yes"),
    "meaning": ("Given the source, does the hypothesis contain content which is not present in the source, or have "
                "a different meaning to the source? Answer Yes or No.", "Yes"),
    "support": ("Is the hypothesis supported by the source? Answer Yes or No.", "No"),
}
TEMPLATE = "{question}\nsource: {source}\nhypothesis1: {hyp1}\nhypothesis2: {hyp2}\n" \
           "Acceptable answers: 'hypothesis1', 'hypothesis2'\nAnswer:"
SINGLE = "{question}\nsource: {source}\nhypothesis: {hyp}\nAnswer:"
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


def first_probability(log_probs: list[float]) -> float:
    """The probability of the first of two answers, renormalised over the two."""
    return 1.0 / (1.0 + math.exp(log_probs[1] - log_probs[0]))


class LLMPromptDetector:
    """One of the three prompts through a model client (local transformers or OpenAI-compatible HTTP)."""

    def __init__(self, name: str, client, prompt: str):
        if prompt not in PROMPTS:
            raise ValueError(f"unknown detection prompt {prompt!r}: one of {sorted(PROMPTS)}")
        self.name, self.client, self.prompt = name, client, prompt
        self.can_score = bool(getattr(client, "scores_answers", False))
        self.unparsable = 0

    def scores(self, sources: list[str], hyps: list[str]) -> list[float]:
        """p(hallucinated) per hypothesis: the probability of the yes/no answer that says so."""
        if not self.can_score:
            raise NotImplementedError(f"{self.name} compares two hypotheses; its client gives no log-probabilities")
        question, hallucinated = QUESTIONS[self.prompt]
        prompts = [SINGLE.format(question=question, source=s, hyp=h) for s, h in zip(sources, hyps)]
        options = [hallucinated, "No" if hallucinated == "Yes" else "Yes"]
        return [round(first_probability(log_probs), 6) for _, log_probs in self.client.choose(prompts, options)]

    def decide(self, sources: list[str], hyp1s: list[str], hyp2s: list[str], scenario: str = "paraphrase") -> Decisions:
        if self.can_score:
            return self._scored(sources, hyp1s, hyp2s, scenario)
        prompts = [detection_prompt(self.prompt, scenario, s, a, b) for s, a, b in zip(sources, hyp1s, hyp2s)]
        answers = self.client.complete(prompts)
        labels = [parse_answer(a) for a in answers]
        self.unparsable += sum(label is None for label in labels)
        return Decisions(labels, answers=answers)

    def _scored(self, sources, hyp1s, hyp2s, scenario) -> Decisions:
        """Each pair in both orders; a hypothesis's score is the mean probability that the answer names it."""
        n = len(sources)
        prompts = [detection_prompt(self.prompt, scenario, s, a, b) for s, a, b in zip(sources, hyp1s, hyp2s)]
        prompts += [detection_prompt(self.prompt, scenario, s, b, a) for s, a, b in zip(sources, hyp1s, hyp2s)]
        chosen = self.client.choose(prompts, ["1", "2"], prefix="hypothesis")
        first = [first_probability(log_probs) for _, log_probs in chosen]
        s1 = [round((first[i] + 1 - first[n + i]) / 2, 6) for i in range(n)]
        labels = ["hyp1" if p > 0.5 else "hyp2" if p < 0.5 else None for p in s1]
        answers = [f"hypothesis{chosen[i][0] + 1}; swapped: hypothesis{chosen[n + i][0] + 1}" for i in range(n)]
        return Decisions(labels, s1, [round(1 - p, 6) for p in s1], answers)
