"""Build the HalluciGen tense/negation translation examples from PAWS-X (overview §2.1).

English sentence1 of a pair labelled paraphrase is the good translation; its edited copy is the
hallucinated one; the French or German sentence1 of the same id is the source (fr-en, de-en).
"""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from spacy.tokens import Doc
from tqdm import tqdm

from tasks.detection_view import ordered_hypotheses
from tasks.edits.checks import check_retag, check_span, retag_text
from tasks.edits.negation import negation_edit
from tasks.edits.result import Edit, Skip
from tasks.edits.tense import dataset_tense_edit
from tasks.errors import PipelineError
from tasks.pawsx.reader import PawsRow, file_accounting, read_pawsx
from tasks.stats import Tally

Parser = Callable[[list[str]], list[Doc]]
SPLIT_FILES = {"dev": "dev_2k.tsv", "test": "test_2k.tsv"}


@dataclass
class BuildResult:
    examples: list[dict] = field(default_factory=list)
    detection: list[dict] = field(default_factory=list)
    rejects: list[dict] = field(default_factory=list)
    stats: dict = field(default_factory=dict)


def pawsx_file(raw_dir: Path, lang: str, split: str) -> Path:
    return Path(raw_dir) / "x-final" / lang / SPLIT_FILES[split]


def make_edits(docs: list[Doc], keys: list[str], types: Iterable[str], seed: int,
               lexical_share: float) -> dict[str, list[Edit | Skip]]:
    """One edit (or skip) per sentence and type; whether a negation prefers a lexical edit is seeded per key."""
    out: dict[str, list[Edit | Skip]] = {}
    for type_ in types:
        results = []
        for doc, key in zip(docs, keys):
            if type_ == "tense":
                results.append(dataset_tense_edit(doc, random.Random(f"{seed}:{type_}:{key}")))
            elif type_ == "negation":
                lexical = random.Random(f"{seed}:{type_}:{key}").random() < lexical_share
                results.append(negation_edit(doc, prefer_lexical=lexical))
            else:
                raise ValueError(f"unknown edit type {type_!r}")
        out[type_] = results
    return out


def verify_edits(edits: dict[str, list[Edit | Skip]], good_docs: list[Doc], tag: Parser,
                 margin: int | None = None) -> None:
    """Replace every edit that fails a check by a Skip naming the failed check; the bad sentences are
    re-tagged in one batch (around the edit only, when the tagger's receptive field ``margin`` is known)."""
    todo = [(t, k) for t, results in edits.items() for k, r in enumerate(results) if isinstance(r, Edit)]
    windows = [retag_text(edits[t][k], good_docs[k], margin) for t, k in todo]
    bad_docs = tag([text for text, _ in windows])
    for (t, k), bad_doc, (_, offset) in zip(todo, bad_docs, windows):
        edit = edits[t][k]
        failure = check_span(edit) or check_retag(edit, bad_doc, good_docs[k], offset)
        if failure:
            edits[t][k] = Skip(failure)


def build_examples(raw_dir: Path, params: dict, parse: Parser, tag: Parser, margin: int | None = None,
                   progress: bool = False) -> BuildResult:
    """Read PAWS-X en + source languages, edit English sentence1, assemble examples, views and stats.

    ``parse`` tags and parses the good sentences; ``tag`` re-tags the edited ones for the checks,
    around the edit only when ``margin`` (the tagger's receptive field) is given."""
    seed, types, langs = params["seed"], params["types"], params["source_langs"]
    result = BuildResult()
    file_stats: dict[str, dict] = {}
    slots: dict[tuple[str, str], Tally] = defaultdict(Tally)
    details: dict[str, Counter] = defaultdict(Counter)

    def reject(file: str, line: int, pid: str, langpair: str, type_: str, reason: str) -> None:
        slots[(langpair, type_)].reject(reason)
        result.rejects.append({"file": file, "line": line, "pawsx_id": pid, "langpair": langpair,
                               "type": type_, "reason": reason})

    for split in params["splits"]:
        en_name = f"x-final/en/{SPLIT_FILES[split]}"
        en_rows, en_rejects, tally = read_pawsx(pawsx_file(raw_dir, "en", split), en_name, required=("sentence1",))
        file_stats[en_name] = file_accounting(tally, en_rejects)
        sources: dict[str, dict[str, PawsRow]] = {}
        for lang in langs:
            name = f"x-final/{lang}/{SPLIT_FILES[split]}"
            rows, rejects, tally = read_pawsx(pawsx_file(raw_dir, lang, split), name, required=("sentence1",))
            file_stats[name] = file_accounting(tally, rejects)
            sources[lang] = {r.id: r for r in rows}

        for bad in en_rejects:
            for lang in langs:
                for type_ in types:
                    reject(bad.file, bad.line, bad.id, f"{lang}-en", type_, bad.reason)
        candidates = [r for r in en_rows if r.label == 1]
        for r in en_rows:
            if r.label != 1:
                for lang in langs:
                    for type_ in types:
                        reject(en_name, r.line, r.id, f"{lang}-en", type_, "not_paraphrase")

        texts = [r.sentence1 for r in candidates]
        good_docs = parse(tqdm(texts, desc=f"tagging en {split}", disable=not progress))
        edits = make_edits(good_docs, [f"{split}:{r.id}" for r in candidates], types, seed,
                           params["lexical_negation_share"])
        verify_edits(edits, good_docs, tag, margin)

        for k, row in enumerate(candidates):
            for lang in langs:
                langpair = f"{lang}-en"
                src = sources[lang].get(row.id)
                for type_ in types:
                    edit = edits[type_][k]
                    if src is None:
                        reject(en_name, row.line, row.id, langpair, type_, "missing_source")
                    elif isinstance(edit, Skip):
                        reject(en_name, row.line, row.id, langpair, type_, edit.reason)
                    else:
                        slots[(langpair, type_)].keep()
                        detail = edit.detail.split(":")[0] if type_ == "negation" else edit.detail
                        details[f"{langpair}/{type_}"][detail] += 1
                        result.examples.append(_example(edit, src.sentence1, langpair, lang, split, row.id))

    if not result.examples:
        read = sum(stats["read"] for stats in file_stats.values())
        raise PipelineError(f"PAWS-X: no example built from {read} rows read in {sorted(file_stats)}; "
                            "data/pawsx_edits is left as it was")
    result.examples.sort(key=lambda e: (e["langpair"], e["type"], e["pawsx_split"], int(e["pawsx_id"])))
    result.detection = [_detection_view(e, seed) for e in result.examples]
    result.stats = _stats(file_stats, slots, details, len(result.examples))
    return result


def _example(edit: Edit, source: str, langpair: str, lang: str, split: str, pid: str) -> dict:
    return {"id": f"{langpair}:{edit.type}:{split}:{pid}", "langpair": langpair, "source": source,
            "hyp_good": edit.good, "hyp_bad": edit.bad, "type": edit.type, "edit_from": edit.source,
            "edit_to": edit.target, "edit_start": edit.start, "edit_detail": edit.detail,
            "pawsx_lang": lang, "pawsx_split": split, "pawsx_id": pid}


def _detection_view(example: dict, seed: int) -> dict:
    """The DETECTION_EXAMPLE row of an example."""
    return {"id": example["id"], "langpair": example["langpair"], "source": example["source"],
            **ordered_hypotheses(example, seed), "type": example["type"]}


def _stats(file_stats: dict, slots: dict, details: dict, n_examples: int) -> dict:
    by_slot: dict[str, dict] = defaultdict(dict)
    for (langpair, type_), tally in sorted(slots.items()):
        by_slot[langpair][type_] = tally.as_dict()
    return {"files": file_stats, "examples": dict(by_slot),
            "edit_details": {k: dict(sorted(v.items())) for k, v in sorted(details.items())},
            "total_examples": n_examples}
