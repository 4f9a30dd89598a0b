"""tasks/hallucigen/review.py: the blind review kit (sheet, validity figures, the published trial, rejects
from a filled sheet)."""

import csv

import pytest

from tasks.errors import InputError
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.review import (
    export_review,
    published_review_lines,
    published_review_stats,
    read_review,
    review_card_lines,
    review_stats,
    validity,
    wilson,
)


def _rows():
    rows = []
    for lp in ("en-fr", "sv"):
        for t in ("gender", "number"):
            for k in range(3):
                rows.append({"id": f"{lp}:test:{t}{k}", "scenario": "translation" if "-" in lp else "paraphrase",
                             "langpair": lp, "split": "test", "type": t, "source": f"src {t} {k}",
                             "hyp_good": f"good {k}", "hyp_bad": f"bad {k}", "edit_detail": f"d{k}"})
    rows.append({**rows[0], "id": "en-fr:trial:0", "split": "trial"})
    return rows


def test_review_sheet_is_blind_stratified_and_reads_back_validity(tmp_path):
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    assert export_review(_rows(), 2, 13, sheet, key) == 8  # 2 per (langpair, type), test split only
    with open(sheet, encoding="utf-8") as fh:
        items = list(csv.DictReader(fh))
    assert list(items[0]) == ["item", "source", "hyp_good", "hyp_bad", "type", "valid", "note"]
    assert "en-fr" not in sheet.read_text() and "en-fr" in key.read_text() and "trial" not in key.read_text()
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(items[0]))
        w.writeheader()
        for k, it in enumerate(items):
            w.writerow({**it, "valid": "0" if k == 0 else "yes"})
    judged = read_review(sheet, key)
    v = validity(judged)
    assert v["overall"] == {"n": 8, "valid": 7, "share": 0.875, "ci95": list(wilson(7, 8))}
    assert sum(s["n"] for s in v["by_type"].values()) == 8 and set(v["by_langpair"]) == {"en-fr", "sv"}


def test_review_figures_count_only_the_items_this_build_has_as_judged(tmp_path):
    """A filled sheet is joined to the build by what was judged (source, hyp+, hyp-, type), not by id: a rebuild
    that adds an example early in a split shifts every later id and still has every judged example; an example
    whose text has changed since was judged on another example and is left out of the card's figures, which
    say so."""
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    rows = _rows()
    export_review(rows, 3, 13, sheet, key)
    with open(sheet, encoding="utf-8") as fh:
        items = list(csv.DictReader(fh))
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(items[0]))
        w.writeheader()
        w.writerows({**it, "valid": "1"} for it in items)
    sheets = [{"sheet": str(sheet), "key": str(key)}]
    same = review_stats(sheets, "translation", rows)
    assert same["overall"]["n"] == 6 and "All 6 judged items are examples of this build" in review_card_lines(same)[2]
    shifted = [{**rows[0], "id": "en-fr:test:0", "source": "a new example"}] + [
        {**r, "id": f"{r['id']}'"} for r in rows]
    moved = review_stats(sheets, "translation", shifted)
    assert (moved["in_build"], moved["overall"]["n"]) == (6, 6)
    rebuilt = [{**r, "hyp_bad": "changed"} if r["id"] == "en-fr:test:gender1" else r for r in rows]
    stats = review_stats(sheets, "translation", rebuilt)
    assert (stats["judged"], stats["in_build"], stats["overall"]["n"], stats["by_type"]["gender"]["n"]) == (6, 5, 5, 2)
    assert "5 of the 6 judged items are examples of this build as judged" in review_card_lines(stats)[2]
    none = review_stats(sheets, "translation", [])
    assert none["in_build"] == 0 and "No validity figure for this build." in review_card_lines(none)[2]


def test_wilson_interval_exact():
    assert wilson(9, 10) == (0.5958, 0.9821)
    assert wilson(0, 0) == (0.0, 1.0)


def test_unjudged_review_rows_are_errors(tmp_path):
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    export_review(_rows(), 1, 13, sheet, key)
    with pytest.raises(InputError, match=r"sheet.csv: row 2: item \w+: 'valid' must be 1/0"):
        read_review(sheet, key)


PUBLISHED_REVIEW = "curation/published_review/trial_verdicts.csv"


def test_the_published_trial_judged_with_the_same_brief(mirror, tmp_path):
    translation, _ = ingest_published(mirror / "hallucigen", "translation", ["en-fr", "fr-en", "en-de", "de-en"])
    paraphrase, _ = ingest_published(mirror / "hallucigen", "paraphrase", ["en", "sv"])
    mt = published_review_stats(PUBLISHED_REVIEW, translation)
    pg = published_review_stats(PUBLISHED_REVIEW, paraphrase)
    assert (mt["overall"]["valid"], mt["overall"]["n"], pg["overall"]["valid"], pg["overall"]["n"]) == (8, 40, 6, 36)
    assert {lp: (s["valid"], s["n"]) for lp, s in pg["by_langpair"].items()} == {"en": (0, 16), "sv": (6, 20)}
    assert published_review_lines(pg)[2].endswith("judged blind with the same brief: 6/36 valid (0.1667, 95% CI "
                                                   "0.0787–0.3189).")
    assert published_review_stats(None, translation) is None
    bad = tmp_path / "verdicts.csv"
    bad.write_text("item,langpair,type,valid,note\npublished:en-fr:trial:0,en-fr,addition,maybe,\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"verdicts.csv: row 2: item published:en-fr:trial:0: 'valid' must be"):
        published_review_stats(str(bad), translation)
    bad.write_text("item,langpair,type,valid,note\npublished:sv:trial:0,sv,addition,1,\n"
                   "published:en-fr:trial:10,en-fr,addition,1,\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"verdicts.csv: row 3: item published:en-fr:trial:10 is not a published "
                                         r"trial id of en-fr$"):
        published_review_stats(str(bad), translation)


def test_a_filled_sheets_invalid_items_become_rejects_with_their_texts(tmp_path, capsys):
    from tasks.hallucigen.rejects import read_rejects
    from tasks.hallucigen.review import add_rejects

    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    export_review(_rows(), 1, 13, sheet, key)
    with open(sheet, encoding="utf-8") as fh:
        items = list(csv.DictReader(fh))
    for it, verdict, note in zip(items, "0011", ("1: drops a word", "4: ungrammatical", "", "")):
        it.update(valid=verdict, note=note)
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(items[0]))
        w.writeheader()
        w.writerows(items)
    add_rejects([(sheet, key)], tmp_path / "rejected.csv")
    assert capsys.readouterr().out.startswith("2 of 4 judged items invalid;")
    keyed = {r["item"]: r["langpair"] for r in csv.DictReader(open(key, encoding="utf-8"))}
    rejects = read_rejects(tmp_path / "rejected.csv")
    assert rejects.pairs == {(keyed[items[0]["item"]], items[0]["source"], items[0]["hyp_good"])}
    assert rejects.edits == {(keyed[items[1]["item"]], items[1]["source"], items[1]["hyp_good"], items[1]["hyp_bad"])}
