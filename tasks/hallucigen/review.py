"""The review kit: a blind, stratified sheet of built test examples (N per type and direction/language)
for an annotator to judge valid or not, the key kept apart, and per-type validity with a Wilson 95%
interval from filled sheets. Sheet writing and reading are the shared blind-sheet code (tasks/sheets.py)."""
from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq

from tasks.errors import InputError
from tasks.hallucigen.rejects import reject_rows, write_rejects
from tasks.params import ROOT
from tasks.sheets import item_id, read_filled_sheet, write_blind_sheet

SHEET_FIELDS = ["item", "source", "hyp_good", "hyp_bad", "type", "valid", "note"]
KEY_FIELDS = ["item", "id", "scenario", "langpair", "type", "edit_detail"]
YES, NO = ("1", "y", "yes", "valid", "x", "true"), ("0", "n", "no", "invalid", "false")


def stratified(rows: list[dict], per_stratum: int, seed: int) -> list[dict]:
    """Up to ``per_stratum`` seeded-random rows of each (langpair, type) of the test split."""
    strata: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        if r["split"] == "test":
            strata[(r["langpair"], r["type"])].append(r)
    picked = []
    for key, group in sorted(strata.items()):
        group = sorted(group, key=lambda r: r["id"])
        picked += random.Random(f"{seed}:review:{key}").sample(group, min(per_stratum, len(group)))
    return picked


def export_review(rows: list[dict], per_stratum: int, seed: int, sheet: Path, key: Path) -> int:
    """Write the blind sheet (no id, direction or edit: source, hyp+, hyp-, declared type, blank valid/note)
    and its key; returns the number of items."""
    items = [{**r, "item": item_id(r["scenario"], r["id"]), "valid": "", "note": ""}
             for r in stratified(rows, per_stratum, seed)]
    write_blind_sheet(items, SHEET_FIELDS, KEY_FIELDS, seed, sheet, key)
    return len(items)


def read_review(sheet: Path, key: Path) -> list[dict]:
    """Judged items joined to the key: {item, id, scenario, langpair, type, valid: bool, texts, note}. An
    unjudged or unreadable 'valid', or an item missing from the key, is an InputError naming the file and row."""
    keyed = {row["item"]: row for _, row in read_filled_sheet(key, KEY_FIELDS[1:])}
    out = []
    for n, row in read_filled_sheet(sheet, ["valid"]):
        valid = _verdict(sheet, n, row)
        if row["item"] not in keyed:
            raise InputError(f"{sheet}: row {n}: item {row['item']} is not in the key {key}")
        k = keyed[row["item"]]
        out.append({"item": row["item"], "id": k["id"], "scenario": k["scenario"], "langpair": k["langpair"],
                    "type": k["type"], "valid": valid, "texts": _texts(row), "note": row.get("note") or ""})
    return out


def _verdict(sheet: Path, n: int, row: dict) -> bool:
    """A row's 'valid' as a bool; anything but 1/0 (yes/no) is an InputError naming the file and row."""
    verdict = row["valid"].strip().lower()
    if verdict not in YES + NO:
        raise InputError(f"{sheet}: row {n}: item {row['item']}: 'valid' must be 1/0 (yes/no), got {row['valid']!r}")
    return verdict in YES


def published_review_stats(sheet: str | None, published: list[dict]) -> dict | None:
    """Validity of the published release's trial items judged blind with the same brief (a filled sheet whose
    item is the published id: {item, langpair, type, valid, note}), over the rows of this scenario's language
    pairs. Such a row whose item is not a published trial id of its language pair is an InputError naming the
    file and row."""
    if not sheet:
        return None

    langpairs = {r["id"]: r["langpair"] for r in published if r["split"] == "trial"}
    judged = []
    for n, row in read_filled_sheet(ROOT / sheet, ["langpair", "type", "valid"]):
        if row["langpair"] not in langpairs.values():
            continue
        if langpairs.get(row["item"]) != row["langpair"]:
            raise InputError(f"{ROOT / sheet}: row {n}: item {row['item']} is not a published trial id of "
                             f"{row['langpair']}")
        judged.append({"langpair": row["langpair"], "type": row["type"], "valid": _verdict(ROOT / sheet, n, row)})
    return {**validity(judged), "sheet": sheet} if judged else None


def _texts(row: dict) -> tuple:
    """What an annotator judged of an example (a sheet row or a built row)."""
    return tuple(row.get(c) for c in ("source", "hyp_good", "hyp_bad", "type"))


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score 95% interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def validity(judged: list[dict]) -> dict:
    """Share valid, overall, per type and per direction/language, each with n and its Wilson interval."""
    def summary(items: list[dict]) -> dict:
        k = sum(i["valid"] for i in items)
        return {"n": len(items), "valid": k, "share": round(k / len(items), 4) if items else None,
                "ci95": list(wilson(k, len(items)))}

    by_type, by_lp = defaultdict(list), defaultdict(list)
    for i in judged:
        by_type[i["type"]].append(i)
        by_lp[i["langpair"]].append(i)
    return {"overall": summary(judged), "by_type": {t: summary(v) for t, v in sorted(by_type.items())},
            "by_langpair": {lp: summary(v) for lp, v in sorted(by_lp.items())}}


def review_card_lines(review: dict) -> list[str]:
    o = review["overall"]
    scope = (f"All {review['judged']} judged items are examples of this build as judged." if review["in_build"] ==
             review["judged"] else f"{review['in_build']} of the {review['judged']} judged items are examples of this "
             "build as judged; the others were judged on another build's version of the example and are left out.")
    if not o["n"]:
        return ["## Blind review", "", f"Filled review sheets ({', '.join(review['sheets'])}): {scope} No "
                "validity figure for this build.", ""]
    summary = (f"Filled review sheets ({', '.join(review['sheets'])}): {o['valid']}/{o['n']} valid ({o['share']}, "
               f"95% CI {o['ci95'][0]}–{o['ci95'][1]}). {scope}")
    return ["## Blind review", "", summary, "", *_validity_table(review, ("by_type", "by_langpair")), ""]


def _validity_table(review: dict, parts: tuple[str, ...]) -> list[str]:
    lines = ["| group | n | valid | share | 95% CI |", "|---|---|---|---|---|"]
    for part in parts:
        for g, s in review[part].items():
            lines.append(f"| {g} | {s['n']} | {s['valid']} | {s['share']} | {s['ci95'][0]}–{s['ci95'][1]} |")
    return lines


def published_review_lines(review: dict) -> list[str]:
    o = review["overall"]
    return ["## Blind review of the published release", "",
            f"The published HalluciGen trial items ({review['sheet']}), shuffled into a review sheet of this "
            f"build's items and judged blind with the same brief: {o['valid']}/{o['n']} valid ({o['share']}, 95% CI "
            f"{o['ci95'][0]}–{o['ci95'][1]}).", "", *_validity_table(review, ("by_langpair",)), ""]


def review_stats(sheets: list[dict], scenario: str, rows: list[dict]) -> dict | None:
    """Validity of this scenario's items in the filled sheets listed in params (``{sheet, key}`` paths), over
    the judged items that are examples of ``rows`` word for word (direction, source, hyp+, hyp-, type), whatever
    their id now: one example more or less early in a split shifts every later id, not what was judged. An item
    whose text this build does not have was judged on another example and is left out."""
    if not sheets:
        return None

    judged = [j for s in sheets for j in read_review(ROOT / s["sheet"], ROOT / s["key"]) if j["scenario"] == scenario]
    built = {(r["langpair"], *_texts(r)) for r in rows}
    current = [j for j in judged if (j["langpair"], *j["texts"]) in built]
    return ({**validity(current), "sheets": [s["sheet"] for s in sheets], "judged": len(judged),
             "in_build": len(current)} if judged else None)


def main() -> None:
    """`make review N=...`: one blind sheet over both built datasets' test splits; with --reject, add a filled
    sheet's invalid items to the rejects file (--into) that the builds leave out."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--per-stratum", type=int, default=5)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, default=Path("data/review"))
    parser.add_argument("--reject", nargs=2, action="append", metavar=("SHEET", "KEY"), default=[])
    parser.add_argument("--into", type=Path, help="the rejects file (params: rejected_examples)")
    args = parser.parse_args()
    if args.reject:
        if args.into is None:
            parser.error("--reject needs --into, the rejects file that params' rejected_examples names")
        return add_rejects([(Path(s), Path(k)) for s, k in args.reject], args.into)
    rows = []
    for scenario in ("translation", "paraphrase"):
        path = Path("data/hallucigen") / scenario / "test.generation.parquet"
        if not path.is_file():
            raise SystemExit(f"{path}: not built; run `dvc repro hallucigen_{scenario}` first")
        rows += pq.read_table(path).to_pylist()
    n = export_review(rows, args.per_stratum, args.seed, args.out / "sheet.csv", args.out / "key.csv")
    print(f"{n} items: {args.out / 'sheet.csv'} (blind), key: {args.out / 'key.csv'}")


def add_rejects(sheets: list[tuple[Path, Path]], path: Path) -> None:
    """Add the items that filled (sheet, key) pairs judge invalid to the rejects file at ``path``."""
    judged = [{**j, **dict(zip(("source", "hyp_good", "hyp_bad"), j["texts"]))}
              for sheet, key in sheets for j in read_review(sheet, key)]
    rows = reject_rows(judged)
    print(f"{len(rows)} of {len(judged)} judged items invalid; {path}: {write_rejects(path, rows)} rejects")


if __name__ == "__main__":
    main()
