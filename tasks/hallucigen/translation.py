"""HalluciGen translation dataset (overview §2.1): en-fr, fr-en, en-de, de-en.

Without ACES, every type but natural is built from PAWS-X pairs labelled paraphrase: for X->en the
English sentence1 is perturbed (source: the French/German sentence1), for en->X the French/German one
(source: the English sentence1). English tense and negation come from the `pawsx_edits` stage (its
re-tagging checks included), not from a second run of the edits. With the ACES source fetched and
switched on, its rows join the pool."""
from __future__ import annotations

import random
import re
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import pyarrow.parquet as pq

from tasks.edits import lexicons, modifiers
from tasks.edits.context import Context
from tasks.edits.library import TYPES, perturb
from tasks.edits.negation import english_denial_gives_away
from tasks.edits.result import Edit, Skip
from tasks.edits.spacy_model import tagger_of
from tasks.edits.tense import past_beside_future, tense_with_past_date, timeless_or_bounded
from tasks.hallucigen.aces import aces_candidates
from tasks.hallucigen.detokenize import plain_text
from tasks.hallucigen.entities import aligned_spans, name_forms, name_vectors, ner_spans, pool_of
from tasks.hallucigen.faithful import number_unlike_source, respelt_name
from tasks.hallucigen.famous_names import drop_famous_swaps
from tasks.hallucigen.rejects import drop_rejected, rejects_in
from tasks.hallucigen.select import Candidate, balance_gender_directions, edit_side, select_balanced
from tasks.hallucigen.spelling import colon_end, garbled, lower_start, misspelt
from tasks.pawsx.build import SPLIT_FILES, pawsx_file
from tasks.pawsx.reader import file_accounting, read_pawsx
from tasks.stats import Tally


def pawsx_pool(raw_dir: Path, splits: list[str]) -> tuple[list[dict], dict, dict[str, list[tuple[str, str]]]]:
    """Paraphrase-labelled PAWS-X ids with their en/fr/de sentence1 (a language may be missing), the file
    tallies, and per language the sentences of paraphrase-labelled items with their item key (the corpus of
    attested modifiers; the other pairs' word swaps make odd phrases: 'his twin father')."""
    items, tallies, corpus = [], {}, {}
    for split in splits:
        by_lang = {}
        for lang in ("en", "fr", "de"):
            name = f"x-final/{lang}/{SPLIT_FILES[split]}"
            rows, rejects, tally = read_pawsx(pawsx_file(raw_dir, lang, split), name, required=("sentence1",))
            tallies[name] = file_accounting(tally, rejects)
            by_lang[lang] = {r.id: r for r in rows}
            corpus.setdefault(lang, []).extend((f"pawsx:{split}:{r.id}", t) for r in rows if r.label == 1
                                               for t in (r.sentence1, r.sentence2) if t)
        for pid, row in by_lang["en"].items():
            if row.label == 1:
                items.append({"key": f"pawsx:{split}:{pid}", "en": row.sentence1,
                              **{lang: by_lang[lang][pid].sentence1 for lang in ("fr", "de") if pid in by_lang[lang]}})
    return items, tallies, corpus


FOUNDATION_TYPES = ("tense", "negation")  # English edits of the pawsx_edits stage


def foundation_edits(examples_file: Path) -> dict[tuple[str, str, str], Edit]:
    """(langpair, type, item key) -> the checked English edit of the pawsx_edits stage."""
    edits = {}
    for r in pq.read_table(examples_file).to_pylist():
        edits[(r["langpair"], r["type"], f"pawsx:{r['pawsx_split']}:{r['pawsx_id']}")] = Edit(
            type=r["type"], good=r["hyp_good"], bad=r["hyp_bad"], start=r["edit_start"], source=r["edit_from"],
            target=r["edit_to"], detail=r["edit_detail"])
    return edits


def _foundation_edit(edits: dict, direction: str, type_: str, it: dict) -> Edit | Skip:
    edit = edits.get((direction, type_, it["key"]))
    if edit is None or edit.good != it["en"]:
        return Skip("not_in_pawsx_edits")
    if type_ == "tense" and timeless_or_bounded(edit.good):
        return Skip(timeless_or_bounded(edit.good))
    if type_ == "tense" and tense_with_past_date(edit, "en"):
        return Skip("tense_with_past_date")
    if type_ == "tense" and past_beside_future(edit):
        return Skip("past_beside_future")
    given_away = type_ == "negation" and english_denial_gives_away(edit)
    return Skip(given_away) if given_away else edit


@lru_cache(maxsize=1)
def _english_gender_words() -> frozenset[str]:
    """Every word of the English gender lexicon, lower-cased."""
    return frozenset(w.lower() for pair in lexicons.rows("gender", "en") for w in pair)


def states_gender(english: str) -> bool:
    """Whether an English sentence names a gender (a word of the English gender lexicon, or its plural). Without
    one, a gendered translation ('was born to a family' -> 'als Sohn') is itself unsupported, and its swap is no
    hallucination (blind reviews: 2/11 such en->X gender edits valid)."""
    words = _english_gender_words()
    return any(w in words or (w.endswith("s") and w[:-1] in words) for w in re.findall(r"[\w.]+", english.lower()))


FRENCH_PERSON_GENDER = re.compile(r"\b(?:il|elle|ils|elles|née?s?|lui-même|elle-même)\b", re.IGNORECASE)


def possessor_unstated(detail: str, french: str) -> bool:
    """Whether an English gender edit changed only possessives ('his->her') of a French source that states no
    gender: French son/sa/ses do not mark the possessor's, so 'her films' for 'ses films' is as supported as
    'his films' (judged no hallucination twice on the blind review). A pronoun (il, elle), a participle (né,
    née) or a word of the French gender lexicon states one."""
    if any(part.split("->")[0].lower() not in ("his", "her", "hers") for part in detail.split(",")):
        return False
    words = {w.lower() for pair in lexicons.rows("gender", "fr") for w in pair}
    return not FRENCH_PERSON_GENDER.search(french) and not words & set(re.findall(r"\w+", french.lower()))


def direction_candidates(direction: str, items: list[dict], nlp: dict, params: dict, edits: dict | None = None,
                         corpus: dict[str, list[tuple[str, str]]] | None = None
                         ) -> tuple[dict[str, list[Candidate]], dict[str, Tally]]:
    """Perturb the target side of up to params['pool_per_direction'] seeded-random items with every type
    (X->en tense and negation: the pawsx_edits edit of the item when ``edits`` are given; additions: the
    modifiers ``corpus`` sentences of the target language attest, the item's own excepted). With
    params 'min_pair_similarity' only items at or above it are sampled (``with_similarity``); with
    'entity_encoder' entity swaps take a nearest name (the detector training pairs set neither). An item whose
    target sentence has a misspelt word, opens in lower case or ends on a colon, or whose source or target is garbled
    (tasks/hallucigen/spelling.py), whose pair disagrees on a number or a name (tasks/hallucigen/faithful.py), or whose
    pair drifts under a second encoder (``drifting_keys``) or against the third language (params 'min_pivot_margin',
    ``pivot_margin``), gives no example."""
    corpus = corpus or {}
    src_lang, tgt_lang = direction.split("-")
    rng = random.Random(f"{params['seed']}:{direction}")
    other, floor = (src_lang if tgt_lang == "en" else tgt_lang), params.get("min_pair_similarity")
    usable = [it for it in items if src_lang in it and tgt_lang in it
              and (floor is None or it["similarity"][other] >= floor[other])]
    sample = rng.sample(usable, min(len(usable), params["pool_per_direction"]))
    targets = [it[tgt_lang] for it in sample]
    pivot_floor = (params.get("min_pivot_margin") or {}).get(other)
    drifting = drifting_keys(sample, other, params) | {
        it["key"] for it in sample if pivot_floor is not None
        and (margin := pivot_margin(it["similarity"], other)) is not None and margin < pivot_floor}
    docs = list(nlp[tgt_lang].pipe(targets)) if tgt_lang in nlp else [None] * len(sample)
    if tgt_lang in nlp:
        spans = [ner_spans(d, tgt_lang) for d in docs]
    else:  # German: English entities found verbatim in the German sentence
        spans = [aligned_spans(t, d) for t, d in zip(targets, nlp["en"].pipe(it["en"] for it in sample))]
    pool = pool_of(list(zip(targets, spans)), tgt_lang)
    vectors = (name_vectors(name_forms(list(zip(targets, spans)), pool), params["entity_encoder"])
               if params.get("entity_encoder") else {})
    attested = modifiers.attested([t for _, t in corpus.get(tgt_lang, [])], tgt_lang)
    own_sentences = defaultdict(list)  # an item's own sentences never attest its modifier
    for key, t in corpus.get(tgt_lang, []):
        own_sentences[key].append(t)
    tag = tagger_of(nlp[tgt_lang]) if tgt_lang in nlp else None
    candidates: dict[str, list[Candidate]] = defaultdict(list)
    tallies: dict[str, Tally] = defaultdict(Tally)
    for it, text, doc, ents in zip(sample, targets, docs, spans):
        own = modifiers.attested(own_sentences[it["key"]], tgt_lang)
        flaw = ("misspelt_hyp_good" if misspelt(text, it[src_lang], tgt_lang) else "garbled_hyp_good"
                if garbled(text) else "garbled_source" if garbled(it[src_lang]) else "lower_case_hyp_good"
                if lower_start(text, it[src_lang]) else "colon_end_hyp_good" if colon_end(text, it[src_lang])
                else "number_unlike_source" if number_unlike_source(text, it[src_lang]) is not None
                else "name_unlike_source" if respelt_name(text, it[src_lang], tgt_lang)
                else "drifting_translation" if it["key"] in drifting else None)
        for type_ in [t for t in TYPES if t in params["types"]]:
            if flaw is not None:
                tallies[type_].reject(flaw)  # both hypotheses would carry it, or hyp+ would mend the source
                continue
            if edits is not None and tgt_lang == "en" and type_ in FOUNDATION_TYPES:
                result = _foundation_edit(edits, direction, type_, it)
            else:
                ctx = Context(tgt_lang, random.Random(f"{params['seed']}:{direction}:{type_}:{it['key']}"), doc, ents,
                              pool, attested, tag, name_vectors=vectors,
                              own_modifiers=own)
                result = perturb(type_, text, ctx)
            if isinstance(result, Edit) and type_ == "gender" and (
                    (src_lang == "en" and not states_gender(it["en"]))
                    or (src_lang == "fr" and possessor_unstated(result.detail, it["fr"]))):
                result = Skip("source_without_gender")
            if not isinstance(result, Edit):
                tallies[type_].reject(result.reason)
                continue
            tallies[type_].keep()
            candidates[type_].append(Candidate(key=it[src_lang], type=type_, row={  # one example per source text
                "scenario": "translation", "langpair": direction, "source": it[src_lang], "hyp_good": text,
                "hyp_bad": result.bad, "type": type_, "edit_from": result.source, "edit_to": result.target,
                "edit_start": result.start, "edit_detail": result.detail, "origin": it["key"],
                "hyp_good_origin": "pawsx"}))
    return candidates, tallies


def with_similarity(items: list[dict], encoder: str) -> list[dict]:
    """Each item with the encoder cosine of its English sentence and each translation ({'fr': .., 'de': ..}):
    a PAWS-X translation that drifts from its English (a mistranslation, a dropped phrase) scores low."""
    from tasks.detectors.similarity import sentence_encoder

    texts = sorted({it[lang] for it in items for lang in ("en", "fr", "de") if lang in it})
    vectors = dict(zip(texts, sentence_encoder(encoder, batch_size=64).embed(texts)))
    out = []
    for it in items:
        sim = {lang: float(vectors[it["en"]] @ vectors[it[lang]]) for lang in ("fr", "de") if lang in it}
        if len(sim) == 2:
            sim["fr-de"] = float(vectors[it["fr"]] @ vectors[it["de"]])
        out.append({**it, "similarity": sim})
    return out


def pivot_margin(similarity: dict[str, float], lang: str) -> float | None:
    """How well the ``lang`` translation agrees with the English and with the other translation (the mean of the two
    cosines) above how well the other translation agrees with the English; None for an item with one translation.
    A negative margin makes ``lang`` the odd one of three: the mistranslation a low English cosine alone misses
    when the sentence is hard for the encoder (``with_similarity`` similarities)."""
    if "fr-de" not in similarity:
        return None
    other = "de" if lang == "fr" else "fr"
    return (similarity[lang] + similarity["fr-de"]) / 2 - similarity[other]


def drifting_keys(items: list[dict], lang: str, params: dict) -> set[str]:
    """Keys of ``items`` whose English and ``lang`` sentences fall below ``min_confirm_pair_similarity[lang]``
    under the second encoder ``confirm_encoder`` (none without both): on the judged French rows EmbeddingGemma
    told mistranslated references apart better than e5 (AUROC 0.76 against 0.61 in en-fr)."""
    floor = (params.get("min_confirm_pair_similarity") or {}).get(lang)
    if floor is None or not params.get("confirm_encoder"):
        return set()
    from tasks.detectors.similarity import pair_similarities

    sims = pair_similarities([(it["en"], it[lang]) for it in items], params["confirm_encoder"])
    return {it["key"] for it in items if sims[(it["en"], it[lang])] < floor}


def translation_pool(raw_root: Path, params: dict, pawsx_examples: Path) -> dict:
    """What every direction shares: the PAWS-X items and their file tallies, the pawsx_edits edits
    (``pawsx_examples``: that stage's examples.parquet), the ACES candidates by direction and the examples the
    blind review rejected."""
    items, file_tallies, corpus = pawsx_pool(Path(raw_root) / "pawsx", params["pawsx_splits"])
    items = with_similarity(items, params["entity_encoder"])
    aces, aces_tally = ({}, None)
    if params["use_aces"]:
        aces, aces_tally = aces_candidates(Path(raw_root) / "aces" / "challenge_set.jsonl", params["directions"])
    return {"items": items, "files": file_tallies, "edits": foundation_edits(pawsx_examples), "aces": aces,
            "aces_tally": aces_tally, "corpus": corpus, "rejects": rejects_in(params)}


def build_direction(direction: str, pool: dict, nlp: dict, params: dict) -> tuple[list[dict], dict, set]:
    """One direction's rows of both splits (PAWS-X text as plain text), its stats, and the types that ran out
    (a shard of the build)."""
    candidates, tallies = direction_candidates(direction, pool["items"], nlp, params, pool["edits"], pool["corpus"])
    drop_famous_swaps(candidates, tallies["named-entity"], params.get("name_lm"))
    for cand in pool["aces"].get(direction, []):
        candidates[cand.type].append(cand)
    rejected = drop_rejected(candidates, pool["rejects"])
    gender_dropped = balance_gender_directions(candidates, direction.split("-")[1],
                                               random.Random(f"{params['seed']}:gender:{direction}"))
    chosen, exhausted = select_balanced(candidates, params["sizes"],
                                        random.Random(f"{params['seed']}:select:{direction}"), params["max_type_share"],
                                        edit_side(direction.split("-")[1]))
    rows = [plain_text({**cand.row, "id": f"{direction}:{split}:{k}", "split": split})
            for split, picked in chosen.items() for k, cand in enumerate(picked)]
    stats = {"applicability": {t: tallies[t].as_dict() for t in sorted(tallies)},
             "candidates": {t: len(c) for t, c in sorted(candidates.items())},
             "removed_by_blind_review": rejected,
             "gender_dropped_for_direction_balance": gender_dropped,
             "selected": {split: _count_types(picked) for split, picked in chosen.items()},
             "exhausted_types": sorted(exhausted)}
    return rows, stats, exhausted


def merge_directions(pool: dict, params: dict, shards: list[tuple[list[dict], dict, set]]
                     ) -> tuple[list[dict], dict, dict[str, set]]:
    """The directions' shards (in params order) as the build's rows, stats and exhausted types."""
    floor = params["min_pair_similarity"]
    drift = {lang: sum(1 for it in pool["items"] if lang in it["similarity"] and it["similarity"][lang] < floor[lang])
             for lang in ("fr", "de")}
    rows, stats, exhausted = [], {"files": pool["files"], "pool_items": len(pool["items"]),
                                  "pool_items_below_pair_similarity": drift, "directions": {}}, {}
    for direction, (shard_rows, shard_stats, shard_exhausted) in zip(params["directions"], shards):
        rows += shard_rows
        stats["directions"][direction], exhausted[direction] = shard_stats, shard_exhausted
    if pool["aces_tally"] is not None:
        stats["aces"] = pool["aces_tally"].as_dict()
    return rows, stats, exhausted


def _count_types(picked: list[Candidate]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for cand in picked:
        counts[cand.type] += 1
    return dict(sorted(counts.items()))
