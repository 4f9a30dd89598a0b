"""tasks/dialogue/charp_offline.py on the real DSTC11 mirror: both forms of a kept example share history,
knowledge and response and differ in the last turn; each filter's reason on a line made to fail it; the review
sheet removes what it judged invalid; the committed examples load with every line accounted for, each written
example judged, and exactly the judged-valid ones kept."""
from __future__ import annotations

import csv
import json
from collections import Counter

import pytest

from tasks.dialogue.charp_offline import load_charp_offline, place_names
from tasks.errors import InputError
from tasks.params import ROOT, load_params
from tests.dialogue.helpers import _accounted

GOOD = {"source_id": "dstc11:59", "reasoning": "coreference",
        "history": ["User: I need a place to stay in the north in the moderate price range if you could help me.",
                    "Bot: Acorn Guesthouse offers moderate pricing in the North. Would you like me to book this?"],
        "hcharp_last_turn": "Does that place have nice views?",
        "echarp_last_turn": "Does the Acorn Guest House have nice views?",
        "knowledge": "Guests at the Acorn Guest House loved its great view. At the Bridge Guest House, the view from "
                     "the room was disappointing.",
        "response": "Yes, guests loved the great view at the Acorn Guest House."}


def _load(tmp_path, mirror, lines, verdicts=None):
    (tmp_path / "examples.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    review = None
    if verdicts is not None:
        review = "sheet.csv"
        (tmp_path / review).write_text("source_id,verdict,problem\n" + "".join(f"{s},{v},\n" for s, v in verdicts),
                                       encoding="utf-8")
    return load_charp_offline(mirror, tmp_path, {"examples": "examples.jsonl", "review": review,
                                                 "max_knowledge_words": 30}, 13)


def test_both_forms_share_all_but_the_last_turn(tmp_path, mirror):
    result = _load(tmp_path, mirror, [json.dumps(GOOD)])
    (e,), (h,) = result.splits["echarp"], result.splits["hcharp"]
    assert (e["id"], h["id"]) == ("echarp:dstc11:59", "hcharp:dstc11:59") and e["dialogue_id"] == h["dialogue_id"]
    assert e["history"][:-1] == h["history"][:-1] and len(h["history"]) == 3
    assert h["history"][-1] == {"speaker": "seeker", "text": "Does that place have nice views?"}
    assert (e["knowledge"], e["response"]) == (h["knowledge"], h["response"]) == (GOOD["knowledge"], GOOD["response"])
    assert result.tallies["examples.jsonl"].as_dict()["kept"] == 1


@pytest.mark.parametrize("change,reason", [
    ({"skip": "no single answer"}, "skipped_by_annotator"),
    ({"response": " "}, "missing_field"),
    ({"history": ["Someone: hello"]}, "missing_field"),
    ({"reasoning": "coreference: 'that place' is the Acorn"}, "unknown_reasoning"),
    ({"source_id": "dstc11:0"}, "unknown_source_turn"),  # not knowledge-grounded: the dstc11 loader rejects it
    ({"knowledge": " ".join(["word"] * 31)}, "knowledge_over_max_words"),
    ({"hcharp_last_turn": "Does Acorn Guest House have nice views?"}, "hcharp_names_place"),
    ({"hcharp_last_turn": "does the ACORN guest house have nice views"}, "hcharp_names_place"),
    ({"echarp_last_turn": "does that place have nice views"}, "same_last_turn"),
])
def test_each_filter_gives_its_reason(tmp_path, mirror, change, reason):
    result = _load(tmp_path, mirror, [json.dumps({**GOOD, **change}), "not json"])
    assert [r["reason"] for r in result.rejects] == [reason, "malformed_line"] and not result.splits
    _accounted(result)


def test_the_review_removes_what_it_judged_invalid_and_a_bad_verdict_names_its_row(tmp_path, mirror):
    other = {**GOOD, "source_id": "dstc11:1", "hcharp_last_turn": "Are their bathrooms clean?",
             "echarp_last_turn": "Are the bathrooms at Hobsons House clean?"}
    result = _load(tmp_path, mirror, [json.dumps(GOOD), json.dumps(other), json.dumps(GOOD)],
                   [("dstc11:1", "invalid"), ("dstc11:59", "valid")])
    assert [r["id"] for r in result.splits["hcharp"]] == ["hcharp:dstc11:59"]
    assert [r["reason"] for r in result.rejects] == ["judged_invalid", "duplicate_source_id"]
    with pytest.raises(InputError, match=r"sheet.csv: row 3: verdict must be"):
        _load(tmp_path, mirror, [json.dumps(GOOD)], [("dstc11:1", "valid"), ("dstc11:59", "maybe")])


def test_place_names_of_a_knowledge_text():
    assert place_names("THE CAMBRIDGE BELFRY (review): Cheap.\nTHE CAMBRIDGE BELFRY (faq): Q.") == {"cambridge belfry"}


def test_the_committed_examples_load_with_every_line_accounted(mirror):
    options = load_params("dialogue")["charp_offline"]
    result = load_charp_offline(mirror, ROOT, options, 13)
    _accounted(result)
    lines = (ROOT / options["examples"]).read_text(encoding="utf-8").splitlines()
    ids = {split: [r["id"].split(":", 1)[1] for r in rows] for split, rows in result.splits.items()}
    assert ids["echarp"] == ids["hcharp"] and len(ids["hcharp"]) + len(result.rejects) == len(lines)
    items = [json.loads(line) for line in lines]
    verdicts = {r["source_id"]: r["verdict"] for r in csv.DictReader(open(ROOT / options["review"], encoding="utf-8"))}
    written = [i["source_id"] for i in items if "skip" not in i]
    assert set(written) <= set(verdicts)  # the second annotator judged every written example
    expected = Counter({"skipped_by_annotator": len(items) - len(written),
                        "judged_invalid": sum(verdicts[s] == "invalid" for s in written)})
    assert Counter(r["reason"] for r in result.rejects) == expected  # no line breaks a rule
    assert sorted(ids["hcharp"]) == sorted(s for s in written if verdicts[s] == "valid")
