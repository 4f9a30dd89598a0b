"""HalluciGen paraphrase dataset (overview §2.2): English from SHROOM PG, Swedish from SweParaphrase v2.0
(label 5) and the Turku paraphrase corpus (label 4). One language reads as blocks:

    pool     shroom_items, rank_sources / swedish_pairs        sources and their paraphrases
    filters  select_hyp_good, SOURCE_FILTERS, NATURAL_FILTERS   each names the reason a hyp+ or a source gives
             / faithful_swedish_pairs                          no example
    perturb  english_candidates / swedish_candidates           every type on each source that passes
    select   build_language -> build.select_shard              review rejects, gender balance, balanced splits
    gates    build.check_build (in the flow)
    write    outputs.write_hallucigen (in the flow)"""
from __future__ import annotations

import csv
import random
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tasks.edits import modifiers
from tasks.edits.context import Context
from tasks.edits.library import perturb
from tasks.edits.result import Edit
from tasks.edits.spacy_model import tagger_of
from tasks.errors import InputError
from tasks.hallucigen.build import (
    addition_on_twin,
    applicability,
    build_types,
    candidate,
    first_reject,
    record,
    select_shard,
)
from tasks.hallucigen.entities import name_forms, name_spans, name_vectors, ner_spans, pool_of
from tasks.hallucigen.famous_names import drop_famous_swaps
from tasks.hallucigen.paraphrase_checks import degenerate, faithfulness_failures, swedish_side_adds
from tasks.hallucigen.rejects import rejects_in
from tasks.hallucigen.select import Candidate
from tasks.hallucigen.spelling import lower_start
from tasks.io import read_records
from tasks.models.sentence import pair_similarities
from tasks.rows import BadField, mapping, text
from tasks.stats import Tally
from tasks.text import copies, near_copy

# --- Pool ---------------------------------------------------------------------------------------------------


def normalise(text: str) -> str:
    """Lower-cased words only: the published files differ from their sources in case, quotes and punctuation."""
    return " ".join(re.findall(r"\w+", unicodedata.normalize("NFC", text).lower()))


def published_sources(path: Path) -> set[str]:
    """Distinct normalised `source` values of a published HalluciGen PG csv."""
    if not path.is_file():
        raise InputError(f"{path}: file not found")
    with open(path, encoding="utf-8", newline="") as fh:
        return {normalise(row["source"]) for row in csv.DictReader(fh)}


SHROOM_LABELS = ("Hallucination", "Not Hallucination")


def shroom_items(shroom_dir: Path, files: list[str]) -> tuple[dict[str, list[dict]], dict]:
    """PG items of every SHROOM file, grouped by source (first seen first); NaN/empty src rejected, and a
    label that is neither absent (unlabelled train files) nor one of SHROOM_LABELS (``bad_label``)."""
    by_source: dict[str, list[dict]] = {}
    tallies = {}
    for file in files:
        tally = Tally()
        for index, item in enumerate(read_records(shroom_dir / file, f"shroom/{file}")):
            parsed = _shroom_item(item)
            if isinstance(parsed, str):
                tally.reject(parsed)
                continue
            tally.keep()
            src, hyp = parsed
            by_source.setdefault(src, []).append({"hyp": hyp, "label": item.get("label"),
                                                  "origin": f"shroom:{file}:{index}"})
        tallies[file] = tally.as_dict()
    return by_source, tallies


def _shroom_item(item) -> tuple[str, str] | str:
    """(src, hyp) of a PG item, or why it is unusable: another task, a src or hyp that is missing or not a
    string ('empty_src', 'hyp_not_a_string'), a label outside SHROOM_LABELS."""
    if not isinstance(item, dict) or item.get("task") != "PG":
        return "not_pg_task"
    try:
        src, hyp = text(item.get("src"), "src"), text(item.get("hyp"), "hyp")
    except BadField as bad:
        return bad.reason
    if item.get("label") is not None and item.get("label") not in SHROOM_LABELS:
        return "bad_label"
    return src, hyp


def rank_sources(sources: list[str], min_chars: int) -> list[str]:
    """Long sources first, those with numbers before the rest (overview §2.2)."""
    kept = [s for s in sources if len(s) >= min_chars]
    return sorted(kept, key=lambda s: (not re.search(r"\d", s), -len(s), s))


def swedish_pairs(raw_root: Path, params: dict) -> tuple[list[dict], dict, list[tuple[str, str]]]:
    """Top-similarity pairs: SweParaphrase label 5.0, Turku label exactly '4' (flagged 4s rejected); the
    file tallies; and every pair with both texts, whatever its label (the corpus of attested modifiers)."""
    pairs, tallies, texts = [], {}, []
    for file in params["sweparaphrase_files"]:
        tally = Tally()
        for index, row in enumerate(read_records(Path(raw_root) / "sweparaphrase" / file, f"sweparaphrase/{file}")):
            pair = _text_pair(row, "sentence_1", "sentence_2")
            if isinstance(pair, str):
                tally.reject(pair)
                continue
            texts.append(pair)
            if row.get("label") != 5.0:
                tally.reject("below_top_similarity")
            else:
                tally.keep()
                pairs.append({"source": pair[0], "good": pair[1], "origin": f"sweparaphrase:{file}:{index}"})
        tallies[f"sweparaphrase/{file}"] = tally.as_dict()
    tally = Tally()
    for index, row in enumerate(read_records(Path(raw_root) / "turku-paraphrase-sv" / "test.json",
                                             "turku-paraphrase-sv/test.json")):
        pair = _text_pair(row, "txt1", "txt2")
        if isinstance(pair, str):
            tally.reject(pair)
            continue
        texts.append(pair)
        label = str(row.get("label", ""))
        if label == "4":
            tally.keep()
            pairs.append({"source": pair[0], "good": pair[1], "origin": f"turku:test.json:{index}"})
        else:
            tally.reject("flagged_label" if label.startswith("4") else "below_top_similarity")
    tallies["turku-paraphrase-sv/test.json"] = tally.as_dict()
    return pairs, tallies, texts


def _text_pair(row, first: str, second: str) -> tuple[str, str] | str:
    """The row's two stripped texts, or why there are none: 'row_not_an_object', 'empty_text' or
    'text_not_a_string'."""
    try:
        row = mapping(row, "row")
        return text(row.get(first), "text"), text(row.get(second), "text")
    except BadField as bad:
        return bad.reason


# --- Filters: each returns the reason its hyp+, source or pair gives no example, or None --------------------


def confirm_similarities(pairs: list[tuple[str, str]], params: dict) -> dict[tuple[str, str], float]:
    """Cosine of each pair under the second encoder ``confirm_encoder`` (none when it is unset). Only pairs that
    passed the first encoder's floor are given: the second encoder is the slower one."""
    return pair_similarities(pairs, params["confirm_encoder"]) if params.get("confirm_encoder") else {}


def mend_hyphens(hyp: str, source: str) -> str:
    """``hyp`` with a compound the paraphraser split at its hyphen ('sector- related') written as the source
    writes it ('sector-related')."""
    return re.sub(r"\b(\w+)- (\w+)\b", lambda m: f"{m[1]}-{m[2]}" if f"{m[1]}-{m[2]}" in source else m[0], hyp)


def select_hyp_good(pool: list[str], by_source: dict[str, list[dict]], params: dict
                    ) -> tuple[list[tuple[str, str, str]], list[dict | None], dict[str, int]]:
    """Per source: of the SHROOM paraphrases that are faithful both ways (consistency checks, no reversed
    polarity, little content added or dropped, encoder similarity with the source at least
    ``min_encoder_similarity['en']`` and, under ``confirm_encoder``, at least ``min_confirm_similarity``; not
    labelled Hallucination; no copy of the source, case and punctuation aside) the one most similar under
    ``encoder``, one that changes more than a word first ('We have a problem.' for 'We got a problem.' only where no
    rewording passed), else the source itself (a source that then gives no example); and the first paraphrase
    SHROOM's annotators labelled Hallucination (by majority) that is no degenerate loop as the natural hyp-. An
    unlabelled paraphrase that fails the checks is no natural hyp-: such rows are rewordings, summaries or
    expansions of an acronym ('the EU' for 'the Union'). Also how many candidates each check removed (a candidate
    can fail several)."""
    verdicts = {src: [(h, faithfulness_failures(src, h["hyp"], params)) for h in by_source[src]] for src in pool}
    sims = pair_similarities(sorted({(src, h["hyp"]) for src in pool for h, f in verdicts[src] if not f}),
                             params["encoder"])
    floor = params["min_encoder_similarity"]["en"]
    confirm = confirm_similarities(sorted(pair for pair, sim in sims.items() if sim >= floor), params)
    removed: Counter = Counter()
    goods, naturals = [], []
    for src in pool:
        faithful, natural = [], None
        for h, failed in verdicts[src]:
            pair = (src, h["hyp"])
            failed = failed + (["encoder_similarity"] if sims.get(pair, 1.0) < floor else []) + (
                ["confirm_similarity"] if confirm.get(pair, 1.0) < params.get("min_confirm_similarity", 0) else []) + (
                ["copies_source"] if copies(src, h["hyp"]) else [])
            labelled = h["label"] == "Hallucination"
            removed.update(failed + (["labelled_hallucination"] if labelled else []))
            if not failed and not labelled:
                faithful.append(h)
            elif natural is None and labelled and not degenerate(h["hyp"]):
                natural = {**h, "failed": failed}
        good = max(faithful, key=lambda h: (not near_copy(src, h["hyp"]), sims[(src, h["hyp"])]),
                   default=None)  # a rewording before a near-copy; the first of equals
        goods.append((src, mend_hyphens(good["hyp"], src) if good else src, good["origin"] if good else "source"))
        naturals.append(natural if natural is None or good is None or natural["hyp"] != good["hyp"] else None)
    return goods, naturals, dict(sorted(removed.items()))


@dataclass(frozen=True)
class EnglishSource:
    """A SHROOM source as its filters see it: its hyp+ (``select_hyp_good``; the source itself where no paraphrase
    passed), where hyp+ came from ('source' for that copy) and its natural hyp- (or None)."""
    text: str
    good: str
    origin: str
    natural: dict | None


def no_consistent_shroom_paraphrase(s: EnglishSource) -> str | None:
    """No SHROOM paraphrase of the source passed: beside a copy of its source, hyp- gives the answer away."""
    return "no_consistent_shroom_paraphrase" if s.origin == "source" else None


def no_failing_shroom_hypothesis(s: EnglishSource) -> str | None:
    """No SHROOM paraphrase labelled Hallucination to serve as natural hyp- (or it is hyp+ itself)."""
    return "no_failing_shroom_hypothesis" if s.natural is None or s.natural["hyp"] == s.good else None


SOURCE_FILTERS = (no_consistent_shroom_paraphrase,)  # every type, first; no hyp+ copies its source (select_hyp_good)
NATURAL_FILTERS = (no_failing_shroom_hypothesis,)  # natural


def swedish_pair_problem(source: str, good: str, max_added: float) -> str | None:
    """Why a Swedish pair gives no faithful hyp+: one side says more (``swedish_side_adds``), or hyp+ opens in lower
    case where its source does not ('när jag ...' for 'När jag ...': judged not fluent); else None."""
    if swedish_side_adds(source, good, max_added):
        return "one_side_adds"
    return "lower_start" if lower_start(good, source) else None


def faithful_swedish_pairs(pairs: list[dict], params: dict) -> tuple[list[dict], set[str], Counter]:
    """The pairs, first of each source, whose two sides differ in more than case, spacing and punctuation, pass
    ``swedish_pair_problem`` and reach ``min_encoder_similarity['sv']`` under ``encoder_sv``; every source seen;
    and how many pairs each filter removed ('one_side_adds', 'lower_start', 'encoder_similarity')."""
    seen, unique, removed = set(), [], Counter()
    for p in pairs:
        if p["source"] not in seen and not copies(p["source"], p["good"]):
            seen.add(p["source"])
            problem = swedish_pair_problem(p["source"], p["good"], params["max_added_content_sv"])
            removed[problem] += 1
            if problem is None:
                unique.append(p)
    sims = pair_similarities([(p["source"], p["good"]) for p in unique], params["encoder_sv"])
    faithful = [p for p in unique if sims[(p["source"], p["good"])] >= params["min_encoder_similarity"]["sv"]]
    removed["encoder_similarity"] = len(unique) - len(faithful)
    return faithful, seen, removed


# --- Perturb ------------------------------------------------------------------------------------------------


def english_contexts(goods: list[tuple[str, str, str]], by_source: dict[str, list[dict]], params: dict, nlp
                     ) -> tuple[list[Callable[[str], Context]], list[tuple[str, Context]]]:
    """Per source of ``goods`` (source, hyp+, hyp+ origin), the edit Context of a type: hyp+'s spaCy doc and entity
    spans, the pool of every hyp+'s entities with their name vectors, the modifiers of the sources left unedited
    (theirs and their paraphrases'), the tagger, the source, and an RNG seeded by type and source; and the source
    as hyp+'s twin with its addition Context (its doc, hyp+ as the text whose words it never inserts)."""
    docs = list(nlp.pipe(g for _, g, _ in goods))
    spans = [ner_spans(d, "en") for d in docs]
    entity_pool = pool_of([(g, s) for (_, g, _), s in zip(goods, spans)])
    vectors = name_vectors(name_forms([(g, s) for (_, g, _), s in zip(goods, spans)], entity_pool),
                           params["entity_encoder"])
    edited = {src for src, _, origin in goods if origin != "source"}
    attested = modifiers.attested([t for src in by_source if src not in edited
                                   for t in [src] + [h["hyp"] for h in by_source[src]]], "en")
    tag = tagger_of(nlp)

    def context_of(src: str, doc, ents: list) -> Callable[[str], Context]:
        return lambda type_: Context("en", random.Random(f"{params['seed']}:en:{type_}:{src}"), doc, ents,
                                     entity_pool, attested, tag, src, vectors)

    source_docs = nlp.pipe(src for src, _, _ in goods)
    twins = [(src, Context("en", random.Random(f"{params['seed']}:en:addition-twin:{src}"), doc, modifiers=attested,
                           tag=tag, source=good)) for (src, good, _), doc in zip(goods, source_docs)]
    return [context_of(src, doc, ents) for (src, _, _), doc, ents in zip(goods, docs, spans)], twins


def english_candidate(type_: str, source: EnglishSource, context: Callable[[str], Context],
                      twin: tuple[str, Context] | None = None) -> Candidate | str:
    """The ``type_`` candidate of one SHROOM source, or the reason of the first filter that refuses it
    (``SOURCE_FILTERS``, then for natural ``NATURAL_FILTERS``): natural takes the source's failing SHROOM
    paraphrase as hyp-, an addition the source's where no longer than hyp+ (``twin``: build.addition_on_twin),
    every other type the library's perturbation of hyp+."""
    reason = first_reject(SOURCE_FILTERS + (NATURAL_FILTERS if type_ == "natural" else ()), source)
    if reason is not None:
        return reason
    on_twin = addition_on_twin(source.good, twin) if type_ == "addition" else None
    if on_twin is not None:
        return candidate("paraphrase", "en", source.text, source.good, "shroom", type_, on_twin.bad, source.origin,
                         detail=on_twin.detail)
    if type_ == "natural":
        natural = source.natural
        return candidate("paraphrase", "en", source.text, source.good, "shroom", type_, natural["hyp"],
                         natural["origin"], detail="shroom:" + ",".join(["labelled"] + natural["failed"]))
    result = perturb(type_, source.good, context(type_))
    if not isinstance(result, Edit):
        return result.reason
    return candidate("paraphrase", "en", source.text, source.good, "shroom", type_, result, source.origin)


def english_candidates(raw_root: Path, params: dict, nlp) -> tuple[dict[str, list[Candidate]], dict]:
    """English candidates by type and the build's stats: the pool of long SHROOM sources, each one's hyp+ and
    natural hyp- (``select_hyp_good``), every type on each source (``english_candidate``), less famous-name
    swaps."""
    by_source, tallies = shroom_items(Path(raw_root) / "shroom", params["shroom_files"])
    ranked = rank_sources(list(by_source), params["min_source_chars"])
    published = published_sources(Path(raw_root) / "hallucigen" / "pg" / "test_detection_en.csv")
    pool = ranked[: params["pool_size"]]
    stats = {"files": tallies, "distinct_sources": len(by_source), "ranked_sources": len(ranked),
             "pool_size": len(pool), "published_test_sources": len(published),
             "published_test_recall": round(len(published & {normalise(x) for x in pool}) / len(published), 4)}
    goods, naturals, removed = select_hyp_good(pool, by_source, params)
    stats["hyp_good_removed_by_check"] = removed
    stats["natural_sources"] = natural_sources(by_source)
    contexts, twins = english_contexts(goods, by_source, params, nlp)
    candidates: dict[str, list[Candidate]] = defaultdict(list)
    tallies_by_type: dict[str, Tally] = defaultdict(Tally)
    for (src, good, origin), natural, context, twin in zip(goods, naturals, contexts, twins):
        source = EnglishSource(src, good, origin, natural)
        for type_ in build_types(params):
            record(candidates, tallies_by_type, type_, english_candidate(type_, source, context, twin))
    drop_famous_swaps(candidates, tallies_by_type["named-entity"], params.get("name_lm"))
    stats["hyp_good_origin"] = {o: sum(1 for _, _, g in goods if (g == "source") == (o == "source"))
                                for o in ("shroom", "source")}
    stats["faithful_sources"] = stats["hyp_good_origin"]["shroom"]
    stats["applicability"] = applicability(tallies_by_type)
    return candidates, stats


def natural_sources(by_source: dict[str, list[dict]]) -> dict[str, int]:
    """What the SHROOM PG files offer natural examples: the sources with a paraphrase labelled Hallucination, and
    how many of them have another paraphrase that could be hyp+ (labelled Not Hallucination, or unlabelled)."""
    labelled = [items for items in by_source.values() if any(i["label"] == "Hallucination" for i in items)]
    return {"labelled_hallucination": len(labelled),
            "with_another_paraphrase": sum(len({i["hyp"] for i in items}) > 1 for items in labelled),
            "with_one_labelled_faithful": sum(any(i["label"] == "Not Hallucination" for i in items)
                                              for items in labelled)}


def swedish_contexts(pairs: list[dict], texts: list[tuple[str, str]], params: dict
                     ) -> tuple[list[Callable[[str], Context]], list[tuple[str, Context]]]:
    """Per pair, the edit Context of a type: its hyp+'s name spans, the pool of every hyp+'s names with their
    vectors, the modifiers of the pairs not in ``pairs`` (``texts``: every pair read), the source, and an RNG
    seeded by type and source; and the source as hyp+'s twin with its addition Context (hyp+ as the text whose
    words it never inserts)."""
    spans = [name_spans(p["good"]) for p in pairs]
    entity_pool = pool_of([(p["good"], s) for p, s in zip(pairs, spans)], "sv")
    vectors = name_vectors(name_forms([(p["good"], s) for p, s in zip(pairs, spans)], entity_pool),
                           params["entity_encoder"])
    used = {t for p in pairs for t in (p["source"], p["good"])}
    attested = modifiers.attested([t for pair in texts if not used & set(pair) for t in pair], "sv")

    def context_of(source: str, ents: list) -> Callable[[str], Context]:
        return lambda type_: Context("sv", random.Random(f"{params['seed']}:sv:{type_}:{source}"), None, ents,
                                     entity_pool, attested, source=source, name_vectors=vectors)

    twins = [(p["source"], Context("sv", random.Random(f"{params['seed']}:sv:addition-twin:{p['source']}"),
                                   modifiers=attested, source=p["good"])) for p in pairs]
    return [context_of(p["source"], ents) for p, ents in zip(pairs, spans)], twins


def swedish_candidate(type_: str, pair: dict, context: Callable[[str], Context],
                      twin: tuple[str, Context] | None = None) -> Candidate | str:
    """The ``type_`` candidate of one Swedish pair (the library's perturbation of hyp+; an addition the source's
    where no longer than hyp+: ``twin``, build.addition_on_twin), or why there is none."""
    on_twin = addition_on_twin(pair["good"], twin) if type_ == "addition" else None
    if on_twin is not None:
        return candidate("paraphrase", "sv", pair["source"], pair["good"], pair["origin"].split(":")[0], type_,
                         on_twin.bad, pair["origin"], detail=on_twin.detail)
    result = perturb(type_, pair["good"], context(type_))
    if not isinstance(result, Edit):
        return result.reason
    return candidate("paraphrase", "sv", pair["source"], pair["good"], pair["origin"].split(":")[0], type_, result,
                     pair["origin"])


def swedish_candidates(raw_root: Path, params: dict) -> tuple[dict[str, list[Candidate]], dict]:
    """Swedish candidates by type and the build's stats: the top-similarity pairs (``swedish_pairs``) that
    ``faithful_swedish_pairs`` keeps, perturbed with every type but natural, less famous-name swaps."""
    pairs, tallies, texts = swedish_pairs(raw_root, params)
    published = published_sources(Path(raw_root) / "hallucigen" / "pg" / "test_detection_sv.csv")
    faithful, seen, removed = faithful_swedish_pairs(pairs, params)
    stats = {"files": tallies, "pool_size": len(faithful), "faithful_sources": len(faithful),
             "removed_one_side_adds": removed["one_side_adds"],
             "removed_lower_start": removed["lower_start"],
             "removed_encoder_similarity": removed["encoder_similarity"],
             "published_test_sources": len(published),
             "published_test_sources_in_pool": len(published & {normalise(x) for x in seen}),
             "published_test_sources_in_faithful_pool": len(published & {normalise(p["source"]) for p in faithful})}
    candidates: dict[str, list[Candidate]] = defaultdict(list)
    tallies_by_type: dict[str, Tally] = defaultdict(Tally)
    contexts, twins = swedish_contexts(faithful, texts, params)
    for pair, context, twin in zip(faithful, contexts, twins):
        for type_ in [t for t in build_types(params) if t != "natural"]:
            record(candidates, tallies_by_type, type_, swedish_candidate(type_, pair, context, twin))
    drop_famous_swaps(candidates, tallies_by_type["named-entity"], params.get("name_lm"))
    stats["applicability"] = applicability(tallies_by_type)
    return candidates, stats


# --- Select -------------------------------------------------------------------------------------------------


def build_language(lang: str, raw_root: Path, params: dict, nlp) -> tuple[list[dict], dict, set]:
    """One language's rows of both splits, its stats, and the types that ran out (a shard of the build;
    ``nlp``: the English pipeline, unused for Swedish): its candidates through the shared tail (``select_shard``)."""
    candidates, stats = (english_candidates(raw_root, params, nlp) if lang == "en"
                         else swedish_candidates(raw_root, params))
    rows, tail, exhausted = select_shard(lang, candidates, params, params["sizes"][lang], rejects_in(params))
    return rows, {**stats, **tail}, exhausted
