"""tasks/charp/generate.py: the few-shot prompt, response parsing and the JSON string a continuation opens or
closes."""
from __future__ import annotations

import pytest

from tasks.charp.generate import fewshot_prompt, parse_response
from tests.charp.helpers import TURN


def test_fewshot_prompt_and_response_parsing():
    prompt = fewshot_prompt([TURN] * 3, TURN)
    assert prompt.startswith("You are given a chitchat conversation between a ``User'' and a ``Bot''.")
    assert prompt.count('Output: {"response": "Yes, the Alpha hotel is cheap."}') == 3 and prompt.endswith("Output:")
    assert parse_response('{"response": "It is cheap."}') == "It is cheap."
    assert parse_response("Sure: {``response'': ``It is cheap.''}") == "It is cheap."
    assert parse_response("It is cheap.") is None and parse_response(None) is None


def test_fewshot_answer_is_the_opened_json_string():
    from tasks.charp.generate import json_string_start

    assert json_string_start('The hotel is quiet."} trailing') == "The hotel is quiet."
    assert json_string_start("First line\nUser: next turn") == "First line"  # the turn boundary
    assert json_string_start('He said \\"hi\\" there"}') == 'He said "hi" there'
    assert json_string_start('"}') is None and json_string_start("  ") is None and json_string_start(None) is None


@pytest.mark.parametrize("continuation,closed", [
    ('It opens at 9."}', True), ("It opens at 9.", False), ('Say \\"hi\\" to', False), ("Sure.\nUser:", True),
    ('Say \\"hi\\"."', True), ("", False)])
def test_closed_json_string(continuation, closed):
    from tasks.charp.generate import closed_json_string

    assert closed_json_string(continuation) is closed
