"""tasks/charp/judge.py: the judge's prompt and parsing over a real local HTTP server (canned completions,
malformed ones included, retries counted), and a client that scores the answers."""
from __future__ import annotations

import pytest

from tasks.charp.judge import judge, judge_prompt, load_examples, parse_categories
from tasks.errors import InputError
from tasks.models.http import OpenAIChatClient
from tasks.params import ROOT
from tests.charp.helpers import TURN
from tests.chat_server import ChatHandler, chat_server


@pytest.mark.parametrize("answer, cats", [
    ('{"category": [1]}', [1]), ('Sure! {"category": [3, 5]} is my answer', [3, 5]), ('"category": [2]', [2]),
    ('{"category": 4}', [4]), ("[7]", [7]), ('{"category": [9]}', None), ("category one", None), ("", None),
    (None, None),
])
def test_parse_categories(answer, cats):
    assert parse_categories(answer) == cats


def test_judge_prompt_has_two_examples_per_category_and_the_input():
    examples = load_examples(ROOT / "tasks/charp/judge_examples.jsonl")
    prompt = judge_prompt(examples, TURN, "The Alpha hotel is cheap.")
    assert prompt.startswith("Your task is to assess the quality of a machine learning system's response")
    assert all(prompt.count(f'-> {{"category": [{c}]}}') == 2 for c in range(1, 8))
    assert prompt.rstrip().endswith('"prediction": "The Alpha hotel is cheap."}')


def test_bad_judge_example_file_names_the_row(tmp_path):
    bad = tmp_path / "ex.jsonl"
    bad.write_text('{"category": 1, "history": [], "knowledge": "k", "response": "r", "prediction": "p"}\nnot json\n')
    with pytest.raises(InputError, match="row 2"):
        load_examples(bad)


class Judge(ChatHandler):
    """Answers by the prediction: good JSON, prose around JSON, once malformed then fine, always malformed."""

    calls: dict[str, int] = {}
    auth: list[str] = []

    def reply(self, prompt: str):
        prediction = prompt.rsplit('"prediction": "', 1)[1].split('"')[0]
        Judge.calls[prediction] = Judge.calls.get(prediction, 0) + 1
        if prediction == "flaky" and Judge.calls[prediction] == 1:
            return self.completion("I think it is fine.")
        return self.completion({"good": '{"category": [1]}', "prose": 'Answer: {"category": [3, 5]}',
                                "flaky": '{"category": [2]}', "junk": "no idea"}[prediction])


def test_judge_over_http_retries_then_counts_unparsable():
    examples = load_examples(ROOT / "tasks/charp/judge_examples.jsonl")
    with chat_server(Judge) as url:
        client = OpenAIChatClient(url, "judge", api_key_env=None, retries=0)
        result, stats = judge([(TURN, p) for p in ("good", "prose", "flaky", "junk")], examples, client, retries=2)
    assert result == [[1], [3, 5], [2], None]
    assert stats == {"asked": 4, "retried": 3, "unparsable": 1}  # flaky once, junk twice
    assert Judge.calls == {"good": 1, "prose": 1, "flaky": 2, "junk": 3}


class ScoringClient:
    """A client that scores answers: the category whose number equals the prediction's length, mod 7, plus 1."""

    scores_answers = True

    def choose(self, prompts, options, prefix=""):
        assert options == [str(c) for c in range(1, 8)] and prefix == '{"category": ['
        picks = [len(p.rsplit('"prediction": "', 1)[1].split('"')[0]) % 7 for p in prompts]
        return [(k, [0.0 if i == k else -1.0 for i in range(7)]) for k in picks]


def test_judge_reads_a_category_for_every_prediction_from_scored_answers():
    examples = load_examples(ROOT / "tasks/charp/judge_examples.jsonl")
    result, stats = judge([(TURN, p) for p in ("", "ab", "abcdefgh")], examples, ScoringClient(), retries=2)
    assert result == [[1], [3], [2]] and stats == {"asked": 3, "retried": 0, "unparsable": 0}
