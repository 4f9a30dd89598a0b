"""DSTC11 Track 5 validation as a knowledge-grounded dialogue set: the turns with target=true, their
history from logs.json, knowledge resolved from knowledge.json, the response from labels.json; split
into train/valid/test by dialogue (instances sharing a first user turn are one dialogue)."""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from tasks.dialogue.turns import SEEKER, WIZARD, LoadResult, make_turn
from tasks.errors import InputError
from tasks.io import read_records
from tasks.rows import BadField, boolean, mapping, sequence, text

SOURCE = "dstc11-track5"
SPEAKERS = {"U": SEEKER, "S": WIZARD}


def resolve_snippet(knowledge: dict, ref: dict) -> str | None:
    """The text a knowledge reference points to: a review sentence, or an FAQ's question and answer."""
    try:
        entity = knowledge[ref["domain"]][str(ref["entity_id"])]
        if ref["doc_type"] == "review":
            text = entity["reviews"][str(ref["doc_id"])]["sentences"][str(ref["sent_id"])]
            return f"{entity['name']} (review): {text}"
        if ref["doc_type"] == "faq":
            faq = entity["faqs"][str(ref["doc_id"])]
            return f"{entity['name']} (FAQ): {faq['question']} {faq['answer']}"
    except (KeyError, TypeError):
        return None
    return None


def dialogue_key(log: list[dict]) -> str:
    return hashlib.sha256(log[0]["text"].encode("utf-8")).hexdigest()[:16]


def assign_splits(keys: list[str], fractions: dict[str, float], seed: int) -> dict[str, str]:
    """Split distinct dialogue keys (sorted, then seeded shuffle) by the given fractions, in their order
    (params validation guarantees they sum to 1)."""
    ordered = sorted(set(keys))
    random.Random(seed).shuffle(ordered)
    out, start = {}, 0
    names = list(fractions)
    for k, name in enumerate(names):
        end = len(ordered) if k == len(names) - 1 else start + round(fractions[name] * len(ordered))
        out.update({key: name for key in ordered[start:end]})
        start = end
    return out


def _named(log) -> bool:
    """A non-empty list of turn objects whose first text is a string (it names the dialogue)."""
    return (isinstance(log, list) and bool(log) and all(isinstance(t, dict) for t in log)
            and isinstance(log[0].get("text"), str))


def _instance_problem(log, label, seen: set[str]) -> str | None:
    """Why an instance gives no turn, checked in order: its label is not an object, target is not a JSON
    boolean ('false' as a string is not false), the turn needs no knowledge, the same log and label came
    before, the log is not a list of U/S turns ending on the user, a turn's text is missing or not a string;
    else None."""
    try:
        target = boolean(mapping(label, "label").get("target"), "target")
        if target and label.get("knowledge") is not None:
            sequence(label["knowledge"], "knowledge")
    except BadField as bad:
        return bad.reason
    if not target:
        return "not_knowledge_grounded"
    content = json.dumps([log, label], sort_keys=True, ensure_ascii=False)
    if content in seen:
        return "duplicate_instance"
    seen.add(content)
    if (not isinstance(log, list) or not log or not all(isinstance(t, dict) for t in log)
            or log[-1].get("speaker") != "U" or any(t.get("speaker") not in SPEAKERS for t in log)):
        return "malformed_history"
    for turn in log:
        try:
            text(turn.get("text"), "history_turn")
        except BadField as bad:
            return bad.reason
    return None


def _records(path: Path, name: str, kind: type) -> list | dict:
    records = read_records(path, name)
    if not isinstance(records, kind):
        raise InputError(f"{name}: must hold a JSON {'list' if kind is list else 'object'}, "
                         f"not {type(records).__name__}")
    return records


def load_dstc11(raw_dir: Path, fractions: dict[str, float], seed: int) -> LoadResult:
    """Read val/logs.json, val/labels.json and knowledge.json; every instance is kept or rejected with the
    reason and its index in labels.json."""
    raw_dir = Path(raw_dir)
    logs = _records(raw_dir / "val" / "logs.json", f"{SOURCE}/val/logs.json", list)
    labels = _records(raw_dir / "val" / "labels.json", f"{SOURCE}/val/labels.json", list)
    knowledge = _records(raw_dir / "knowledge.json", f"{SOURCE}/knowledge.json", dict)
    if len(logs) != len(labels):
        raise InputError(f"{SOURCE}/val: logs.json has {len(logs)} instances, labels.json {len(labels)}")
    file = "val/labels.json"
    result, seen = LoadResult(), set()
    split_of = assign_splits([dialogue_key(log) for log in logs if _named(log)], fractions, seed)
    for index, (log, label) in enumerate(zip(logs, labels)):
        reason = _instance_problem(log, label, seen)
        if reason:
            result.reject(SOURCE, file, index, reason)
            continue
        snippets = [resolve_snippet(knowledge, ref) for ref in label.get("knowledge") or []]
        if not snippets or any(s is None for s in snippets):
            result.reject(SOURCE, file, index, "unresolved_knowledge")
            continue
        key = dialogue_key(log)
        row = make_turn(id=f"dstc11:{index}", split=split_of[key], dialogue_id=key,
                        history=[{"speaker": SPEAKERS[t["speaker"]], "text": t.get("text")} for t in log],
                        knowledge="\n".join(snippets), response=label.get("response"),
                        source=SOURCE, file=file, index=index)
        result.add(SOURCE, file, index, row)
    return result
