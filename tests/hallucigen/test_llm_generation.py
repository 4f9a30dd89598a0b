"""tasks/hallucigen/llm_generation.py: generation over a real local HTTP server keeps the API key out of the
artifacts; the completion parsers."""
from __future__ import annotations

import json

import pytest

from tasks.hallucigen.llm_generation import (
    generate,
    parse_paraphrase,
    parse_translation,
)
from tasks.models.http import OpenAIChatClient
from tests.models.helpers import CANARY, Handler


def test_generation_over_http_keeps_the_key_out_of_artifacts(server, monkeypatch):
    monkeypatch.setenv("HALLUCI_TEST_KEY", CANARY)
    client = OpenAIChatClient(server, "any", api_key_env="HALLUCI_TEST_KEY", timeout_s=2, retries=0)
    rows = [{"id": "en:test:0", "scenario": "paraphrase", "langpair": "en", "split": "test", "source": "A cat sat.",
             "origin": "o"},
            {"id": "fr-en:test:0", "scenario": "translation", "langpair": "fr-en", "split": "test",
             "source": "Un chat.", "origin": "o"}]
    Handler.bodies.clear()
    examples, tally = generate(rows, client, ["general", "mentions"], "gen")
    # the server echoes the paraphrase prompt, which names hyp+ and hyp- but gives neither: rejected
    assert tally.as_dict()["kept"] == 2 and tally.as_dict()["rejected_by_reason"] == {"unparsable_completion": 1}
    assert [(e["id"], e["edit_detail"]) for e in examples] == [("llm:gen:general:fr-en:test:0", "llm:gen:general"),
                                                               ("llm:gen:mentions:fr-en:test:0", "llm:gen:mentions")]
    assert {e["hyp_good_origin"] for e in examples} == {"llm:gen"}
    assert {e["langpair"] for e in examples} == {"fr-en"} and {e["type"] for e in examples} == {"natural"}
    assert {e["hyp_good"] for e in examples} == {"answer to Translate the following text into English"}
    assert examples[0]["hyp_bad"] == "answer to Translate the following text incorrectly into English"
    assert examples[1]["hyp_bad"].startswith("answer to Translate the following text incorrectly into English and "
                                             "change its meaning")
    assert len(Handler.bodies) == 4  # the good translation is asked for once, beside both incorrect ones
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
