"""HalluciGen translation dataset (overview §2.1): en-fr, fr-en, en-de, de-en. One direction reads as blocks:

    pool     translation_pool, sample_items            PAWS-X items (and ACES rows) of the direction
    filters  PAIR_FILTERS, PAWSX_EDIT_FILTERS,         each names the reason an item or an edit gives no example
             source_without_gender
    perturb  direction_candidates                      every type on each item that passes
    select   build_direction -> build.select_shard     review rejects, gender balance, balanced splits
    gates    build.check_build (in the flow)
    write    outputs.write_hallucigen (in the flow)

Without ACES, every type but natural is built from PAWS-X pairs labelled paraphrase: for X->en the English
sentence1 is perturbed (source: the French/German sentence1), for en->X the French/German one (source: the
English sentence1). English tense and negation come from the `pawsx_edits` stage (its re-tagging checks
included), not from a second run of the edits. With the ACES source fetched and switched on, its rows join the
pool."""
from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pyarrow.parquet as pq

from tasks.edits import lexicons, modifiers
from tasks.edits.context import Context
from tasks.edits.library import perturb
from tasks.edits.negation import english_denial_gives_away
from tasks.edits.numerals import foreign_month
from tasks.edits.result import Edit, Skip
from tasks.edits.spacy_model import tagger_of
from tasks.edits.tense import past_beside_future, tense_with_past_date, timeless_or_bounded
from tasks.hallucigen import faithful
from tasks.hallucigen.aces import ACES_TYPES, aces_candidates
from tasks.hallucigen.build import (
    addition_on_twin,
    applicability,
    build_types,
    candidate,
    first_reject,
    record,
    select_shard,
    type_counts,
)
from tasks.hallucigen.entities import aligned_spans, name_forms, name_vectors, ner_spans, pool_of
from tasks.hallucigen.famous_names import drop_famous_swaps
from tasks.hallucigen.rejects import rejects_in
from tasks.hallucigen.select import Candidate
from tasks.hallucigen.spelling import colon_end, garbled, lower_start, misspelt
from tasks.models.sentence import pair_similarities, sentence_encoder
from tasks.pawsx.build import SPLIT_FILES, pawsx_file
from tasks.pawsx.reader import file_accounting, read_pawsx
from tasks.stats import Tally
from tasks.text import copies

# --- Pool ---------------------------------------------------------------------------------------------------


def pawsx_pool(raw_dir: Path, splits: list[str]) -> tuple[list[dict], dict, dict[str, list[tuple[str, str]]]]:
    """Paraphrase-labelled PAWS-X ids with their en/fr/de sentence1 (a language may be missing) and sentence2, its
    twin, as 'en2', 'fr2', 'de2' where there is one (a paraphrase of sentence1: another faithful wording), the file
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
                rows = {lang: by_lang[lang][pid] for lang in ("en", "fr", "de") if pid in by_lang[lang]}
                items.append({"key": f"pawsx:{split}:{pid}", **{lang: r.sentence1 for lang, r in rows.items()},
                              **{f"{lang}2": r.sentence2 for lang, r in rows.items() if r.sentence2}})
    return items, tallies, corpus


def with_similarity(items: list[dict], encoder: str) -> list[dict]:
    """Each item with the encoder cosine of its English sentence and each translation ({'fr': .., 'de': ..}, and
    'fr-de' where it has both): a PAWS-X translation that drifts from its English (a mistranslation, a dropped
    phrase) scores low. Likewise each twin with the other language's sentence1 ('fr2': French sentence2 with the
    English sentence1, 'en2-fr': English sentence2 with the French sentence1)."""
    texts = sorted({it[key] for it in items for key in TEXT_KEYS if key in it})
    vectors = dict(zip(texts, sentence_encoder(encoder, batch_size=64).embed(texts, "PAWS-X pair similarity")))
    out = []
    for it in items:
        sim = {lang: float(vectors[it["en"]] @ vectors[it[lang]]) for lang in ("fr", "de") if lang in it}
        if len(sim) == 2:
            sim["fr-de"] = float(vectors[it["fr"]] @ vectors[it["de"]])
        sim.update({f"{lang}2": float(vectors[it["en"]] @ vectors[it[f"{lang}2"]]) for lang in ("fr", "de")
                    if lang in it and f"{lang}2" in it})
        sim.update({f"en2-{lang}": float(vectors[it["en2"]] @ vectors[it[lang]]) for lang in ("fr", "de")
                    if lang in it and "en2" in it})
        out.append({**it, "similarity": sim})
    return out


TEXT_KEYS = ("en", "fr", "de", "en2", "fr2", "de2")


FOUNDATION_TYPES = ("tense", "negation")  # English edits of the pawsx_edits stage


def foundation_edits(examples_file: Path) -> dict[tuple[str, str, str], Edit]:
    """(langpair, type, item key) -> the checked English edit of the pawsx_edits stage."""
    edits = {}
    for r in pq.read_table(examples_file).to_pylist():
        edits[(r["langpair"], r["type"], f"pawsx:{r['pawsx_split']}:{r['pawsx_id']}")] = Edit(
            type=r["type"], good=r["hyp_good"], bad=r["hyp_bad"], start=r["edit_start"], source=r["edit_from"],
            target=r["edit_to"], detail=r["edit_detail"])
    return edits


def translation_pool(raw_root: Path, params: dict, pawsx_examples: Path) -> dict:
    """What every direction shares: the PAWS-X items and their file tallies, the pawsx_edits edits
    (``pawsx_examples``: that stage's examples.parquet), the ACES candidates by direction and the examples the
    blind review rejected."""
    items, file_tallies, corpus = pawsx_pool(Path(raw_root) / "pawsx", params["pawsx_splits"])
    items = with_similarity(items, params["entity_encoder"])
    aces, aces_tally = ({}, None)
    if params["source"] == "aces":
        aces, aces_tally = aces_candidates(Path(raw_root) / "aces" / "challenge_set.jsonl", params["directions"])
    return {"items": items, "files": file_tallies, "edits": foundation_edits(pawsx_examples), "aces": aces,
            "aces_tally": aces_tally, "corpus": corpus, "rejects": rejects_in(params)}


def translated_lang(direction: str) -> str:
    """The language of a direction that is not English: 'fr' for both 'en-fr' and 'fr-en'."""
    src_lang, tgt_lang = direction.split("-")
    return src_lang if tgt_lang == "en" else tgt_lang


def sample_items(direction: str, items: list[dict], params: dict) -> list[dict]:
    """Up to params['pool_per_direction'] seeded-random items that have both languages of ``direction``; with
    params 'min_pair_similarity' ({'fr': 0.9}) only those whose translation reaches it under ``with_similarity``
    (an fr item at 0.85 is left out)."""
    src_lang, tgt_lang = direction.split("-")
    other, floor = translated_lang(direction), params.get("min_pair_similarity")
    usable = [it for it in items if src_lang in it and tgt_lang in it
              and (floor is None or it["similarity"][other] >= floor[other])]
    return random.Random(f"{params['seed']}:{direction}").sample(usable, min(len(usable), params["pool_per_direction"]))


# --- Filters: each returns the reason its item or edit gives no example, or None -----------------------------


@dataclass(frozen=True)
class Pair:
    """An item as the pair filters see it: its source, its hyp+ (the target sentence, in ``lang``) and whether
    its translation drifts (``drifting_items``)."""
    source: str
    good: str
    lang: str
    drifting: bool


def misspelt_hyp_good(p: Pair) -> str | None:
    """hyp+ has a misspelt word (spelling.misspelt)."""
    return "misspelt_hyp_good" if misspelt(p.good, p.source, p.lang) else None


def garbled_hyp_good(p: Pair) -> str | None:
    """hyp+ is garbled: a doubled word, an unclosed quote (spelling.garbled)."""
    return "garbled_hyp_good" if garbled(p.good) else None


def garbled_source(p: Pair) -> str | None:
    """The source is garbled (spelling.garbled)."""
    return "garbled_source" if garbled(p.source) else None


def lower_case_hyp_good(p: Pair) -> str | None:
    """hyp+ opens in lower case where its source does not ('le Parc national ...' for 'The ...')."""
    return "lower_case_hyp_good" if lower_start(p.good, p.source) else None


def colon_end_hyp_good(p: Pair) -> str | None:
    """hyp+ ends on a colon where its source ends its sentence (a list cut off)."""
    return "colon_end_hyp_good" if colon_end(p.good, p.source) else None


def number_unlike_source(p: Pair) -> str | None:
    """hyp+ and source disagree on a number ('1998' for '1989': faithful.number_unlike_source)."""
    return "number_unlike_source" if faithful.number_unlike_source(p.good, p.source) is not None else None


def name_unlike_source(p: Pair) -> str | None:
    """hyp+ spells a name of the source differently (faithful.respelt_name)."""
    return "name_unlike_source" if faithful.respelt_name(p.good, p.source, p.lang) else None


def foreign_month_hyp_good(p: Pair) -> str | None:
    """hyp+ dates with another language's month name ('am 6 January 2015': numerals.foreign_month)."""
    return "foreign_month_hyp_good" if foreign_month(p.good, p.lang) else None


def drifting_translation(p: Pair) -> str | None:
    """The translation drifts from its English (``drifting_items``)."""
    return "drifting_translation" if p.drifting else None


def copies_source_language(p: Pair) -> str | None:
    """hyp+ says its source word for word (a title or a list of names left untranslated): beside it, any edited
    hyp- is the one that differs from the source."""
    return "hyp_good_copies_source" if copies(p.source, p.good) else None


# In this order: an item that fails several is counted under the first. A failing item gives no example of any
# type: both hypotheses would carry the flaw, or hyp+ would mend the source.
PAIR_FILTERS = (misspelt_hyp_good, garbled_hyp_good, garbled_source, lower_case_hyp_good, colon_end_hyp_good,
                number_unlike_source, name_unlike_source, foreign_month_hyp_good, drifting_translation,
                copies_source_language)


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
    under the second encoder ``confirm_encoder`` (none without both): a mistranslated reference the first encoder
    scores high can still score low under a second one."""
    floor = (params.get("min_confirm_pair_similarity") or {}).get(lang)
    if floor is None or not params.get("confirm_encoder"):
        return set()
    sims = pair_similarities([(it["en"], it[lang]) for it in items], params["confirm_encoder"])
    return {it["key"] for it in items if sims[(it["en"], it[lang])] < floor}


def drifting_items(items: list[dict], lang: str, params: dict) -> set[str]:
    """Keys of the items whose ``lang`` translation drifts: below the second encoder's floor (``drifting_keys``),
    or with params 'min_pivot_margin' ({'fr': -0.026}) a ``pivot_margin`` below it."""
    pivot_floor = (params.get("min_pivot_margin") or {}).get(lang)
    return drifting_keys(items, lang, params) | {
        it["key"] for it in items if pivot_floor is not None
        and (margin := pivot_margin(it["similarity"], lang)) is not None and margin < pivot_floor}


def timeless_tense(edit: Edit) -> str | None:
    """A tense edit of a sentence no tense edit suits ('so far', a formula, a naming: tense.timeless_or_bounded)."""
    return timeless_or_bounded(edit.good) or None


def tense_beside_past_date(edit: Edit) -> str | None:
    """A present or future put next to a date long past ('In 1924 he is')."""
    return "tense_with_past_date" if tense_with_past_date(edit, "en") else None


def past_tense_beside_future(edit: Edit) -> str | None:
    """An edit into the past that leaves a future beside it ('the code would work (it will be applied)')."""
    return "past_beside_future" if past_beside_future(edit) else None


def negation_gives_away(edit: Edit) -> str | None:
    """A negation that reads as wrong without the source ('did not leave Philadelphia in 1777')."""
    return english_denial_gives_away(edit) or None


# The checks a pawsx_edits edit passes before it becomes a candidate, by type, in order.
PAWSX_EDIT_FILTERS: dict[str, tuple[Callable[[Edit], str | None], ...]] = {
    "tense": (timeless_tense, tense_beside_past_date, past_tense_beside_future),
    "negation": (negation_gives_away,),
}


@lru_cache(maxsize=1)
def _english_gender_words() -> frozenset[str]:
    """Every word of the English gender lexicon, lower-cased."""
    return frozenset(w.lower() for pair in lexicons.rows("gender", "en") for w in pair)


def states_gender(english: str) -> bool:
    """Whether an English sentence names a gender (a word of the English gender lexicon, or its plural). Without
    one, a gendered translation ('was born to a family' -> 'als Sohn') is itself unsupported, and its swap is no
    hallucination."""
    words = _english_gender_words()
    return any(w in words or (w.endswith("s") and w[:-1] in words) for w in re.findall(r"[\w.]+", english.lower()))


FRENCH_PERSON_GENDER = re.compile(r"\b(?:il|elle|ils|elles|née?s?|lui-même|elle-même)\b", re.IGNORECASE)


def possessor_unstated(detail: str, french: str) -> bool:
    """Whether an English gender edit changed only possessives ('his->her') of a French source that states no
    gender: French son/sa/ses do not mark the possessor's, so 'her films' for 'ses films' is as supported as
    'his films'. A pronoun (il, elle), a participle (né, née) or a word of the French gender lexicon states one."""
    if any(part.split("->")[0].lower() not in ("his", "her", "hers") for part in detail.split(",")):
        return False
    words = {w.lower() for pair in lexicons.rows("gender", "fr") for w in pair}
    return not FRENCH_PERSON_GENDER.search(french) and not words & set(re.findall(r"\w+", french.lower()))


def source_without_gender(type_: str, edit: Edit, item: dict, src_lang: str) -> str | None:
    """A gender edit whose source states no gender: an English source without a gender word (``states_gender``),
    a French one whose only change is a possessive (``possessor_unstated``)."""
    unstated = type_ == "gender" and ((src_lang == "en" and not states_gender(item["en"]))
                                      or (src_lang == "fr" and possessor_unstated(edit.detail, item["fr"])))
    return "source_without_gender" if unstated else None


# --- Perturb ------------------------------------------------------------------------------------------------


def pawsx_edit_for(edits: dict, direction: str, type_: str, item: dict) -> Edit | Skip:
    """The pawsx_edits stage's English ``type_`` edit of ``item`` in ``direction``, or a Skip: 'not_in_pawsx_edits'
    (none, or one of another English sentence), else the reason of the first ``PAWSX_EDIT_FILTERS`` check it
    fails (an 'insert:not' of 'The regiment left Philadelphia in 1777 .': 'denied_dated_fact')."""
    edit = edits.get((direction, type_, item["key"]))
    if edit is None or edit.good != item["en"]:
        return Skip("not_in_pawsx_edits")
    reason = first_reject(PAWSX_EDIT_FILTERS.get(type_, ()), edit)
    return Skip(reason) if reason is not None else edit


def edit_contexts(direction: str, sample: list[dict], nlp: dict, params: dict,
                  corpus: dict[str, list[tuple[str, str]]]) -> list[Callable[[str], Context]]:
    """Per item of ``sample``, the edit Context of a type: the target sentence's spaCy doc (None without a
    pipeline: German) and entity spans, the pool of the sample's entities (a nearest name only with params
    'entity_encoder'), the modifiers the ``corpus`` sentences of the target language attest and those of the
    item's own sentences (never its modifier), the tagger, and an RNG seeded by direction, type and item."""
    tgt_lang = direction.split("-")[1]
    targets = [it[tgt_lang] for it in sample]
    docs = list(nlp[tgt_lang].pipe(targets)) if tgt_lang in nlp else [None] * len(sample)
    if tgt_lang in nlp:
        spans = [ner_spans(d, tgt_lang) for d in docs]
    else:  # German: English entities found verbatim in the German sentence
        spans = [aligned_spans(t, d) for t, d in zip(targets, nlp["en"].pipe(it["en"] for it in sample))]
    pool = pool_of(list(zip(targets, spans)), tgt_lang)
    vectors = (name_vectors(name_forms(list(zip(targets, spans)), pool), params["entity_encoder"])
               if params.get("entity_encoder") else {})
    attested, own_of = modifier_tables(corpus, tgt_lang)
    tag = tagger_of(nlp[tgt_lang]) if tgt_lang in nlp else None

    def context_of(it: dict, doc, ents: list) -> Callable[[str], Context]:
        own = own_of(it["key"])
        return lambda type_: Context(tgt_lang, random.Random(f"{params['seed']}:{direction}:{type_}:{it['key']}"),
                                     doc, ents, pool, attested, tag, name_vectors=vectors, own_modifiers=own)

    return [context_of(it, doc, ents) for it, doc, ents in zip(sample, docs, spans)]


def modifier_tables(corpus: dict[str, list[tuple[str, str]]], lang: str
                    ) -> tuple[dict, Callable[[str], dict]]:
    """The modifiers the ``corpus`` sentences of ``lang`` attest, and per item key those of its own sentences
    (taken off the counts: an item never attests its own modifier)."""
    own_sentences: dict[str, list[str]] = defaultdict(list)
    for key, t in corpus.get(lang, []):
        own_sentences[key].append(t)
    return (modifiers.attested([t for _, t in corpus.get(lang, [])], lang),
            lambda key: modifiers.attested(own_sentences[key], lang))


def twin_of(direction: str, item: dict, params: dict) -> str | None:
    """The item's twin in the target language (PAWS-X sentence2: 'fr2' for en-fr, 'en2' for fr-en) where it passes
    the pair filters as hyp+ would and reaches the direction's similarity floor with the source, else None."""
    src_lang, tgt_lang = direction.split("-")
    twin = item.get(f"{tgt_lang}2")
    floor = (params.get("min_pair_similarity") or {}).get(translated_lang(direction))
    key = f"{tgt_lang}2" if tgt_lang != "en" else f"en2-{src_lang}"
    if twin is None or (floor is not None and item.get("similarity", {}).get(key, 0.0) < floor):
        return None
    return twin if first_reject(PAIR_FILTERS, Pair(item[src_lang], twin, tgt_lang, False)) is None else None


def twin_contexts(direction: str, sample: list[dict], nlp: dict, params: dict,
                  corpus: dict[str, list[tuple[str, str]]]) -> list[tuple[str, Context] | None]:
    """Per item of ``sample``, its twin (``twin_of``; None without one) and the twin's addition Context: its doc,
    the modifiers as in ``edit_contexts``, the tagger, and hyp+ as the ``source`` whose words it never inserts."""
    tgt_lang = direction.split("-")[1]
    twins = [twin_of(direction, it, params) for it in sample]
    docs = (list(nlp[tgt_lang].pipe(t or "" for t in twins)) if tgt_lang in nlp else [None] * len(sample))
    attested, own_of = modifier_tables(corpus, tgt_lang)
    tag = tagger_of(nlp[tgt_lang]) if tgt_lang in nlp else None
    return [(twin, Context(tgt_lang, random.Random(f"{params['seed']}:{direction}:addition-twin:{it['key']}"), doc,
                           modifiers=attested, tag=tag, source=it[tgt_lang], own_modifiers=own_of(it["key"])))
            if twin else None for it, twin, doc in zip(sample, twins, docs)]


def item_candidate(direction: str, type_: str, item: dict, context: Callable[[str], Context],
                   edits: dict | None, twin: tuple[str, Context] | None = None) -> Candidate | str:
    """The ``type_`` candidate of one item, or why there is none. X->en tense and negation take the pawsx_edits
    edit when ``edits`` are given; an addition is made to the item's twin where one no longer than hyp+ results
    (``twin``: it and its Context; build.addition_on_twin); every other edit is the library's perturbation of the target
    sentence."""
    src_lang, tgt_lang = direction.split("-")
    on_twin = addition_on_twin(item[tgt_lang], twin) if type_ == "addition" else None
    if on_twin is not None:
        return candidate("translation", direction, item[src_lang], item[tgt_lang], "pawsx", type_, on_twin.bad,
                         item["key"], detail=on_twin.detail)
    if edits is not None and tgt_lang == "en" and type_ in FOUNDATION_TYPES:
        result = pawsx_edit_for(edits, direction, type_, item)
    else:
        result = perturb(type_, item[tgt_lang], context(type_))
    if not isinstance(result, Edit):
        return result.reason
    reason = source_without_gender(type_, result, item, src_lang)
    if reason is not None:
        return reason
    return candidate("translation", direction, item[src_lang], item[tgt_lang], "pawsx", type_, result, item["key"])


def direction_candidates(direction: str, items: list[dict], nlp: dict, params: dict, edits: dict | None = None,
                         corpus: dict[str, list[tuple[str, str]]] | None = None
                         ) -> tuple[dict[str, list[Candidate]], dict[str, Tally]]:
    """Candidates by type and each type's tally for one direction: the ``sample_items`` sample, each item checked
    by ``PAIR_FILTERS`` (a failing item is a reject of every type), then perturbed with every type
    (``item_candidate``; additions: the modifiers ``corpus`` sentences of the target language attest, the item's
    own excepted). The detector training pairs pass neither ``edits`` nor the similarity params."""
    src_lang, tgt_lang = direction.split("-")
    sample = sample_items(direction, items, params)
    drifting = drifting_items(sample, translated_lang(direction), params)
    contexts = edit_contexts(direction, sample, nlp, params, corpus or {})
    twins = (twin_contexts(direction, sample, nlp, params, corpus or {}) if "addition" in params["types"]
             else [None] * len(sample))
    candidates: dict[str, list[Candidate]] = defaultdict(list)
    tallies: dict[str, Tally] = defaultdict(Tally)
    for it, context, twin in zip(sample, contexts, twins):
        flaw = first_reject(PAIR_FILTERS, Pair(it[src_lang], it[tgt_lang], tgt_lang, it["key"] in drifting))
        for type_ in build_types(params):
            record(candidates, tallies, type_,
                   flaw if flaw is not None else item_candidate(direction, type_, it, context, edits, twin))
    return candidates, tallies


# --- Select -------------------------------------------------------------------------------------------------


def with_aces(candidates: dict[str, list[Candidate]], aces: list[Candidate], direction: str) -> None:
    """The overview's construction (§2.1), in place: ACES rows are the only candidates of the types ACES has
    (``ACES_TYPES``), and tense and negation, which ACES lacks, come from PAWS-X in the X->en directions only
    (en-fr keeps no tense edit of its French hypothesis)."""
    for type_ in list(candidates):
        if type_ in ACES_TYPES or not direction.endswith("-en"):
            candidates[type_] = []
    for cand in aces:
        candidates.setdefault(cand.type, []).append(cand)


def build_direction(direction: str, pool: dict, nlp: dict, params: dict) -> tuple[list[dict], dict, set]:
    """One direction's rows of both splits (PAWS-X text as plain text), its stats, and the types that ran out
    (a shard of the build): its candidates less famous-name swaps, with its ACES candidates, through the shared
    tail (``select_shard``)."""
    candidates, tallies = direction_candidates(direction, pool["items"], nlp, params, pool["edits"], pool["corpus"])
    drop_famous_swaps(candidates, tallies["named-entity"], params.get("name_lm"))
    if params["source"] == "aces":
        with_aces(candidates, pool["aces"].get(direction, []), direction)
    rows, stats, exhausted = select_shard(direction, candidates, params, params["sizes"], pool["rejects"])
    selected = {split: type_counts([r for r in rows if r["split"] == split]) for split in params["sizes"]}
    return rows, {"applicability": applicability(tallies), **stats, "selected": selected}, exhausted


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
