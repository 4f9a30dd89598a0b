"""The select and gates blocks of a HalluciGen build (see build.py): choosing examples as uniform across types as
the pool allows (``select_balanced``, with ``balance_gender_directions`` before it), the quality gates
(``check_gates``) and the detection view."""
from __future__ import annotations

import hashlib
import math
import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import zip_longest

from tasks.detection_view import ordered_hypotheses
from tasks.edits import lexicons
from tasks.edits.gender_de import determiner_clashes as de_clashes
from tasks.edits.gender_fr import determiner_clashes as fr_clashes
from tasks.edits.library import TYPES
from tasks.edits.pronouns import person
from tasks.errors import PipelineError


@dataclass(frozen=True)
class Candidate:
    key: str  # the source sentence's identity: one example per source
    type: str
    row: dict  # a HALLUCIGEN_GENERATION row without id and split


def select_balanced(candidates: dict[str, list[Candidate]], sizes: dict[str, int], rng: random.Random,
                    max_share: float | None = None, side: Callable[[Candidate], object] | None = None,
                    max_same_edit: int | None = None) -> tuple[dict[str, list[Candidate]], set[str]]:
    """Fill each split (in the order of ``sizes``) round-robin over the types in a seeded order, never
    using a source twice nor a hyp- twice ('you saw her' and 'you saw him' both gave 'you saw me'); with
    ``max_share``, no type takes more than that multiple of an even share (size / types), so a split whose
    other types ran out stays smaller rather than filled by one type. Each type's candidates queue in a seeded
    hash order of their own texts, so a filter that drops a candidate changes only the picks that candidate took
    part in, never the whole build. With ``side``, a type's queue alternates between the sides of its candidates
    (a gender edit towards women, one towards men; a pronoun edit into the third person, one out of it), so
    every split, not just the pool, has as many of each while both last. With ``max_same_edit``, no content
    or pronoun edit, nor a tense edit named by its verb (its detail, in any case: 'insert:interim', 'två->tre',
    'me->him', 'är->var') comes more often than that in one split; a recurring one is a giveaway. A filled split
    is then evened out by ``_rebalance``.
    Returns the splits and the types whose candidates ran out (in a split, for ``max_same_edit``)."""
    salt = rng.getrandbits(64)
    ranked = {t: sorted(c, key=lambda cand: _rank(salt, cand)) for t, c in sorted(candidates.items()) if c}
    queues = {t: _alternate(c, side) for t, c in ranked.items()}
    order = sorted(queues)
    rng.shuffle(order)
    used, made, exhausted, capped, chosen = set(), set(), set(), set(), {}
    for split, size in sizes.items():
        cap = math.ceil(max_share * size / len(order)) if max_share and order else size
        picked: list[Candidate] = []
        counts: Counter = Counter()
        same: Counter = Counter()
        spent: set[str] = set()  # candidates left, none whose edit may come again in this split
        while len(picked) < size and any(t not in exhausted | spent and counts[t] < cap for t in order):
            for t in order:
                if len(picked) >= size:
                    break
                if counts[t] >= cap:
                    continue
                queue = queues[t]
                while queue and queue[0].key in used:
                    queue.pop(0)
                cand = next((c for c in queue if c.key not in used and c.row.get("hyp_bad") not in made
                             and _fresh(c, same, max_same_edit)), None)
                if cand is None:
                    (spent if queue else exhausted).add(t)
                    continue
                queue.remove(cand)
                used.add(cand.key)
                made.add(cand.row.get("hyp_bad") or object())
                same[_detail(cand)] += 1
                picked.append(cand)
                counts[t] += 1
        _rebalance(picked, ranked, made, same, max_same_edit, side)
        chosen[split] = picked
        capped |= spent
    return chosen, exhausted | capped | {t for t in TYPES if t not in queues}


def _rebalance(picked: list[Candidate], ranked: dict[str, list[Candidate]], made: set, same: Counter,
               max_same_edit: int | None, side: Callable[[Candidate], object] | None) -> None:
    """Even out a filled split in place without changing its sources. The round-robin is greedy: an abundant type
    can take the sources a scarce type's edits need (tense may hold a source whose gender edit is the only one
    gender has left). While one exists, take the shortest path that gives a source of a type at least two short of
    the largest another edit of its own: scarce type a takes source s1 from type b, b takes s2 from c, ..., until a
    type of the largest count gives one up. Each move keeps a hyp- unique, ``max_same_edit``, and a type's sides (women
    and men, into and out of the third person) no further apart than one or than they were."""
    side = side or (lambda cand: None)
    while True:
        counts = Counter(c.type for c in picked)
        top = max(counts.values(), default=0)
        holder = {c.key: c for c in picked}
        start = sorted((t for t in ranked if counts[t] <= top - 2), key=lambda t: (counts[t], t))
        prev: dict[str, tuple[Candidate, Candidate] | None] = dict.fromkeys(start)
        queue, end = deque(start), None
        while queue and end is None:
            t = queue.popleft()
            path = _path(prev, t)
            for cand in ranked[t]:
                old = holder.get(cand.key)
                if (old is None or old.type == t or old.type in prev or cand.row.get("hyp_bad") in made
                        or not _fresh(cand, same + Counter(_detail(x) for x, _ in path), max_same_edit)
                        or not _sides_kept(picked, ranked[t], side, cand, prev[t] and prev[t][1])):
                    continue
                if counts[old.type] == top:
                    if _sides_kept(picked, ranked[old.type], side, None, old):
                        prev[old.type], end = (cand, old), old.type
                        break
                    continue
                prev[old.type] = (cand, old)
                queue.append(old.type)
        if end is None:
            return
        for cand, old in _path(prev, end):
            picked[picked.index(old)] = cand
            made.discard(old.row.get("hyp_bad"))
            made.add(cand.row.get("hyp_bad") or object())
            same[_detail(old)] -= 1
            same[_detail(cand)] += 1


def _path(prev: dict[str, tuple[Candidate, Candidate] | None], t: str) -> list[tuple[Candidate, Candidate]]:
    """The moves (new candidate, the one it replaces) that lead from a scarce type to type ``t``."""
    moves = []
    while prev[t] is not None:
        moves.append(prev[t])
        t = prev[t][0].type
    return moves


def _sides_kept(picked: list[Candidate], pool: list[Candidate], side: Callable[[Candidate], object],
                gained: Candidate | None, lost: Candidate | None) -> bool:
    """Whether a type's sides stay within one of each other (or as close as they were) when it gains ``gained``
    and loses ``lost``."""
    kind = (gained or lost).type
    before = dict.fromkeys({side(c) for c in pool}, 0)
    for c in picked:
        if c.type == kind:
            before[side(c)] += 1
    after = dict(before)
    if gained:
        after[side(gained)] += 1
    if lost:
        after[side(lost)] -= 1
    spread = max(before.values()) - min(before.values())
    return max(after.values()) - min(after.values()) <= max(1, spread)


def _detail(cand: Candidate) -> str:
    return str(cand.row.get("edit_detail") or "").lower()


# Types whose details name a class ('present->past', 'insert:not', 'she->he'), not a word. A pronoun pair
# ('me->him') is a word, and so is a Swedish tense edit's verb ('är->var'): one that recurs in a split is a
# giveaway a hypothesis-only model learns.
GRAMMATICAL_TYPES = {"tense", "negation", "gender", "natural"}
TENSE_CLASSES = {"past", "present", "future"}


def _fresh(cand: Candidate, same: Counter, max_same_edit: int | None) -> bool:
    """Whether ``cand``'s edit has come fewer than ``max_same_edit`` times in the split (always, without one, and
    for a grammatical type whose details name a class, so recur by nature: 'present->past', 'insert:not')."""
    return max_same_edit is None or _names_a_class(cand) or same[_detail(cand)] < max_same_edit


def _names_a_class(cand: Candidate) -> bool:
    return cand.type in GRAMMATICAL_TYPES and (cand.type != "tense" or set(_detail(cand).split("->")) <= TENSE_CLASSES)


def _rank(salt: int, cand: Candidate) -> str:
    """A candidate's seeded place in its type's queue: a hash of its source and its edited hypothesis."""
    text = f"{salt}\x1f{cand.type}\x1f{cand.key}\x1f{cand.row.get('hyp_bad', '')}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _alternate(queue: list[Candidate], side: Callable[[Candidate], object] | None) -> list[Candidate]:
    """``queue`` taking its sides in turn, each side in its own order (unchanged without ``side``)."""
    if side is None:
        return queue
    by_side: dict[object, list[Candidate]] = {}
    for cand in queue:
        by_side.setdefault(side(cand), []).append(cand)
    return [c for turn in zip_longest(*by_side.values()) for c in turn if c is not None]


def towards_women(lang: str) -> Callable[[Candidate], object]:
    """The side of a candidate: for a gender edit, whether it goes towards the female form; else None."""
    female = {b.lower() for _, b in lexicons.rows("gender", lang)}
    return lambda cand: (cand.type == "gender"
                         and cand.row["edit_detail"].split(",")[0].split("->")[-1].lower() in female)


def edit_side(lang: str) -> Callable[[Candidate], object]:
    """The side a type's queue alternates over: for a gender edit, whether it goes towards the female form; for a
    pronoun edit, whether it goes into the third person (a hypothesis-only language model calls the rarer word
    hallucinated: 'me -> him' more often than 'him -> me'); else None."""
    female = towards_women(lang)

    def side(cand: Candidate) -> object:
        if cand.type == "gender":
            return female(cand)
        if cand.type == "pronoun":
            return person(cand.row["edit_detail"].split(",")[0].split("->")[-1], lang) == 3
        return None

    return side


def balance_gender_directions(candidates: dict[str, list[Candidate]], lang: str, rng: random.Random) -> int:
    """Keep as many gender edits towards the female side as towards the male side (the larger side sampled
    down, in place): most sources are about men, and a hypothesis-only detector that calls every 'she'
    hallucinated would otherwise score well. Returns how many candidates were dropped."""
    female = towards_women(lang)
    sides: dict[bool, list[Candidate]] = {True: [], False: []}
    for cand in candidates.get("gender", []):
        sides[female(cand)].append(cand)
    n = min(len(sides[True]), len(sides[False]))
    kept = {id(c) for side in (True, False) for c in rng.sample(sides[side], n)}
    before = len(candidates.get("gender", []))
    if before:
        candidates["gender"] = [c for c in candidates["gender"] if id(c) in kept]
    return before - len(candidates.get("gender", []))


def detection_row(row: dict, seed: int) -> dict:
    """The HALLUCIGEN_DETECTION row of a generation row."""
    return {"id": row["id"], "scenario": row["scenario"], "langpair": row["langpair"], "split": row["split"],
            "source": row["source"], **ordered_hypotheses(row, seed), "type": row["type"]}


def target_lang(langpair: str) -> str:
    """The language of the hypotheses: the target of a translation direction, or the paraphrase language."""
    return langpair.split("-")[-1]


def gender_clashes(rows: list[dict]) -> list[str]:
    """'id: determiner noun' for every determiner-noun gender clash in a French or German gender hyp-."""
    check = {"fr": fr_clashes, "de": de_clashes}
    return [f"{r['id']}: {c}" for r in rows if r["type"] == "gender" and target_lang(r["langpair"]) in check
            for c in check[target_lang(r["langpair"])](r["hyp_bad"])]


def check_gates(rows: list[dict], group: str, tolerance: int, exhausted: set[str]) -> None:
    """Fail with a clear message on: duplicate ids; hyp+ == hyp-; a type outside the eleven; a source in
    both trial and test; a determiner-noun gender clash in a French or German gender edit; per split,
    type counts further apart than ``tolerance`` (types whose pool ran out excepted)."""
    where = f"HalluciGen {group}"
    dupes = [i for i, n in Counter(r["id"] for r in rows).items() if n > 1]
    if dupes:
        raise PipelineError(f"{where}: duplicate ids {dupes[:5]}")
    same = [r["id"] for r in rows if r["hyp_good"] == r["hyp_bad"]]
    if same:
        raise PipelineError(f"{where}: hyp+ equals hyp- in {same[:5]}")
    unknown = sorted({r["type"] for r in rows} - set(TYPES))
    if unknown:
        raise PipelineError(f"{where}: types outside the eleven: {unknown}")
    clashes = gender_clashes(rows)
    if clashes:
        raise PipelineError(f"{where}: {len(clashes)} determiner-noun gender clashes in gender edits, "
                            f"e.g. {clashes[:3]}")
    by_split: dict[str, set] = {}
    for r in rows:
        by_split.setdefault(r["split"], set()).add(r["source"])
    both = by_split.get("trial", set()) & by_split.get("test", set())
    if both:
        raise PipelineError(f"{where}: {len(both)} sources in both trial and test, e.g. {sorted(both)[0]!r}")
    for split in by_split:
        counts = Counter(r["type"] for r in rows if r["split"] == split and r["type"] not in exhausted)
        if counts and max(counts.values()) - min(counts.values()) > tolerance:
            raise PipelineError(f"{where}, {split}: type counts {dict(sorted(counts.items()))} differ by more than "
                                f"the tolerance {tolerance}")
