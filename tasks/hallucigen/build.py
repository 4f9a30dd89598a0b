"""What the HalluciGen builds share. Each build (translation.py, paraphrase.py) reads as blocks:

    pool -> filters -> perturb -> select -> gates -> write

The build module makes the pool, names its filters (each returns the reason an item or an edit gives no
example, or None: ``first_reject`` asks them in order) and perturbs what passes, counting every outcome with
``record`` and building each example's row with ``candidate``. ``select_shard`` is the tail of one direction or
language once candidates exist; ``check_build`` runs the gates over the whole build; outputs.py writes it, and
``check_probe`` applies the artifact probe's gate last."""
from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TypeVar

from tasks.edits.context import Context
from tasks.edits.library import TYPES, perturb
from tasks.edits.result import Edit
from tasks.errors import PipelineError
from tasks.hallucigen.artifact_probe import gate_failures
from tasks.hallucigen.detokenize import plain_text
from tasks.hallucigen.rejects import Rejects, drop_rejected
from tasks.hallucigen.select import (
    PAIRED_TYPES,
    Candidate,
    balance_addition_lengths,
    balance_addition_shared_words,
    balance_future,
    balance_negation_directions,
    balance_pair_directions,
    check_gates,
    edit_side,
    select_balanced,
    target_lang,
)
from tasks.hallucigen.table1 import paper_quotas
from tasks.stats import Tally
from tasks.text import copies, words

T = TypeVar("T")
Filter = Callable[[T], str | None]  # the reason its subject gives no example, or None


def first_reject(filters: Iterable[Filter], subject: T) -> str | None:
    """The reason of the first of ``filters`` that rejects ``subject``, or None; the filters after it are not
    asked, so a reject counts once, under the first reason that applies (a hyp+ both misspelt and garbled:
    'misspelt_hyp_good' where that filter comes first)."""
    for check in filters:
        reason = check(subject)
        if reason is not None:
            return reason
    return None


def build_types(params: dict) -> list[str]:
    """The types a build makes (``params['types']``), in the library's order."""
    return [t for t in TYPES if t in params["types"]]


def candidate(scenario: str, langpair: str, source: str, hyp_good: str, hyp_good_origin: str, type_: str,
              bad: Edit | str, origin: str, detail: str | None = None) -> Candidate:
    """The candidate of one example, keyed by its source (one example per source). ``bad`` is the Edit of hyp+
    that made hyp- (its span, replacement, offset and detail fill the edit columns), or a hyp- found as it is
    (a SHROOM paraphrase labelled Hallucination: no edit columns, ``detail`` says why it is one). Example: a tense
    Edit 'lives'->'lived' of 'He lives in Paris.' gives hyp_bad 'He lived in Paris.', edit_from 'lives'."""
    edit = bad if isinstance(bad, Edit) else None
    return Candidate(key=source, type=type_, row={
        "scenario": scenario, "langpair": langpair, "source": source, "hyp_good": hyp_good,
        "hyp_bad": edit.bad if edit else bad, "type": type_, "edit_from": edit.source if edit else None,
        "edit_to": edit.target if edit else None, "edit_start": edit.start if edit else None,
        "edit_detail": edit.detail if edit else detail, "origin": origin, "hyp_good_origin": hyp_good_origin})


def addition_on_twin(good: str, twin: tuple[str, Context] | None) -> Edit | None:
    """The addition to hyp+'s twin (``twin``: the twin and its Context, whose ``source`` is hyp+ ``good``; the twin
    is another faithful wording of the source: PAWS-X sentence2, the paraphrase's source) whose hyp- has no more
    words than hyp+, or None. An addition to hyp+ itself makes hyp- the longer one every time, which a
    hypothesis-only probe reads off; beside a twin at least a word shorter, hyp- is as long as hyp+ or shorter:
    hyp+ 'The band released the new album.', the twin 'The band put out its album.' + 'second'."""
    if twin is None or copies(twin[0], good):
        return None
    result = perturb("addition", twin[0], twin[1])
    return result if isinstance(result, Edit) and len(words(result.bad)) <= len(words(good)) else None


def record(candidates: dict[str, list[Candidate]], tallies: dict[str, Tally], type_: str,
           outcome: Candidate | str) -> None:
    """Count one source's outcome for ``type_``: a reject reason, or a candidate kept."""
    if isinstance(outcome, str):
        tallies[type_].reject(outcome)
        return
    tallies[type_].keep()
    candidates[type_].append(outcome)


def applicability(tallies: dict[str, Tally]) -> dict[str, dict]:
    """Each type's tally (sources read, kept, rejected by reason), types sorted."""
    return {t: tallies[t].as_dict() for t in sorted(tallies)}


def select_shard(group: str, candidates: dict[str, list[Candidate]], params: dict, sizes: dict[str, int],
                 rejects: Rejects) -> tuple[list[dict], dict, set[str]]:
    """The tail of one direction or language (``group``: 'fr-en', 'sv') once its candidates exist: leave out what
    the blind review rejected, each gender or antonym word pair's two ways within one of each other (and gender's
    over all pairs), inserted and removed negations likewise and tense edits into and out of the future, no more
    additions with a longer hyp- than either other length side has, nor with more of the words the other
    hypothesis lacks, pick each split (``select_balanced``: each edit's directions in turn, near-copy hyp+
    capped), number the rows ('fr-en:test:0') with PAWS-X text as plain text. Returns the rows, the stats of these
    steps and the types that ran out."""
    lang = target_lang(group)
    removed = drop_rejected(candidates, rejects)
    balanced = {f"{t}_dropped_for_direction_balance": balance_pair_directions(
        candidates, t, lang, random.Random(f"{params['seed']}:{t}:{group}")) for t in PAIRED_TYPES}
    balanced["negation_dropped_for_direction_balance"] = balance_negation_directions(
        candidates, random.Random(f"{params['seed']}:negation:{group}"))
    balanced["future_dropped_for_direction_balance"] = balance_future(
        candidates, lang, random.Random(f"{params['seed']}:future:{group}"))
    balanced["addition_dropped_for_length_balance"] = balance_addition_lengths(
        candidates, random.Random(f"{params['seed']}:addition:{group}"))
    balanced["addition_dropped_for_shared_word_balance"] = balance_addition_shared_words(
        candidates, random.Random(f"{params['seed']}:addition-shared:{group}"))
    quotas = paper_quotas(group, sizes) if params.get("type_distribution") == "paper" else None
    chosen, exhausted = select_balanced(candidates, sizes, random.Random(f"{params['seed']}:select:{group}"),
                                        params["max_type_share"], edit_side(lang), params.get("max_same_edit"),
                                        params["max_near_copy_share"], quotas, params.get("max_side_lead"))
    rows = [plain_text({**cand.row, "id": f"{group}:{split}:{k}", "split": split})
            for split, picked in chosen.items() for k, cand in enumerate(picked)]
    stats = {"candidates": {t: len(c) for t, c in sorted(candidates.items())},
             "removed_by_blind_review": removed,
             **balanced,
             "exhausted_types": sorted(exhausted)}
    return rows, stats, exhausted


def type_counts(rows: list[dict]) -> dict[str, int]:
    """Examples per type, types sorted."""
    return dict(sorted(Counter(r["type"] for r in rows).items()))


def check_build(scenario: str, rows: list[dict], params: dict, exhausted: dict[str, set]) -> None:
    """The quality gates (``check_gates``) on each direction or language of a build, in sorted order; the
    first that fails raises. Under ``type_distribution: paper`` the types are meant to differ: no balance gate."""
    tolerance = params["balance_tolerance"] if params.get("type_distribution", "uniform") == "uniform" else None
    for group in sorted({r["langpair"] for r in rows}):
        check_gates([r for r in rows if r["langpair"] == group], f"{scenario} {group}", tolerance,
                    exhausted.get(group, set()))


def probe_gate(report: dict, spec: dict) -> dict:
    """The artifact probe's verdict on a build: every figure above its ceiling or below the floor
    (``gate_failures``), and what a failure does (``on_exceed``: fail | warn)."""
    return {"failures": gate_failures(report, spec["ceilings"]), "on_exceed": spec["on_exceed"],
            "ceilings": spec["ceilings"]}


def check_probe(scenario: str, probe: dict | None) -> None:
    """Fail a build the artifact probe's gate failed, naming the first figure ('HalluciGen translation: artifact
    probe ngram: type tense accuracy 0.95 > ceiling 0.65 (n=58); 2 more in the card'); warn under
    ``on_exceed: warn``."""
    if probe is None or not probe["gate"]["failures"]:
        return
    failures = probe["gate"]["failures"]
    more = f"; {len(failures) - 1} more in the card" if len(failures) > 1 else ""
    message = f"HalluciGen {scenario}: {failures[0]}{more}"
    if probe["gate"]["on_exceed"] == "fail":
        raise PipelineError(message)
    for line in failures:
        print(f"WARNING HalluciGen {scenario}: {line} (artifact_probe.on_exceed: warn)", file=sys.stderr, flush=True)
