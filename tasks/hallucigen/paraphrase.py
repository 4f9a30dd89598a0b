"""HalluciGen paraphrase dataset (overview §2.2): English from SHROOM PG, Swedish from SweParaphrase v2.0
(label 5) and the Turku paraphrase corpus (label 4)."""
from __future__ import annotations

import csv
import random
import re
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

from tasks.detectors.similarity import pair_similarities
from tasks.edits import modifiers
from tasks.edits.context import Context
from tasks.edits.library import TYPES, perturb
from tasks.edits.result import Edit
from tasks.edits.spacy_model import tagger_of
from tasks.errors import InputError
from tasks.hallucigen.consistency import degenerate, faithfulness_failures, swedish_side_adds
from tasks.hallucigen.entities import name_forms, name_spans, name_vectors, ner_spans, pool_of
from tasks.hallucigen.famous_names import drop_famous_swaps
from tasks.hallucigen.select import Candidate
from tasks.hallucigen.spelling import lower_start
from tasks.io import read_records
from tasks.rows import BadField, mapping, text
from tasks.stats import Tally


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


def confirm_similarities(pairs: list[tuple[str, str]], params: dict) -> dict[tuple[str, str], float]:
    """Cosine of each pair under the second encoder ``confirm_encoder`` (none when it is unset). Only pairs that
    passed the first encoder's floor are encoded: EmbeddingGemma is about 10 times slower than e5 here."""
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
    labelled Hallucination) the one most similar under ``encoder``, else the source itself (a source that then
    gives no example); and the first paraphrase SHROOM's annotators labelled
    Hallucination (by majority) that is no degenerate loop as the natural hyp-. Unlabelled paraphrases that
    fail the checks are no natural hyp-: on three blind reviews all 15 such rows were rewordings, summaries or
    expansions of an acronym ('the EU' for 'the Union'). Also how many candidates each check removed (a
    candidate can fail several)."""
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
                ["confirm_similarity"] if confirm.get(pair, 1.0) < params.get("min_confirm_similarity", 0) else [])
            labelled = h["label"] == "Hallucination"
            removed.update(failed + (["labelled_hallucination"] if labelled else []))
            if not failed and not labelled:
                faithful.append(h)
            elif natural is None and labelled and not degenerate(h["hyp"]):
                natural = {**h, "failed": failed}
        good = max(faithful, key=lambda h: sims[(src, h["hyp"])], default=None)  # first of equals
        goods.append((src, mend_hyphens(good["hyp"], src) if good else src, good["origin"] if good else "source"))
        naturals.append(natural if natural is None or good is None or natural["hyp"] != good["hyp"] else None)
    return goods, naturals, dict(sorted(removed.items()))


def english_candidates(raw_root: Path, params: dict, nlp) -> tuple[dict[str, list[Candidate]], dict]:
    by_source, tallies = shroom_items(Path(raw_root) / "shroom", params["shroom_files"])
    ranked = rank_sources(list(by_source), params["min_source_chars"])
    published = published_sources(Path(raw_root) / "hallucigen" / "pg" / "test_detection_en.csv")
    pool = ranked[: params["pool_size"]]
    stats = {"files": tallies, "distinct_sources": len(by_source), "ranked_sources": len(ranked),
             "pool_size": len(pool), "published_test_sources": len(published),
             "published_test_recall": round(len(published & {normalise(x) for x in pool}) / len(published), 4)}
    goods, naturals, removed = select_hyp_good(pool, by_source, params)
    stats["hyp_good_removed_by_check"] = removed
    docs = list(nlp.pipe(g for _, g, _ in goods))
    spans = [ner_spans(d, "en") for d in docs]
    entity_pool = pool_of([(g, s) for (_, g, _), s in zip(goods, spans)])
    vectors = name_vectors(name_forms([(g, s) for (_, g, _), s in zip(goods, spans)], entity_pool),
                           params["entity_encoder"])
    edited = {src for src, _, origin in goods if origin != "source"}  # modifiers come from the sources left unedited
    attested = modifiers.attested([t for src in by_source if src not in edited
                                   for t in [src] + [h["hyp"] for h in by_source[src]]], "en")
    tag = tagger_of(nlp)
    candidates: dict[str, list[Candidate]] = defaultdict(list)
    applicability: dict[str, Tally] = defaultdict(Tally)
    for (src, good, origin), doc, ents, natural in zip(goods, docs, spans, naturals):
        base = {"scenario": "paraphrase", "langpair": "en", "source": src, "hyp_good": good,
                "hyp_good_origin": "shroom" if origin != "source" else "source"}
        for type_ in [t for t in TYPES if t in params["types"]]:
            if origin == "source":  # a natural hyp- beside a copy of its source: the copy gives the answer away
                applicability[type_].reject("no_consistent_shroom_paraphrase")
                continue
            if type_ == "natural":
                if natural is None or natural["hyp"] == good:
                    applicability[type_].reject("no_failing_shroom_hypothesis")
                    continue
                if normalise(good) == normalise(src):  # a verbatim hyp+ beside a reworded hyp-: the odd one out
                    applicability[type_].reject("hyp_good_copies_source")
                    continue
                row = {**base, "hyp_bad": natural["hyp"], "type": "natural", "edit_from": None, "edit_to": None,
                       "edit_start": None, "edit_detail": "shroom:" + ",".join(["labelled"] + natural["failed"]),
                       "origin": natural["origin"]}
            else:
                ctx = Context("en", random.Random(f"{params['seed']}:en:{type_}:{src}"), doc, ents, entity_pool,
                              attested, tag, src, vectors)
                result = perturb(type_, good, ctx)
                if not isinstance(result, Edit):
                    applicability[type_].reject(result.reason)
                    continue
                row = {**base, "hyp_bad": result.bad, "type": type_, "edit_from": result.source,
                       "edit_to": result.target, "edit_start": result.start, "edit_detail": result.detail,
                       "origin": origin}
            applicability[type_].keep()
            candidates[type_].append(Candidate(key=src, type=type_, row=row))
    drop_famous_swaps(candidates, applicability["named-entity"], params.get("name_lm"))
    stats["hyp_good_origin"] = {o: sum(1 for _, _, g in goods if (g == "source") == (o == "source"))
                                for o in ("shroom", "source")}
    stats["applicability"] = {t: a.as_dict() for t, a in sorted(applicability.items())}
    return candidates, stats


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


def swedish_pair_problem(source: str, good: str, max_added: float) -> str | None:
    """Why a Swedish pair gives no faithful hyp+: one side says more (``swedish_side_adds``), or hyp+ opens in lower
    case where its source does not ('när jag ...' for 'När jag ...': judged not fluent); else None."""
    if swedish_side_adds(source, good, max_added):
        return "one_side_adds"
    return "lower_start" if lower_start(good, source) else None


def swedish_candidates(raw_root: Path, params: dict) -> tuple[dict[str, list[Candidate]], dict]:
    """Swedish top-similarity pairs, unique by source, that neither side says more in (``swedish_side_adds``),
    whose hyp+ opens in upper case where its source does, and whose encoder similarity is at least
    ``min_encoder_similarity['sv']``, perturbed with every type."""
    pairs, tallies, texts = swedish_pairs(raw_root, params)
    published = published_sources(Path(raw_root) / "hallucigen" / "pg" / "test_detection_sv.csv")
    seen, unique, problems = set(), [], Counter()
    for p in pairs:
        if p["source"] not in seen and p["source"] != p["good"]:
            seen.add(p["source"])
            problem = swedish_pair_problem(p["source"], p["good"], params["max_added_content_sv"])
            problems[problem] += 1
            if problem is None:
                unique.append(p)
    sims = pair_similarities([(p["source"], p["good"]) for p in unique], params["encoder_sv"])
    faithful = [p for p in unique if sims[(p["source"], p["good"])] >= params["min_encoder_similarity"]["sv"]]
    low, unique = len(unique) - len(faithful), faithful
    stats = {"files": tallies, "pool_size": len(unique), "removed_one_side_adds": problems["one_side_adds"],
             "removed_lower_start": problems["lower_start"],
             "removed_encoder_similarity": low,
             "published_test_sources": len(published),
             "published_test_sources_in_pool": len(published & {normalise(x) for x in seen}),
             "published_test_sources_in_faithful_pool": len(published & {normalise(p["source"]) for p in unique})}
    spans = [name_spans(p["good"]) for p in unique]
    entity_pool = pool_of([(p["good"], s) for p, s in zip(unique, spans)], "sv")
    vectors = name_vectors(name_forms([(p["good"], s) for p, s in zip(unique, spans)], entity_pool),
                           params["entity_encoder"])
    used = {t for p in unique for t in (p["source"], p["good"])}  # modifiers come from the other pairs
    attested = modifiers.attested([t for pair in texts if not used & set(pair) for t in pair], "sv")
    candidates: dict[str, list[Candidate]] = defaultdict(list)
    applicability: dict[str, Tally] = defaultdict(Tally)
    for p, ents in zip(unique, spans):
        for type_ in [t for t in TYPES if t in params["types"] and t != "natural"]:
            ctx = Context("sv", random.Random(f"{params['seed']}:sv:{type_}:{p['source']}"), None, ents, entity_pool,
                          attested, source=p["source"], name_vectors=vectors)
            result = perturb(type_, p["good"], ctx)
            if not isinstance(result, Edit):
                applicability[type_].reject(result.reason)
                continue
            applicability[type_].keep()
            candidates[type_].append(Candidate(key=p["source"], type=type_, row={
                "scenario": "paraphrase", "langpair": "sv", "source": p["source"], "hyp_good": p["good"],
                "hyp_bad": result.bad, "type": type_, "edit_from": result.source, "edit_to": result.target,
                "edit_start": result.start, "edit_detail": result.detail, "origin": p["origin"],
                "hyp_good_origin": p["origin"].split(":")[0]}))
    drop_famous_swaps(candidates, applicability["named-entity"], params.get("name_lm"))
    stats["applicability"] = {t: a.as_dict() for t, a in sorted(applicability.items())}
    return candidates, stats


def build_language(lang: str, raw_root: Path, params: dict, nlp) -> tuple[list[dict], dict, set]:
    """One language's rows of both splits, its stats, and the types that ran out (a shard of the build;
    ``nlp``: the English pipeline, unused for Swedish)."""
    from tasks.hallucigen.rejects import drop_rejected, rejects_in
    from tasks.hallucigen.select import balance_gender_directions, edit_side, select_balanced

    candidates, stats = (english_candidates(raw_root, params, nlp) if lang == "en"
                         else swedish_candidates(raw_root, params))
    stats["removed_by_blind_review"] = drop_rejected(candidates, rejects_in(params))
    stats["gender_dropped_for_direction_balance"] = balance_gender_directions(
        candidates, lang, random.Random(f"{params['seed']}:gender:{lang}"))
    chosen, exhausted = select_balanced(candidates, params["sizes"][lang],
                                        random.Random(f"{params['seed']}:select:{lang}"), params["max_type_share"],
                                        edit_side(lang), params.get("max_same_edit"))
    rows = [{**cand.row, "id": f"{lang}:{split}:{k}", "split": split}
            for split, picked in chosen.items() for k, cand in enumerate(picked)]
    stats["candidates"] = {t: len(c) for t, c in sorted(candidates.items())}
    stats["exhausted_types"] = sorted(exhausted)
    return rows, stats, exhausted
