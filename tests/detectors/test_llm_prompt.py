"""tasks/detectors/llm_prompt.py: the detection prompts, answer parsing, the detector against a real local
HTTP server and on a local model's log-probabilities."""
from __future__ import annotations

from typing import ClassVar

import pytest

from tasks.detectors.llm_prompt import LLMPromptDetector, detection_prompt, parse_answer
from tasks.models.http import OpenAIChatClient
from tests.chat_server import ChatHandler, chat_server


def test_detection_prompts_follow_tables_9_and_10():
    p = detection_prompt("general", "translation", "Le chat.", "The cat.", "The dog.")
    assert p == ("Which hypothesis is an incorrect translation of the source: hypothesis1 or hypothesis2?\n"
                 "source: Le chat.\nhypothesis1: The cat.\nhypothesis2: The dog.\n"
                 "Acceptable answers: 'hypothesis1', 'hypothesis2'\nAnswer:")
    assert detection_prompt("general", "paraphrase", "s", "a", "b").startswith(
        "Which hypothesis is an incorrect paraphrase of the source")
    assert detection_prompt("support", "paraphrase", "s", "a", "b").startswith(
        "Which hypothesis is not supported by the source: hypothesis1 or hypothesis2?")


@pytest.mark.parametrize("answer, label", [
    ("hypothesis1", "hyp1"), (" 'hypothesis2'", "hyp2"), ("Hypothesis 2 is not supported.", "hyp2"),
    ("hyp1", "hyp1"), ("hypothesis1 or hypothesis2", None), ("Neither.", None), ("", None), (None, None),
    ("hypothesis12", None),
])
def test_parse_answer(answer, label):
    assert parse_answer(answer) == label


class Answers(ChatHandler):
    """Answers by the source sentence: one, two, both, junk, or a server error."""

    auth: ClassVar[list[str]] = []

    def reply(self, prompt: str) -> tuple[int, bytes]:
        source = prompt.split("\nsource: ")[1].split("\n")[0]
        if source == "error":
            return 503, b"{}"
        return self.completion({"one": "hypothesis1", "two": "The answer is 'hypothesis2'.",
                                "both": "hypothesis1 and hypothesis2", "junk": "I cannot say."}[source])


def test_llm_prompt_detector_over_http_counts_unparsable_answers(monkeypatch):
    monkeypatch.setenv("HALLUCI_TEST_KEY", "sk-test")
    with chat_server(Answers) as url:
        client = OpenAIChatClient(url, "m", api_key_env="HALLUCI_TEST_KEY", retries=1, backoff_s=0.01)
        detector = LLMPromptDetector("llm-general", client, "general")
        sources = ["one", "two", "both", "junk", "error"]
        d = detector.decide(sources, ["a"] * 5, ["b"] * 5, scenario="translation")
    assert list(d) == ["hyp1", "hyp2", None, None, None]
    assert d.answers[:4] == ["hypothesis1", "The answer is 'hypothesis2'.", "hypothesis1 and hypothesis2",
                             "I cannot say."]
    assert detector.unparsable == 3 and client.failures == {"http_503": 1}
    assert set(Answers.auth) == {"Bearer sk-test"}


def test_local_llm_prompt_detector_answers_every_pair_from_log_probabilities_in_both_orders():
    """A local client scores the allowed answers: no pair is left without an answer, each pair is asked in both
    orders so that swapping hyp1 and hyp2 swaps the scores, and a single hypothesis gets a p(hallucinated)."""
    from tasks.models.local import LocalChatClient

    detector = LLMPromptDetector("llm-meaning", LocalChatClient("smollm2", batch_size=4), "meaning")
    sources = ["The bridge opened in 1932.", "She sold the house to her brother.", "Der Zug fährt um acht Uhr ab."]
    good = ["The bridge opened in 1932.", "She sold the house to her brother.", "The train leaves at eight."]
    bad = ["The bridge opened in 1952 after a long strike.", "She bought the house from her sister.",
           "The train leaves at nine from Paris."]
    d = detector.decide(sources, good, bad, scenario="translation")
    swapped = detector.decide(sources, bad, good, scenario="translation")
    assert detector.can_score and detector.unparsable == 0
    assert set(d) <= {"hyp1", "hyp2"} and len(d) == 3
    assert list(swapped) == [{"hyp1": "hyp2", "hyp2": "hyp1"}[label] for label in d]
    assert d.scores1 == pytest.approx(swapped.scores2, abs=1e-4)
    assert [a + b for a, b in zip(d.scores1, d.scores2)] == pytest.approx([1.0] * 3, abs=1e-5)
    assert d.answers[0].startswith("hypothesis") and "; swapped: hypothesis" in d.answers[0]
    single = detector.scores(sources, bad)
    assert len(single) == 3 and all(0 < p < 1 for p in single) and len(set(single)) == 3
