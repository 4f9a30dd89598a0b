"""The select and gates blocks of a HalluciGen build (see build.py): choosing examples as uniform across types as
the pool allows (``select_balanced``, with the ``balance_*`` samplers before it), the quality gates
(``check_gates``) and the detection view."""
from __future__ import annotations

import hashlib
import math
import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import zip_longest

from tasks.detection_view import ordered_hypotheses
from tasks.edits import lexicons
from tasks.edits.gender_de import determiner_clashes as de_clashes
from tasks.edits.gender_fr import determiner_clashes as fr_clashes
from tasks.edits.library import TYPES
from tasks.edits.negation import removes_negation
from tasks.edits.pronouns import person
from tasks.edits.tense import tense_direction
from tasks.errors import PipelineError
from tasks.hallucigen.artifact_probe import less_shared
from tasks.text import near_copy, words


@dataclass(frozen=True)
class Candidate:
    key: str  # the source sentence's identity: one example per source
    type: str
    row: dict  # a HALLUCIGEN_GENERATION row without id and split


def select_balanced(candidates: dict[str, list[Candidate]], sizes: dict[str, int], rng: random.Random,
                    max_share: float | None = None, side: Callable[[Candidate], object] | None = None,
                    max_same_edit: int | None = None, max_near_copy_share: float | None = None,
                    quotas: dict[str, dict[str, int]] | None = None,
                    max_side_lead: int | None = None) -> tuple[dict[str, list[Candidate]], set[str]]:
    """Fill each split (in the order of ``sizes``) round-robin over the types in a seeded order, never
    using a source twice nor a hyp- twice ('you saw her' and 'you saw him' both gave 'you saw me'); with
    ``max_share``, no type takes more than that multiple of an even share (size / types), so a split whose
    other types ran out stays smaller rather than filled by one type. Each type's candidates queue in a seeded
    hash order of their own texts, so a filter that drops a candidate changes only the picks that candidate took
    part in, never the whole build. With ``side``, a type's queue alternates between the sides of its candidates
    (a gender edit towards women, one towards men; a pronoun edit into the third person, one out of it), so
    every split, not just the pool, has as many of each while both last. With ``max_same_edit``, no content
    or pronoun edit, nor a tense edit named by its verb (its detail, in any case: 'insert:interim', 'två->tre',
    'me->him', 'är->var') comes more often than that in one split; a recurring one is a giveaway. With
    ``max_near_copy_share``, at most that share of a split's hyp+ are near-copies of their source (``near_copy``:
    one word changed at most), of the split as filled (``within_near_copy_share``). With ``max_side_lead``, an edit
    that goes one of two ways (``side_way``: towards women, into the third person, into the past, removing a
    negation) leads the other way in a split by at most that many: once the other way runs out, the type stops
    there rather than fill the split one way (tense edits all into the past give 'var' away). No hyp+ nearly repeats one
    already picked, in any split (``near_duplicate``: PAWS-X holds the same sentence in several pairs, reworded or
    reordered). A filled split is then evened out by ``_rebalance``. With ``quotas`` (per split, examples per type:
    table1.paper_quotas), each type takes at most its quota instead of an even share and a split is not evened
    out.
    Returns the splits and the types whose candidates ran out (in a split, for ``max_same_edit``); with ``quotas``,
    only those of a type some split has a quota for (a type Table 1 leaves out has not run out)."""
    salt = rng.getrandbits(64)
    ranked = {t: sorted(c, key=lambda cand: _rank(salt, cand)) for t, c in sorted(candidates.items()) if c}
    queues = {t: _alternate(c, side) for t, c in ranked.items()}
    order = sorted(queues)
    rng.shuffle(order)
    used, made, exhausted, capped, chosen = set(), set(), set(), set(), {}
    seen: list[frozenset] = []  # the word sets of the hyp+ picked
    for split, size in sizes.items():
        even = math.ceil(max_share * size / len(order)) if max_share and order else size
        caps = {t: quotas[split].get(t, 0) if quotas else even for t in order}
        limits = Limits(max_same_edit, None if max_near_copy_share is None else int(max_near_copy_share * size),
                        max_side_lead, None if side is None or max_side_lead is None else (
                            lambda cand: side_way(cand, side)))
        picked: list[Candidate] = []
        counts: Counter = Counter()
        same: Counter = Counter()
        spent: set[str] = set()  # candidates left, none whose edit may come again in this split
        while len(picked) < size and any(t not in exhausted | spent and counts[t] < caps[t] for t in order):
            for t in order:
                if len(picked) >= size:
                    break
                if counts[t] >= caps[t]:
                    continue
                queue = queues[t]
                while queue and queue[0].key in used:
                    queue.pop(0)
                cand = next((c for c in queue if c.key not in used and c.row.get("hyp_bad") not in made
                             and _fresh(c, same, limits) and not near_duplicate(c, seen)), None)
                if cand is None:
                    (spent if queue else exhausted).add(t)
                    continue
                queue.remove(cand)
                used.add(cand.key)
                seen.append(_word_set(cand))
                made.add(cand.row.get("hyp_bad") or object())
                same.update(_marks(cand, limits))
                picked.append(cand)
                counts[t] += 1
        if not quotas:
            _rebalance(picked, ranked, made, same, limits, side)
        if max_near_copy_share is not None:
            picked = within_near_copy_share(picked, max_near_copy_share)
        if limits.way is not None:
            picked = within_side_lead(picked, limits.way, max_side_lead)
        chosen[split] = picked
        capped |= spent
    short = exhausted | capped | {t for t in TYPES if t not in queues}
    return chosen, {t for t in short if any(q.get(t) for q in quotas.values())} if quotas else short


def within_near_copy_share(picked: list[Candidate], share: float) -> list[Candidate]:
    """``picked`` less its last-picked near-copy hyp+ until at most ``share`` of the split as filled are
    near-copies. The selection caps them against the split's configured size; a split the pools left short must
    meet the cap too: at 0.1, a split filled to 50 of 119 keeps 5 near-copies, not 11."""
    keep = list(picked)
    while True:
        near = [i for i, cand in enumerate(keep) if NEAR_COPY in _marks(cand)]
        if len(near) <= int(share * len(keep)):
            return keep
        del keep[near[-1]]


def within_side_lead(picked: list[Candidate], way: Callable[[Candidate], bool | None], lead: int) -> list[Candidate]:
    """``picked`` less the last-picked edits of a type's leading way until no way leads the other by more than
    ``lead``: a near-copy left out, or a move of the rebalancing, may take an edit of the other way with it."""
    keep = list(picked)
    while True:
        counts = Counter((c.type, way(c)) for c in keep)
        over = next(((t, w) for (t, w), n in sorted(counts.items(), key=repr)
                     if w is not None and n > counts[(t, not w)] + lead), None)
        if over is None:
            return keep
        del keep[max(i for i, c in enumerate(keep) if (c.type, way(c)) == over)]


NEAR_DUPLICATE = 0.8  # word-set Jaccard from which two hyp+ say the same sentence


def near_duplicate(cand: Candidate, seen: list[frozenset]) -> bool:
    """Whether ``cand``'s hyp+ shares at least NEAR_DUPLICATE of its words (Jaccard) with one already picked: 'It
    is also worth noting that the code would work without ADL (it is applied to it anyway).' and '... (it will be
    applied anyway to it).' came from two PAWS-X pairs, and gave the same removed 'without' three times."""
    mine = _word_set(cand)
    return bool(mine) and any(len(mine & other) >= NEAR_DUPLICATE * len(mine | other) for other in seen)


def _word_set(cand: Candidate) -> frozenset:
    return frozenset(words(cand.row.get("hyp_good") or ""))


def _rebalance(picked: list[Candidate], ranked: dict[str, list[Candidate]], made: set, same: Counter,
               limits: Limits, side: Callable[[Candidate], object] | None) -> None:
    """Even out a filled split in place without changing its sources. The round-robin is greedy: an abundant type
    can take the sources a scarce type's edits need (tense may hold a source whose gender edit is the only one
    gender has left). While one exists, take the shortest path that gives a source of a type at least two short of
    the largest another edit of its own: scarce type a takes source s1 from type b, b takes s2 from c, ..., until a
    type of the largest count gives one up. Each move keeps a hyp- unique, the ``limits``, and a type's sides (women
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
                        or not _fresh(cand, same + Counter(m for x, _ in path for m in _marks(x, limits)), limits)
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
            same.subtract(_marks(old, limits))
            same.update(_marks(cand, limits))


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


@dataclass(frozen=True)
class Limits:
    """A split's caps: uses of one edit detail (``max_same_edit``), near-copy hyp+ (``max_near_copies``), and how
    far one way of a two-way edit (``way``: ``side_way``) leads the other (``max_side_lead``)."""

    max_same_edit: int | None
    max_near_copies: int | None
    max_side_lead: int | None = None
    way: Callable[[Candidate], bool | None] | None = None


NEAR_COPY = "\x00near-copy"  # the key under which a split's near-copy hyp+ are counted beside its edit details
WAY = "\x00way"  # (WAY, type, way): a split's count of a type's edits that go that way (``side_way``)


@lru_cache(maxsize=None)
def _near_copy(source: str, good: str) -> bool:
    return near_copy(source, good)


def _marks(cand: Candidate, limits: Limits | None = None) -> list:
    """What ``cand`` counts against in its split: its edit detail, NEAR_COPY where hyp+ nearly copies its
    source ('We have a problem.' for 'We got a problem.'), and with ``limits.way`` (WAY, type, the way it goes)."""
    row = cand.row
    way = limits.way(cand) if limits is not None and limits.way is not None else None
    return ([_detail(cand)] + ([NEAR_COPY] if "hyp_good" in row and _near_copy(row["source"], row["hyp_good"]) else [])
            + ([(WAY, cand.type, way)] if way is not None else []))


def side_way(cand: Candidate, side: Callable[[Candidate], object]) -> bool | None:
    """Which of two ways an edit goes, read off its ``side`` (``edit_side``): towards women (gender), into the
    third person (pronoun), into the past (tense), removing a negation (negation); None for other types, and for
    a tense edit of no known direction."""
    value = side(cand)
    if cand.type == "gender":
        return value[0] if isinstance(value, tuple) else value
    if cand.type == "tense":
        return None if value is None else value == "past"
    return value if cand.type in ("pronoun", "negation") else None


def _fresh(cand: Candidate, same: Counter, limits: Limits) -> bool:
    """Whether ``cand``'s edit has come fewer than ``max_same_edit`` times in the split (always, without one, and
    for a grammatical type whose details name a class, so recur by nature: 'present->past', 'insert:not'), a
    near-copy hyp+ finds the split below ``max_near_copies``, and its way leads the other by less than
    ``max_side_lead``."""
    if limits.max_near_copies is not None and NEAR_COPY in _marks(cand) and same[NEAR_COPY] >= limits.max_near_copies:
        return False
    way = limits.way(cand) if limits.way is not None and limits.max_side_lead is not None else None
    if way is not None and same[(WAY, cand.type, way)] >= same[(WAY, cand.type, not way)] + limits.max_side_lead:
        return False
    return limits.max_same_edit is None or _names_a_class(cand) or same[_detail(cand)] < limits.max_same_edit


def _names_a_class(cand: Candidate) -> bool:
    return cand.type in GRAMMATICAL_TYPES and (cand.type != "tense" or set(_detail(cand).split("->")) <= TENSE_CLASSES)


def _rank(salt: int, cand: Candidate) -> str:
    """A candidate's seeded place in its type's queue: a hash of its source and its edited hypothesis."""
    text = f"{salt}\x1f{cand.type}\x1f{cand.key}\x1f{cand.row.get('hyp_bad', '')}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _alternate(queue: list[Candidate], side: Callable[[Candidate], object] | None, depth: int = 0) -> list[Candidate]:
    """``queue`` taking its sides in turn, each side in its own order (unchanged without ``side``); a tuple side
    takes its first element in turn, then the next one within each: (towards women, word pair) alternates women
    and men, and within each the pairs, so many pairs with one edit each ('M. -> Mme', 'fils -> fille') never
    fill a split's first turns with one way."""
    if side is None:
        return queue
    by_side: dict[object, list[Candidate]] = {}
    for cand in queue:
        key = side(cand)
        by_side.setdefault(key[depth] if isinstance(key, tuple) else key, []).append(cand)
    deeper = [c for c in queue if isinstance(side(c), tuple) and depth + 1 < len(side(c))]
    groups = [_alternate(g, side, depth + 1) if deeper else g for g in by_side.values()]
    return [c for turn in zip_longest(*groups) for c in turn if c is not None]


def towards_women(lang: str) -> Callable[[Candidate], object]:
    """The side of a candidate: for a gender edit, whether it goes towards the female form; else None."""
    female = {b.lower() for _, b in lexicons.rows("gender", lang)}
    return lambda cand: (cand.type == "gender"
                         and cand.row["edit_detail"].split(",")[0].split("->")[-1].lower() in female)


def edit_side(lang: str) -> Callable[[Candidate], object]:
    """The side a type's queue alternates over, so that no direction of an edit gives the hallucination away: for
    a gender edit, whether it goes towards women and its word pair; for an antonym, its word pair and which way it
    goes (``pair_side``); for a pronoun
    edit, whether it goes into the third person (a hypothesis-only language model calls the rarer word
    hallucinated: 'me -> him' more often than 'him -> me'); for a tense edit, the tense it goes into ('is' ->
    'was': past); for a negation, whether it removes one ('did not go' -> 'went') or adds one; for an addition,
    whether hyp- has more words than hyp+, as many or fewer (``length_side``); else None."""
    paired = pair_side(lang)

    def side(cand: Candidate) -> object:
        detail = cand.row["edit_detail"] or ""
        if cand.type == "gender":
            pair, female = paired(cand)
            return female, pair
        if cand.type in PAIRED_TYPES:
            return paired(cand)
        if cand.type == "pronoun":
            return person(detail.split(",")[0].split("->")[-1], lang) == 3
        if cand.type == "tense":
            direction = tense_direction(detail, lang)
            return direction[1] if direction else None
        if cand.type == "negation":
            return removes_negation(detail)
        if cand.type == "addition":
            return addition_side(cand.row)
        return None

    return side


def length_side(row: dict) -> int:
    """+1 where hyp- has more words than hyp+, 0 where as many, -1 where fewer: an addition to hyp+ is +1, one to
    a shorter twin 0 or -1 (build.addition_on_twin)."""
    diff = len(words(row["hyp_bad"])) - len(words(row["hyp_good"]))
    return (diff > 0) - (diff < 0)


def shared_side(row: dict) -> int:
    """+1 where a larger share of hyp-'s words is missing from hyp+ than the reverse (the artifact probe's
    ``less_shared`` baseline calls hyp- hallucinated), 0 where the shares tie, -1 where hyp+'s is larger: hyp+
    'The band put out its album.', hyp- 'The band put out its new album.' -> +1; an addition to a twin that
    rewords hyp+ ('The group released the new album.') -> -1."""
    score = less_shared(row["hyp_bad"], row["hyp_good"])
    return (score > 0) - (score < 0)


def addition_side(row: dict) -> tuple[int, int]:
    """An addition's two cues: (``length_side``, ``shared_side``)."""
    return length_side(row), shared_side(row)


PAIRED_TYPES = ("gender", "antonym")  # types that swap one word of a pair for the other


def pair_side(lang: str) -> Callable[[Candidate], object]:
    """A gender or antonym edit's side: its first word pair, whichever way it goes, and which way: towards the
    female form for gender ('He->She,his->her' -> ('he|she', True)), towards the pair's first word for antonyms
    ('sud->nord' -> ('nord|sud', True)); else None."""
    female = towards_women(lang)

    def side(cand: Candidate) -> object:
        if cand.type not in PAIRED_TYPES:
            return None
        old, _, new = cand.row["edit_detail"].split(",")[0].partition("->")
        pair = sorted((old.lower(), new.lower()))
        return "|".join(pair), female(cand) if cand.type == "gender" else new.lower() == pair[0]

    return side


def balance_pair_directions(candidates: dict[str, list[Candidate]], type_: str, lang: str,
                            rng: random.Random) -> int:
    """Keep, of each word pair of a gender or antonym edit ('he|she', 'girls|boys', 'nord|sud'), no more edits one
    way than one more than the other way (the larger side sampled down, in place): most sources are about men,
    and a hypothesis-only detector that calls every 'she' hallucinated would otherwise score well; balanced over
    all pairs alone, 7 'he -> she' beside 4 'she -> he' still gave 'she' away, and 10 'sud -> nord' beside one
    'nord -> sud' gave 'nord' away. Returns how many candidates were dropped."""
    side = pair_side(lang)
    dropped = _thin(candidates, type_, side, rng, lambda n, k: min(n[k], n[(k[0], not k[1])] + 1))
    return dropped + (_even_out_ways(candidates, type_, side, rng) if type_ == "gender" else 0)


def _even_out_ways(candidates: dict[str, list[Candidate]], type_: str, side: Callable[[Candidate], object],
                   rng: random.Random) -> int:
    """Over all word pairs of a type, as many edits towards women as towards men, within one (in place): from
    seeded pairs whose one extra edit goes the majority way, that extra edit. Each pair may lead by one, and pairs
    with no edit back ('M. -> Mme', 'prince -> princesse', 'fils -> fille') add up to a lead a trained probe reads
    off the female words alone. Returns how many were dropped."""
    ways: dict[object, dict[bool, list[Candidate]]] = {}
    for cand in candidates.get(type_, []):
        pair, way = side(cand)
        ways.setdefault(pair, {True: [], False: []})[way].append(cand)
    lead = sum(len(w[True]) - len(w[False]) for w in ways.values())
    major = lead > 0
    leading = [p for p in sorted(ways) if len(ways[p][major]) > len(ways[p][not major])]
    drop = {id(rng.choice(ways[p][major])) for p in rng.sample(leading, max(abs(lead) - 1, 0))}
    if drop:
        candidates[type_] = [c for c in candidates[type_] if id(c) not in drop]
    return len(drop)


def balance_future(candidates: dict[str, list[Candidate]], lang: str, rng: random.Random) -> int:
    """Keep no more tense edits into the future than one more than out of it, nor the reverse (in place): PAWS-X
    has few sentences in the future, and with edits only into it, 'will' marks the hallucination. Returns how many
    were dropped."""
    def future(cand: Candidate) -> int:
        direction = tense_direction(cand.row["edit_detail"] or "", lang) or ("", "")
        return (direction[1] == "future") - (direction[0] == "future")

    return _thin(candidates, "tense", future, rng, lambda n, k: min(n[k], n[-k] + 1) if k else n[k])


def balance_negation_directions(candidates: dict[str, list[Candidate]], rng: random.Random) -> int:
    """Keep no more inserted negations than one more than removed ones, nor the reverse (the larger side sampled
    down, in place): PAWS-X English has few negated sentences, and with 11 insertions to 2 removals a
    hypothesis-only detector calls the hypothesis with 'not' hallucinated. Returns how many were dropped."""
    return _thin(candidates, "negation", lambda cand: removes_negation(cand.row["edit_detail"] or ""), rng,
                 lambda n, k: min(n[k], n[not k] + 1))


def balance_addition_lengths(candidates: dict[str, list[Candidate]], rng: random.Random) -> int:
    """Keep no more additions whose hyp- is longer than hyp+ than the larger of the other two sides (as long,
    shorter: ``length_side``), the longer side sampled down in place: where few twins give a shorter hyp-
    (build.addition_on_twin), the longer one would still give most additions away. Returns how many were
    dropped."""
    return _thin(candidates, "addition", lambda cand: length_side(cand.row), rng, _no_larger_than_the_others)


def balance_addition_shared_words(candidates: dict[str, list[Candidate]], rng: random.Random) -> int:
    """Keep no more additions where hyp- holds the larger share of unshared words (``shared_side`` +1) than the
    larger of the other two sides, the +1 side sampled down in place: most twins reorder hyp+'s words, so their
    addition leaves hyp- the one hypothesis with a word the other lacks, and the probe's ``less_shared`` baseline
    names it. Returns how many were dropped."""
    return _thin(candidates, "addition", lambda cand: shared_side(cand.row), rng, _no_larger_than_the_others)


def _no_larger_than_the_others(n: Counter, k: int) -> int:
    """Side +1 kept at most as large as the larger of sides 0 and -1; the others whole."""
    return min(n[k], max(n[0], n[-1])) if k == 1 else n[k]


def _thin(candidates: dict[str, list[Candidate]], type_: str, side: Callable[[Candidate], object],
          rng: random.Random, most: Callable[[Counter, object], int]) -> int:
    """Sample ``type_``'s candidates down in place to ``most(counts, side)`` of each side (seeded, each side's
    candidates in their pooled order before the draw); how many were dropped."""
    by_side: dict[object, list[Candidate]] = {}
    for cand in candidates.get(type_, []):
        by_side.setdefault(side(cand), []).append(cand)
    counts = Counter({k: len(v) for k, v in by_side.items()})
    kept = {id(c) for k in sorted(by_side, key=repr) for c in rng.sample(by_side[k], most(counts, k))}
    before = len(candidates.get(type_, []))
    if before:
        candidates[type_] = [c for c in candidates[type_] if id(c) in kept]
    return before - len(candidates.get(type_, []))


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


def check_gates(rows: list[dict], group: str, tolerance: int | None, exhausted: set[str]) -> None:
    """Fail with a clear message on: duplicate ids; hyp+ == hyp-; a type outside the eleven; a source in
    both trial and test; a determiner-noun gender clash in a French or German gender edit; per split,
    type counts further apart than ``tolerance`` (types whose pool ran out excepted; None: no such gate)."""
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
    for split in by_split if tolerance is not None else ():
        counts = Counter(r["type"] for r in rows if r["split"] == split and r["type"] not in exhausted)
        if counts and max(counts.values()) - min(counts.values()) > tolerance:
            raise PipelineError(f"{where}, {split}: type counts {dict(sorted(counts.items()))} differ by more than "
                                f"the tolerance {tolerance}")
