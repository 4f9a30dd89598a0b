"""Difficulty of the built benchmark against real data: per HalluciGen scenario, each detector's F1 per
hallucination type on the built test split (``hallucigen-<scenario>-test``), its F1 on the whole built test, and
its figures on human-labelled data: the published HalluciGen trial items (``published-<scenario>-trial``, a pair
set) and, for paraphrase, SHROOM val (``shroom-val``, binary: F1 at the tuned threshold and AUROC). A detector
much better on the built test than on the human-labelled sets means the built benchmark is easier than real data.
Rows and type columns are sorted; a missing set, detector or type is "–"."""
from __future__ import annotations

from tasks.scoring.results import ALL, BY_TYPE

SCENARIOS = ("translation", "paraphrase")
HUMAN_BINARY = {"paraphrase": "shroom-val"}  # scenario -> human-labelled binary set shown beside it
MISSING = "–"
NOTE = ("A detector much better on the built test than on the human-labelled sets means the built benchmark is "
        "easier than real data; much worse, harder.")


def f1_cell(m: dict | None) -> str:
    """F1 with its number of examples, e.g. "0.83 (n=40)"; "–" where missing or empty."""
    return f"{m['f1']:.2f} (n={m['n']})" if m and m.get("n") else MISSING


def _value(m: dict | None, key: str) -> str:
    return f"{m[key]:.2f}" if m and m.get("n") and m.get(key) is not None else MISSING


def scenario_sets(scenario: str) -> tuple[str, str, str | None]:
    """(built test, published trial, human-labelled binary set or None) of a scenario; e.g. "paraphrase" ->
    ("hallucigen-paraphrase-test", "published-paraphrase-trial", "shroom-val")."""
    return f"hallucigen-{scenario}-test", f"published-{scenario}-trial", HUMAN_BINARY.get(scenario)


def difficulty_rows(res: dict, scenario: str) -> tuple[list[str], list[list[str]]] | None:
    """(header, rows) of one scenario's difficulty table, or None where none of its sets was scored. Columns:
    detector, F1 per type on the built test (types sorted), F1 on the whole built test, F1 on the published trial,
    and for paraphrase F1 and AUROC on SHROOM val; one row per detector of any of these sets, sorted. E.g. the
    header ["detector", "date", "tense", "built test: all", "published trial (human)"] and the row
    ["a", "0.83 (n=40)", "–", "0.80 (n=60)", "0.71 (n=36)"]."""
    test_name, trial_name, binary_name = scenario_sets(scenario)
    test, trial = res["detection"].get(test_name), res["detection"].get(trial_name)
    binary = res["binary"].get(binary_name) if binary_name else None
    if test is None and trial is None and binary is None:
        return None
    test, trial, binary = test or {}, trial or {}, binary or {}
    types = sorted({t for m in test.values() for t in m.get(BY_TYPE, {})})
    header = ["detector", *types, "built test: all", "published trial (human)"]
    if binary_name:
        header += [f"{binary_name} F1 (human)", f"{binary_name} AUROC (human)"]
    rows = []
    for det in sorted({*test, *trial, *binary}):
        by_type = test.get(det, {}).get(BY_TYPE, {})
        row = [det, *[f1_cell(by_type.get(t)) for t in types], f1_cell(test.get(det, {}).get(ALL)),
               f1_cell(trial.get(det, {}).get(ALL))]
        if binary_name:
            whole = binary.get(det, {}).get(ALL)
            row += [f1_cell(whole), _value(whole, "auroc")]
        rows.append(row)
    return header, rows
