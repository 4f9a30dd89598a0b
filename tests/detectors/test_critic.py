"""tasks/detectors/critic.py: BEGIN pairs for the critic, split by knowledge passage; the domain pairs of the
DSTC11 turns (gold, another place's knowledge, a planted hallucination) and the place swap."""
from __future__ import annotations

import pytest

from tasks.errors import PipelineError


def test_critic_pairs_split_by_knowledge_passage(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tasks.detectors.critic import begin_pairs, critic_split

    folder = tmp_path / "dialogue/begin/dev"
    folder.mkdir(parents=True)
    rows = [{"id": f"b:{i}", "knowledge": f"passage {i % 5}", "response": f"reply {i}", "faithful": i % 3 != 0}
            for i in range(30)]
    pq.write_table(pa.Table.from_pylist(rows), folder / "h-0.parquet")
    pairs = begin_pairs(tmp_path, "dev", 20, 13)
    assert len(pairs) == 20 and {p["label"] for p in pairs} == {0, 1}
    assert all(p["label"] == int(not r["faithful"]) for p in pairs for r in rows if r["id"] == p["id"])
    train, held = critic_split(pairs, 0.4, 13)
    assert len({p["origin"] for p in held}) == 2 and not {p["origin"] for p in train} & {p["origin"] for p in held}
    with pytest.raises(PipelineError, match="dialogue@begin"):
        begin_pairs(tmp_path, "test", None, 13)


def _turns() -> list[dict]:
    places = ["HOBSONS HOUSE", "ACORN GUEST HOUSE", "THE VARSITY RESTAURANT"]
    replies = ["Yes, Hobsons House has free parking.", "The rooms are not very large, guests say.",
               "It serves breakfast from 7 until 10.", "Guests loved the quiet garden at Acorn Guest House.",
               "The Varsity Restaurant is open late.", "Reviewers say the staff are friendly."]
    return [{"id": f"dstc11:{i}", "dialogue_id": f"d{i // 2}", "knowledge": f"{places[i % 3]} (review): {r}",
             "response": r} for i, r in enumerate(replies)]


def test_a_place_swap_names_another_place_of_the_dataset():
    import random

    from tasks.detectors.critic import swap_place

    places = ["ACORN GUEST HOUSE", "HOBSONS HOUSE"]
    assert swap_place("Yes, hobsons house is cheap.", "HOBSONS HOUSE", places, random.Random(1)) == \
        "Yes, Acorn Guest House is cheap."
    assert swap_place("Yes, it is cheap.", "HOBSONS HOUSE", places, random.Random(1)) is None


def test_domain_pairs_give_each_turn_its_gold_and_one_hallucination():
    from tasks.detectors.critic import PLANTED, domain_pairs, place_of
    from tasks.edits.spacy_model import load_english

    turns = _turns()
    rows = domain_pairs(turns, None, 13, load_english())
    assert rows == domain_pairs(list(reversed(turns)), None, 13, load_english())
    by_turn = {t["id"]: [r for r in rows if r["id"] == t["id"]] for t in turns}
    for t in turns:
        gold, bad = by_turn[t["id"]]
        assert (gold["label"], gold["source"], gold["hypothesis"]) == (0, t["knowledge"], t["response"])
        assert bad["label"] == 1 and bad["origin"] == t["dialogue_id"]
        if bad["kind"] == "mismatch":
            assert bad["hypothesis"] == t["response"] and place_of(bad["source"]) != place_of(t["knowledge"])
        else:
            assert bad["kind"] in PLANTED and bad["source"] == t["knowledge"] and bad["hypothesis"] != t["response"]
    assert [r["kind"] for r in rows if r["label"]][0::2] == ["mismatch"] * 3  # every other turn: the mismatch
    assert [(r["kind"], r["hypothesis"]) for r in rows if r["label"]][1::2] == [
        ("negation", "The rooms are very large, guests say."),  # a removed negation
        ("negation", "Guests did not love the quiet garden at Acorn Guest House."),
        ("negation", "Reviewers do not say the staff are friendly.")]
