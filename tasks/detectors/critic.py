"""The dialogue critic: the learned detector's head (tasks/detectors/learned.py) on (knowledge, response) pairs,
1 = not faithful. Offline it trains on the domain it scores (``domain_pairs``: the DSTC11 training turns, split
by dialogue), with BEGIN dev as a held-out figure; or on BEGIN dev pairs split by knowledge passage. BEGIN test
is never read. The CHARP stages score predictions with it in place of the FaithDial critic, which needs the
Hub."""
from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from tasks.detectors.learned import pair_features, predict
from tasks.detectors.splits import split_by_item
from tasks.dialogue.truncate import variant_file
from tasks.edits import modifiers as modifier_tables
from tasks.edits.context import Context
from tasks.edits.library import perturb
from tasks.edits.result import Edit
from tasks.edits.spacy_model import load_english, tagger_of
from tasks.errors import InputError


def begin_pairs(data: Path, split: str, max_turns: int | None, seed: int) -> list[dict]:
    """(knowledge, response, label) rows of a BEGIN split, at most ``max_turns`` of them (seeded)."""
    path = variant_file(data, "begin", split, 0)
    if not path.is_file():
        raise InputError(f"{path}: not found (run dvc repro dialogue@begin)")
    rows = [{"origin": r["knowledge"], "source": r["knowledge"], "hypothesis": r["response"],
             "label": int(not r["faithful"]), "id": r["id"]} for r in pq.read_table(path).to_pylist()]
    if max_turns is not None and max_turns < len(rows):
        keep = set(random.Random(f"{seed}:begin:{split}").sample(sorted(r["id"] for r in rows), max_turns))
        rows = [r for r in rows if r["id"] in keep]
    return sorted(rows, key=lambda r: r["id"])


def critic_split(rows: list[dict], valid_fraction: float, seed: int) -> tuple[list[dict], list[dict]]:
    """(train, held out): whole groups held out (``origin``: a BEGIN passage, a DSTC11 dialogue)."""
    return split_by_item(rows, valid_fraction, seed, key="origin")


PLANTED = ("number", "negation", "addition", "place")  # the planted hallucinations of ``domain_pairs``


def place_of(knowledge: str) -> str:
    """The place a DSTC11 knowledge text is about, from its first line: 'HOBSONS HOUSE (review): ...' ->
    'HOBSONS HOUSE'."""
    return knowledge.split(" (", 1)[0].strip()


def swap_place(response: str, own: str, places: list[str], rng: random.Random) -> str | None:
    """The response with its place's name ('Hobsons House', any case) made another place's, in title case; None
    when the response does not name its place."""
    found = re.search(re.escape(own), response, flags=re.IGNORECASE)
    others = [p for p in places if p.lower() != own.lower()]
    if not found or not others:
        return None
    new = rng.choice(others).title()
    return response[:found.start()] + new + response[found.end():]


def planted(kind: str, turn: dict, places: list[str], nlp, modifiers: dict, rng: random.Random) -> str | None:
    """The gold response with one hallucination of ``kind`` planted, or None where it does not apply: the
    perturbation library's number, negation and addition edits (an addition never inserts a word of the
    knowledge), or the place named swapped for another place of the dataset (``swap_place``)."""
    response = turn["response"]
    if kind == "place":
        return swap_place(response, place_of(turn["knowledge"]), places, rng)
    ctx = Context("en", rng, doc=nlp(response), modifiers=modifiers, tag=tagger_of(nlp), source=turn["knowledge"])
    edit = perturb(kind, response, ctx)
    return edit.bad if isinstance(edit, Edit) else None


def domain_pairs(turns: list[dict], max_turns: int | None, seed: int, nlp) -> list[dict]:
    """(knowledge, response, label) rows of the dialogue data the critic will score: each turn's gold response
    with its own knowledge (0), and once more as a hallucination (1): half of the turns with another place's
    knowledge (the mismatch the CHARP control plants), half with a planted hallucination (the first of
    ``PLANTED``, in an order drawn per turn, that applies; where none does, the mismatch). Rows are grouped by
    dialogue (``origin``)."""
    rng = random.Random(f"{seed}:critic:domain")
    turns = sorted(turns, key=lambda t: t["id"])
    if max_turns is not None and max_turns < len(turns):
        turns = sorted(rng.sample(turns, max_turns), key=lambda t: t["id"])
    places = sorted({place_of(t["knowledge"]) for t in turns})
    table = modifier_tables.attested([t["response"] for t in turns], "en")
    rows = []
    for k, turn in enumerate(turns):
        common = {"origin": turn["dialogue_id"], "id": turn["id"]}
        rows.append({**common, "source": turn["knowledge"], "hypothesis": turn["response"], "label": 0,
                     "kind": "gold"})
        kind, bad = "mismatch", None
        if k % 2:
            kind, bad = next(((kind, bad) for kind in rng.sample(PLANTED, len(PLANTED))
                              if (bad := planted(kind, turn, places, nlp, table, rng)) is not None), ("mismatch", None))
        if bad is None:
            others = [t for t in turns if place_of(t["knowledge"]) != place_of(turn["knowledge"])]
            other = others[rng.randrange(len(others))] if others else turn
            rows.append({**common, "source": other["knowledge"], "hypothesis": turn["response"], "label": 1,
                         "kind": "mismatch"})
        else:
            rows.append({**common, "source": turn["knowledge"], "hypothesis": bad, "label": 1, "kind": kind})
    return rows


def dialogue_turns(data: Path, dataset: str, split: str) -> list[dict]:
    """The turns of a built dialogue dataset's split with no history (knowledge and response are all a critic
    reads)."""
    path = variant_file(data, dataset, split, 0)
    if not path.is_file():
        raise InputError(f"{path}: not found (run dvc repro dialogue@{dataset})")
    return pq.read_table(path).to_pylist()


def critic_pairs(data: Path, spec: dict, seed: int) -> tuple[list[dict], dict]:
    """The critic's rows by ``spec['data']`` (dstc11: ``domain_pairs`` of the train turns; begin: BEGIN dev) and
    their figures: turns, groups and rows per kind."""
    if spec["data"] == "dstc11":
        rows = domain_pairs(dialogue_turns(data, "dstc11", spec["split"]), spec["max_turns"], seed, load_english())
    else:
        rows = [{**r, "kind": "gold" if r["label"] == 0 else "begin_unfaithful"}
                for r in begin_pairs(data, spec["split"], spec["max_turns"], seed)]
    kinds = dict(sorted(Counter(r["kind"] for r in rows).items()))
    return rows, {"data": f"{spec['data']} {spec['split']}", "groups": len({r["origin"] for r in rows}),
                  "pairs_by_kind": kinds}


def begin_figure(head: dict, data: Path, spec: dict, seed: int) -> dict:
    """The AUROC of a domain-trained critic on ``held_out_begin_turns`` BEGIN dev turns, which it never saw ({}
    for a BEGIN-trained one or with null)."""
    from sklearn.metrics import roc_auc_score

    if spec["data"] == "begin" or not spec.get("held_out_begin_turns"):
        return {}
    rows = begin_pairs(data, "dev", spec["held_out_begin_turns"], seed)
    scores = predict(head, pair_features(head["encoder"], [r["source"] for r in rows],
                                         [r["hypothesis"] for r in rows], int8=head.get("int8", False)))
    return {"begin_dev_turns": len(rows), "begin_dev_auroc": round(float(roc_auc_score(
        [r["label"] for r in rows], scores)), 4)}
