"""Examples the blind review rejected, kept in one committed file so that every build leaves them out: the
HalluciGen release was annotated by hand in the same way (a hypothesis judged unusable was discarded). A rule-1
verdict (hyp+ not faithful) rejects the source pair for every type, any other verdict that one edit."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tasks.errors import InputError
from tasks.hallucigen.detokenize import plain_text
from tasks.hallucigen.select import Candidate
from tasks.params import ROOT
from tasks.sheets import item_id, read_filled_sheet, write_csv

REJECT_FIELDS = ["item", "scenario", "langpair", "type", "rules", "source", "hyp_good", "hyp_bad", "note"]
RULES = re.compile(r"^\s*([1-5](?:\s*[,/&+]\s*[1-5])*)\b")


@dataclass(frozen=True)
class Rejects:
    pairs: frozenset  # (langpair, source, hyp_good): a hyp+ judged not faithful (rule 1)
    edits: frozenset  # (langpair, source, hyp_good, hyp_bad): an example judged invalid on rules 2-5


def rules_of(note: str) -> str:
    """The failing rule numbers a verdict's note opens with ('1,4: ...' -> '1,4'), or '' when it names none."""
    m = RULES.match(note or "")
    return ",".join(sorted(set(re.findall(r"[1-5]", m.group(1))))) if m else ""


def reject_rows(judged: list[dict]) -> list[dict]:
    """The rejects file's rows of judged items ({scenario, langpair, type, source, hyp_good, hyp_bad, valid,
    note}): the invalid ones, under an id of their texts."""
    return [{"item": item_id(j["langpair"], j["source"], j["hyp_good"], j["hyp_bad"]), "rules": rules_of(j["note"]),
             **{f: j[f] for f in REJECT_FIELDS if f not in ("item", "rules")}} for j in judged if not j["valid"]]


def write_rejects(path: Path, rows: list[dict]) -> int:
    """Merge ``rows`` into the rejects file at ``path`` (created if missing; a later verdict of the same item
    replaces the earlier one), sorted by item; returns how many rows it holds."""
    merged = {r["item"]: r for _, r in (read_filled_sheet(path, REJECT_FIELDS) if Path(path).is_file() else [])}
    merged.update({r["item"]: r for r in rows})
    write_csv(path, REJECT_FIELDS, [merged[k] for k in sorted(merged)], lineterminator="\n")
    return len(merged)


def read_rejects(path: Path | None) -> Rejects:
    """The rejects at ``path`` (none without one); a missing file or column, a duplicate item or an item
    that is not the id of its texts is an InputError naming the file and row."""
    if path is None:
        return Rejects(frozenset(), frozenset())
    pairs, edits = set(), set()
    for n, r in read_filled_sheet(path, REJECT_FIELDS):
        if r["item"] != item_id(r["langpair"], r["source"], r["hyp_good"], r["hyp_bad"]):
            raise InputError(f"{path}: row {n}: item {r['item']} is not the id of its langpair and texts")
        if "1" in r["rules"].split(","):
            pairs.add((r["langpair"], r["source"], r["hyp_good"]))
        else:
            edits.add((r["langpair"], r["source"], r["hyp_good"], r["hyp_bad"]))
    return Rejects(frozenset(pairs), frozenset(edits))


def drop_rejected(candidates: dict[str, list[Candidate]], rejects: Rejects) -> dict[str, int]:
    """Leave out, in place, the candidates whose example (as built: ``plain_text``) the review rejected;
    returns how many went, by reason."""
    counts = {"unfaithful_hyp_good": 0, "rejected_edit": 0}
    for t, cands in candidates.items():
        kept = []
        for cand in cands:
            row = plain_text(cand.row)
            pair = (row["langpair"], row["source"], row["hyp_good"])
            reason = ("unfaithful_hyp_good" if pair in rejects.pairs
                      else "rejected_edit" if (*pair, row["hyp_bad"]) in rejects.edits else None)
            if reason:
                counts[reason] += 1
            else:
                kept.append(cand)
        candidates[t] = kept
    return counts


def rejects_in(params: dict) -> Rejects:
    """The rejects file a build's params name (``rejected_examples``, relative to the repo root), if any."""
    name = params.get("rejected_examples")
    return read_rejects(ROOT / name if name else None)
