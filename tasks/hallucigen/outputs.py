"""Writing a HalluciGen dataset (the last block of a build, after the gates: build.check_build): generation and
detection views per split, the published files, a dataset card and metrics."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from tasks.hallucigen.artifact_probe import card_lines as probe_card_lines
from tasks.hallucigen.fingerprint import fingerprint_lines
from tasks.hallucigen.review import published_review_lines, review_card_lines
from tasks.hallucigen.select import detection_row
from tasks.hallucigen.source_blind import card_lines
from tasks.io import atomic_dir, write_json, write_parquet
from tasks.schemas import HALLUCIGEN_DETECTION, HALLUCIGEN_GENERATION
from tasks.share.hub_card import HALLUCIGEN_CITATION, hallucigen_metadata, write_hub_files
from tasks.text import near_copy


def type_table(rows: list[dict]) -> list[dict]:
    counts = Counter((r["split"], r["langpair"], r["type"]) for r in rows)
    return [{"split": s, "langpair": lp, "type": t, "examples": n} for (s, lp, t), n in sorted(counts.items())]


def exhausted_lines(stats: dict) -> list[str]:
    """Types whose candidate pool ran out, per direction/language (their counts are below the others)."""
    groups = stats.get("directions") or {k: v for k, v in stats.items()
                                         if isinstance(v, dict) and "exhausted_types" in v}
    out = ["Types whose pool ran out (fewer examples; candidate counts in the metrics):", ""]
    out += [f"- {g}: {', '.join(v['exhausted_types']) or 'none'}" for g, v in sorted(groups.items())
            if "exhausted_types" in v]
    return out


def absent_type_lines(stats: dict, rows: list[dict]) -> list[str]:
    """Types the sources cannot supply, per direction/language: no example built and no source item gave a
    candidate, with the reasons counted (e.g. '- en-fr: conversion: 0 of 1492 source items (no_candidate 992,
    drifting_translation 413)'); a type whose examples come from elsewhere (ACES rows) is not one."""
    built = {(r["langpair"], r["type"]) for r in rows}
    out = []
    for group, tallies in _per_group(stats, "applicability"):
        for type_, tally in tallies.items():
            if tally["kept"] == 0 and (group, type_) not in built:
                reasons = ", ".join(f"{r} {n}" for r, n in sorted(tally["rejected_by_reason"].items(),
                                                                   key=lambda kv: (-kv[1], kv[0])))
                out.append(f"- {group}: {type_}: 0 of {tally['read']} source items ({reasons})")
    absent = {group for group, tallies in _per_group(stats, "applicability")
              if tallies.get("natural", {}).get("kept", 1) == 0}
    for group, offer in [(g, o) for g, o in _per_group(stats, "natural_sources") if g in absent]:
        out.append(f"- {group}: SHROOM PG sources with a paraphrase labelled Hallucination (a natural hyp-): "
                   f"{offer['labelled_hallucination']}; with another paraphrase to be hyp+: "
                   f"{offer['with_another_paraphrase']}; with one labelled Not Hallucination: "
                   f"{offer['with_one_labelled_faithful']}")
    return ["", "Types no source item gives a candidate for (reasons by count):", "", *out] if out else []


def short_split_lines(rows: list[dict], stats: dict, params: dict) -> list[str]:
    """Splits smaller than their configured size, per direction/language, with the faithful pool they drew on."""
    built = Counter((r["split"], r["langpair"]) for r in rows)
    out = []
    for (split, group), n in sorted(built.items()):
        size = params["sizes"].get(group, params["sizes"])[split]
        if n < size:
            pool = stats.get(group, {}).get("faithful_sources") if isinstance(stats.get(group), dict) else None
            out.append(f"- {group} {split}: {n} of {size} examples"
                       + (f" (one per source; {pool} sources with a faithful hyp+, shared by trial and test)"
                          if pool is not None else ""))
    return ["", "Splits below their size (the types' pools ran out first):", "", *out] if out else []


REMOVED_PAIRS = {  # a language's stats key: what the pairs it counts were removed for (paraphrase)
    "removed_one_side_adds": "one side adds content",
    "removed_lower_start": "hyp+ opens in lower case where its source does not",
    "removed_encoder_similarity": "they fall below the encoder similarity floor",
}


def faithful_lines(stats: dict) -> list[str]:
    """How many hyp+ candidates each faithfulness check removed (paraphrase)."""
    out = []
    for lang, lang_stats in sorted(stats.items()):
        if not isinstance(lang_stats, dict):
            continue
        if "hyp_good_removed_by_check" in lang_stats:
            removed = ", ".join(f"{k} {v}" for k, v in lang_stats["hyp_good_removed_by_check"].items())
            out.append(f"- {lang}: SHROOM paraphrases removed as hyp+, by check (one may fail several): {removed}")
        out += [f"- {lang}: pairs removed because {why}: {lang_stats[key]}" for key, why in REMOVED_PAIRS.items()
                if key in lang_stats]
    if "pool_items_below_pair_similarity" in stats:
        out += [f"- PAWS-X items whose {lang} translation falls below the encoder similarity floor with its English "
                f"sentence (left out): {n} of {stats['pool_items']}"
                for lang, n in stats["pool_items_below_pair_similarity"].items()]
    return ["", "Faithful hyp+:", "", *out] if out else []


def _per_group(stats: dict, key: str) -> list[tuple[str, object]]:
    """(direction or language, its ``key`` figure) for each group whose stats hold ``key``, sorted."""
    groups = stats.get("directions") or stats
    return [(g, v[key]) for g, v in sorted(groups.items()) if isinstance(v, dict) and key in v]


BALANCED = {  # a group's stats key: what the candidates it counts were dropped for (select.balance_*)
    "gender_dropped_for_direction_balance": "Gender candidates dropped so that each word pair, and all pairs "
    "together, go towards women and towards men within one of each other (a hypothesis-only detector would "
    "otherwise learn that 'she' is the hallucination)",
    "antonym_dropped_for_direction_balance": "Antonym candidates dropped so that each word pair goes both ways "
    "within one of each other (otherwise 'nord' beside 'sud' is the hallucination)",
    "negation_dropped_for_direction_balance": "Negation candidates dropped so that as many negations are removed "
    "as inserted, within one (otherwise the hypothesis with 'not' is the hallucinated one)",
    "future_dropped_for_direction_balance": "Tense candidates dropped so that as many edits go out of the future "
    "as into it, within one (otherwise 'will' marks the hallucination)",
    "addition_dropped_for_length_balance": "Addition candidates whose hyp- is longer than hyp+, dropped so that no "
    "more are kept than of either other side (hyp- as long or shorter: an addition to hyp+'s shorter twin; "
    "otherwise the longer hypothesis is the hallucinated one)",
    "addition_dropped_for_shared_word_balance": "Addition candidates whose hyp- holds the larger share of words "
    "missing from the other hypothesis, dropped so that no more are kept than of either other side (otherwise the "
    "hypothesis with a word the other lacks is the hallucinated one)",
}


def balance_lines(stats: dict) -> list[str]:
    """How many candidates each group dropped so that no direction of an edit gives the hallucination away."""
    out = []
    for key, why in BALANCED.items():
        counts = [f"- {g}: {n}" for g, n in _per_group(stats, key)]
        out += ["", f"{why}:", "", *counts] if counts else []
    return out


def review_reject_lines(stats: dict, rejects: str | None) -> list[str]:
    """How many candidates each group left out because the blind review had rejected them (rejects.py)."""
    out = [f"- {g}: {n['unfaithful_hyp_good']} on a hyp+ judged not faithful, {n['rejected_edit']} edits judged "
           "invalid" for g, n in _per_group(stats, "removed_by_blind_review")]
    return ["", f"Candidates left out because the blind review rejected them (`{rejects}`):", "", *out] if (
        out and rejects) else []


def near_copy_lines(rows: list[dict], max_share: float) -> list[str]:
    """Per split and direction/language, how many hyp+ are near-copies of their source (one word changed at most;
    no hyp+ copies it outright), against the cap ``max_near_copy_share``."""
    groups = Counter((r["split"], r["langpair"]) for r in rows)
    near = Counter((r["split"], r["langpair"]) for r in rows if near_copy(r["source"], r["hyp_good"]))
    return ["", f"hyp+ that are near-copies of their source (one word changed at most; cap: {max_share:.0%} of a "
            "split as built, the near-copies over it left out even where that leaves the split short; a copy, case "
            "and punctuation aside, is never used):", "",
            *[f"- {split} {lp}: {near[(split, lp)]} of {n}" for (split, lp), n in sorted(groups.items())]]


def probe_lines(probe: dict | None, source_blind: dict | None = None) -> list[str]:
    """The artifact probe's card section, the zero-shot fluency check's accuracy beside it (its own section
    follows) and the gate's verdict; a line saying it was not run when switched off."""
    if probe is None:
        return ["## Hypothesis-only artifact probe", "", "Not run in this build (`artifact_probe.enabled: false`).", ""]
    gate = probe["gate"]
    verdict = (["Gate: every gated figure is within its ceiling and above the floor."] if not gate["failures"] else
               [f"Gate ({'the build fails' if gate['on_exceed'] == 'fail' else 'a warning only'}):", "",
                *[f"- {line}" for line in gate["failures"]]])
    fluency = []
    if source_blind:
        cells = source_blind["by_split"].values()
        n = sum(c["n"] for c in cells)
        accuracy = sum(c["accuracy"] * c["n"] for c in cells) / n if n else 0.0
        fluency = [f"The zero-shot fluency check (untrained, next section) picks hyp- with accuracy {accuracy:.3f} "
                   f"over the same {n} examples.", ""]
    return [*probe_card_lines(probe, gate["ceilings"]), *fluency, *verdict, ""]


def render_card(scenario: str, rows: list[dict], stats: dict, params: dict, published: list[dict]) -> str:
    lines = [f"# HalluciGen {scenario} dataset", "",
             f"Built by `dvc repro hallucigen_{scenario}` (flow `flows/hallucigen_{scenario}.py`) from `data/raw/`, "
             "following the CLEF-2024 ELOQUENT HalluciGen overview §2. Schemas: `HALLUCIGEN_GENERATION` and "
             "`HALLUCIGEN_DETECTION` in `tasks/schemas.py`.", "", "## Sources and licences", ""]
    lines += [f"- {s}" for s in stats["sources"]]
    lines += ["", "spaCy pipelines used: " + ", ".join(f"{lang}: {m}" for lang, m in stats["spacy_models"].items())
              + ".", *fingerprint_lines(stats.get("encoder_fingerprints"))]
    lines += ["", "## Files", "", "- `{trial,test}.generation.parquet`: source, hyp_good (hyp+), hyp_bad (hyp-), type, "
              "the edit and its origin", "- `{trial,test}.detection.parquet`: hyp1, hyp2 (order drawn per example "
              "from a seeded RNG) and label (the hallucinated one)",
              f"- `published.detection.parquet`: the published trial and test files ({len(published)} rows; the test "
              "files carry no gold label)", "", "## Counts per split, direction/language and type", "",
              "| split | langpair | type | examples |", "|---|---|---|---|"]
    lines += [f"| {r['split']} | {r['langpair']} | {r['type']} | {r['examples']} |" for r in type_table(rows)]
    lines += ["", *exhausted_lines(stats), *absent_type_lines(stats, rows), *short_split_lines(rows, stats, params),
              *faithful_lines(stats), *balance_lines(stats),
              *review_reject_lines(stats, params.get("rejected_examples"))]
    lines += near_copy_lines(rows, params["max_near_copy_share"])
    lines += ["", *probe_lines(stats.get("artifact_probe"), stats.get("source_blind")),
              *card_lines(stats.get("source_blind"))]
    if stats.get("review"):
        lines += ["", *review_card_lines(stats["review"])]
    if stats.get("published_review"):
        lines += ["", *published_review_lines(stats["published_review"])]
    lines += ["", "## Build parameters", "", "```", *[f"{k}: {v}" for k, v in params.items()], "```", "",
              "Rejects by reason, candidate counts and each type's applicability rate on the sources are in "
              f"`metrics/hallucigen_{scenario}.json`.", ""]
    return "\n".join(lines)


def write_hallucigen(scenario: str, rows: list[dict], published: list[dict], stats: dict, params: dict,
                     out_dir: Path, metrics_file: Path) -> None:
    """The dataset of ``rows`` in ``out_dir`` (atomically) and its ``stats`` with the counts per split, language
    and type ('test/fr-en/tense') in ``metrics_file``."""
    stats = {**stats,
             "examples": {f"{r['split']}/{r['langpair']}/{r['type']}": r["examples"] for r in type_table(rows)}}
    with atomic_dir(out_dir) as tmp:
        for split in ("trial", "test"):
            split_rows = [r for r in rows if r["split"] == split]
            write_parquet(split_rows, HALLUCIGEN_GENERATION, Path(tmp) / f"{split}.generation.parquet")
            write_parquet([detection_row(r, params["seed"]) for r in split_rows], HALLUCIGEN_DETECTION,
                          Path(tmp) / f"{split}.detection.parquet")
        write_parquet(published, HALLUCIGEN_DETECTION, Path(tmp) / "published.detection.parquet")
        meta = hallucigen_metadata(scenario, rows, [line.partition(":")[0] for line in stats["sources"]])
        write_hub_files(tmp, meta, render_card(scenario, rows, stats, params, published),
                        f"HalluciGen {scenario}: source, hyp+ and hyp- per example (CLEF-2024 ELOQUENT).",
                        HALLUCIGEN_CITATION)
    write_json(stats, metrics_file)
