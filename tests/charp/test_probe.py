"""tasks/charp/probe.py: the two forms of an example pair by id, unpaired turns are counted, the hard - easy
effects are paired differences; and on the committed offline analogue (real DSTC11 mirror, real spaCy and MiniLM),
a system that ignores the history scores worse on the hard form under the rubric judge, one that reads it does not."""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pytest

from tasks.charp.cells import Cell
from tasks.charp.history_effect import judge_correct, paired_rows
from tasks.charp.probe import form_effects, pair_key, probe_forms
from tasks.charp.rubric_judge import RubricJudge, Thresholds
from tasks.dialogue.charp_offline import load_charp_offline
from tasks.io import write_parquet
from tasks.params import ROOT, load_params
from tasks.schemas import DIALOGUE_TURN
from tests.charp.conftest import _turn

PROBE = {"dataset": "charp_offline", "easy": "echarp", "hard": "hcharp", "size": None}


def _write_forms(data, forms: dict[str, list[dict]]) -> None:
    for split, turns in forms.items():
        write_parquet(turns, DIALOGUE_TURN, data / f"dialogue/charp_offline/{split}/h-full.parquet")


def _form_turn(split: str, k: int) -> dict:
    return {**_turn(k, "full"), "id": f"{split}:dstc11:{k}", "split": split}


def test_pair_key_drops_the_split_prefix_only():
    assert pair_key("hcharp:dstc11:7", "hcharp") == "dstc11:7"
    assert pair_key("echarp:3", "echarp") == "3"
    assert pair_key("other:3", "hcharp") == "other:3"


def test_forms_pair_by_example_in_one_order_and_count_what_has_one_form(tmp_path):
    _write_forms(tmp_path, {"echarp": [_form_turn("echarp", k) for k in (3, 1, 2, 9)],
                            "hcharp": [_form_turn("hcharp", k) for k in (2, 1, 3, 5, 6)]})
    forms, counts = probe_forms(tmp_path, {"probe": PROBE, "seed": 13})
    assert [t["id"] for t in forms["echarp"]] == ["echarp:dstc11:1", "echarp:dstc11:2", "echarp:dstc11:3"]
    assert [t["id"] for t in forms["hcharp"]] == ["hcharp:dstc11:1", "hcharp:dstc11:2", "hcharp:dstc11:3"]
    assert counts == {"examples": 3, "unpaired_echarp": 1, "unpaired_hcharp": 2}
    small, counts = probe_forms(tmp_path, {"probe": {**PROBE, "size": 2}, "seed": 13})
    assert counts["examples"] == 2
    assert [pair_key(t["id"], "echarp") for t in small["echarp"]] == [pair_key(t["id"], "hcharp")
                                                                      for t in small["hcharp"]]


def test_forms_without_a_common_example_fail_in_one_line(tmp_path):
    _write_forms(tmp_path, {"echarp": [_form_turn("echarp", 1)], "hcharp": [_form_turn("hcharp", 2)]})
    with pytest.raises(Exception, match=r"data/dialogue/charp_offline: no example has both a echarp and a hcharp"):
        probe_forms(tmp_path, {"probe": PROBE, "seed": 13})


def test_effects_are_paired_hard_minus_easy_over_common_examples():
    cell = Cell("sys", "full", "full")
    easy = {cell: {"ids": ["a", "b", "c", "d"], "critic": [0, 0, 1, 0], "judge_correct": [1, 1, 1, np.nan]}}
    hard = {cell: {"ids": ["d", "c", "b", "a", "z"], "critic": [1, 1, 0, 0, 1], "judge_correct": [0, 0, 1, 0, 1]}}
    rows = {r["metric"]: r for r in form_effects(easy, hard, 13)}
    # critic over a, b, c, d: easy 0, 0, 1, 0; hard 0, 0, 1, 1
    assert (rows["critic"]["easy"], rows["critic"]["hard"], rows["critic"]["diff"]) == (0.25, 0.5, 0.25)
    assert rows["critic"]["turns"] == 4
    # the judge only where it judged both forms: a, b, c (easy 1, 1, 1; hard 0, 1, 0)
    assert rows["judge_correct"]["turns"] == 3 and rows["judge_correct"]["diff"] == pytest.approx(-2 / 3, abs=1e-4)


WORD = re.compile(r"[a-z]+")
STOP = frozenset("the and that this with does have there what which their they them about from place".split())


def _words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if len(w) > 3 and w not in STOP}


def _pick(turn: dict, read_history: bool) -> str:
    """The knowledge sentence sharing most words with the last user turn (read_history: with the whole
    conversation); when no sentence wins, the whole knowledge: a system that cannot tell which fact is asked for."""
    asked = _words(" ".join(t["text"] for t in (turn["history"] if read_history else turn["history"][-1:])))
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", turn["knowledge"]) if s.strip()]
    scores = [len(_words(s) & asked) for s in sentences]
    best = [s for s, n in zip(sentences, scores) if n == max(scores)]
    return best[0] if len(best) == 1 else turn["knowledge"]


@lru_cache(maxsize=1)
def _analogue(mirror) -> dict[str, list[dict]]:
    options = load_params()["dialogue"]["charp_offline"]
    return load_charp_offline(mirror, ROOT, options, 13).splits


@lru_cache(maxsize=1)
def _judge() -> RubricJudge:
    rubric = load_params()["charp"]["judge"]["rubric"]
    return RubricJudge(rubric["encoder"], Thresholds(**{k: v for k, v in rubric.items() if k != "encoder"}))


def _judged(turns: list[dict], read_history: bool) -> dict:
    items = [(t, _pick(t, read_history)) for t in turns]
    categories, _ = _judge().decide(items)
    return {"ids": [pair_key(t["id"], t["split"]) for t in turns],
            "judge_correct": judge_correct(categories, len(turns))}


def test_a_system_that_ignores_the_history_scores_worse_on_the_hard_form_under_the_judge(mirror):
    forms = _analogue(mirror)
    assert len(forms["echarp"]) == len(forms["hcharp"]) >= 120
    effects = {}
    for read_history in (False, True):
        (row,) = paired_rows(_judged(forms["echarp"], read_history), _judged(forms["hcharp"], read_history), 13)
        effects[read_history] = row
    ignoring, reading = effects[False], effects[True]
    assert ignoring["ci"][1] < 0, ignoring  # the judge finds its history failures: correct share lower on hCHARP
    assert abs(reading["diff"]) < abs(ignoring["diff"]) / 5, reading  # ... and hardly any for one that reads it
    assert reading["second"] - ignoring["second"] > 0.2, (reading, ignoring)
