"""DSTC11 Track 5 validation as a knowledge-grounded dialogue set: the turns with target=true, their
history from logs.json, knowledge resolved from knowledge.json, the response from labels.json; split
into train/valid/test by dialogue (instances sharing a first user turn are one dialogue)."""
from __future__ import annotations

import hashlib
import random
from pathlib import Path

from tasks.dialogue.turns import SEEKER, WIZARD, LoadResult, make_turn
from tasks.errors import InputError
from tasks.io import read_records

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
    """Split distinct dialogue keys (sorted, then seeded shuffle) by the given fractions, in their order."""
    if abs(sum(fractions.values()) - 1.0) > 1e-9:
        raise ValueError(f"split fractions {fractions} do not sum to 1")
    ordered = sorted(set(keys))
    random.Random(seed).shuffle(ordered)
    out, start = {}, 0
    names = list(fractions)
    for k, name in enumerate(names):
        end = len(ordered) if k == len(names) - 1 else start + round(fractions[name] * len(ordered))
        out.update({key: name for key in ordered[start:end]})
        start = end
    return out


def load_dstc11(raw_dir: Path, fractions: dict[str, float], seed: int) -> LoadResult:
    """Read val/logs.json, val/labels.json and knowledge.json; every instance is kept or rejected."""
    raw_dir = Path(raw_dir)
    logs = read_records(raw_dir / "val" / "logs.json", f"{SOURCE}/val/logs.json")
    labels = read_records(raw_dir / "val" / "labels.json", f"{SOURCE}/val/labels.json")
    knowledge = read_records(raw_dir / "knowledge.json", f"{SOURCE}/knowledge.json")
    if len(logs) != len(labels):
        raise InputError(f"{SOURCE}/val: logs.json has {len(logs)} instances, labels.json {len(labels)}")
    file = "val/labels.json"
    result = LoadResult()
    split_of = assign_splits([dialogue_key(log) for log in logs if log], fractions, seed)
    for index, (log, label) in enumerate(zip(logs, labels)):
        if not label.get("target"):
            result.reject(SOURCE, file, index, "not_knowledge_grounded")
            continue
        if not log or log[-1].get("speaker") != "U" or any(t.get("speaker") not in SPEAKERS for t in log):
            result.reject(SOURCE, file, index, "malformed_history")
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
