"""The labelled evaluation sets the detectors are scored on, read from the built artifacts and the raw
mirror. A pair set asks which of hyp1/hyp2 is hallucinated (label "hyp1"/"hyp2"); a binary set asks
whether one hypothesis is hallucinated (label True/False). Unusable rows are counted rejects."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from tasks.detection_view import ordered_hypotheses
from tasks.errors import InputError
from tasks.io import read_records
from tasks.rows import BadField, text
from tasks.stats import Tally

SHROOM_FILES = {"shroom-val": ["val.model-agnostic.json", "val.model-aware.v2.json"], "shroom-trial": ["trial-v1.json"]}
SHROOM_LABELS = {"Hallucination": True, "Not Hallucination": False}
BEGIN_RELEASES = {"2022": "dev", "2021": "dev_2021"}


@dataclass
class EvalSet:
    name: str
    kind: str  # pair | binary
    scenario: str  # translation | paraphrase | shroom | dialogue
    rows: list[dict] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)

    def add(self, row: dict, text_keys: tuple[str, ...]) -> None:
        """Keep ``row`` unless a text is blank or not a string (a counted reject: 'empty_text',
        'text_not_a_string')."""
        try:
            for key in text_keys:
                text(row.get(key), "text")
        except BadField as bad:
            self.tally.reject(bad.reason)
            return
        self.tally.keep()
        self.rows.append(row)


def _parquet(path: Path) -> list[dict]:
    if not path.is_file():
        raise InputError(f"{path}: file not found (run the stage that builds it: dvc repro)")
    return pq.read_table(path).to_pylist()


def _pair_set(name: str, scenario: str, rows: list[dict]) -> EvalSet:
    out = EvalSet(name, "pair", scenario)
    for r in rows:
        out.add({k: r[k] for k in ("id", "langpair", "type", "source", "hyp1", "hyp2", "label")},
                ("source", "hyp1", "hyp2", "label"))
    return out


def hallucigen_built(data: Path, scenario: str, split: str) -> EvalSet:
    rows = _parquet(data / "hallucigen" / scenario / f"{split}.detection.parquet")
    return _pair_set(f"hallucigen-{scenario}-{split}", scenario, rows)


def hallucigen_published(data: Path, scenario: str) -> EvalSet:
    rows = [r for r in _parquet(data / "hallucigen" / scenario / "published.detection.parquet")
            if r["split"] == "trial"]
    return _pair_set(f"published-{scenario}-trial", scenario, rows)


def cross_model(data: Path, seed: int) -> list[EvalSet]:
    """Model-generated examples (hallucigen_llm): the generator's hyp- is the gold hallucination."""
    rows = _parquet(data / "hallucigen_llm" / "generation.parquet")
    sets = []
    for scenario in ("translation", "paraphrase"):
        mine = [{**r, **ordered_hypotheses(r, seed)} for r in rows if r["scenario"] == scenario]
        sets.append(_pair_set(f"cross-model-{scenario}", scenario, mine))
    return sets


def natural_origins(data: Path) -> frozenset[str]:
    """The SHROOM items the built paraphrase dataset uses as natural hyp- ('shroom:val.model-agnostic.json:12'):
    none before the dataset is built."""
    out = set()
    for split in ("trial", "test"):
        path = data / "hallucigen" / "paraphrase" / f"{split}.generation.parquet"
        if path.is_file():
            out |= {r["origin"] for r in pq.read_table(path, columns=["type", "origin"]).to_pylist()
                    if r["type"] == "natural" and str(r["origin"]).startswith("shroom:")}
    return frozenset(out)


def shroom(raw: Path, name: str, used: frozenset[str] = frozenset()) -> EvalSet:
    """SHROOM rows: the hypothesis against the text its `ref` names (src, tgt; either: src). An item that is a
    natural example of the built dataset (``used``) is a counted reject (``natural_example``): no item is both a
    benchmark example and a detector's evaluation row."""
    out = EvalSet(name, "binary", "shroom")
    for file in SHROOM_FILES[name]:
        for i, item in enumerate(read_records(raw / "shroom" / file, f"shroom/{file}")):
            if f"shroom:{file}:{i}" in used:
                out.tally.reject("natural_example")
                continue
            label = SHROOM_LABELS.get(item.get("label"))
            if label is None:
                out.tally.reject("bad_label")
                continue
            source = item.get("tgt") if item.get("ref") == "tgt" else item.get("src")
            p_hall = item.get("p(Hallucination)")  # absent: the set gets no Spearman rho; unusable: a reject
            if p_hall is not None and (isinstance(p_hall, bool) or not isinstance(p_hall, (int, float))
                                       or not 0 <= p_hall <= 1):
                out.tally.reject("bad_p_hallucination")
                continue
            out.add({"id": f"{name}:{file}:{i}", "langpair": item.get("task") or "?", "type": item.get("task") or "?",
                     "source": source, "hyp": item.get("hyp"), "label": label,
                     "p_hallucination": None if p_hall is None else float(p_hall)},
                    ("source", "hyp"))
    return out


def begin(data: Path) -> EvalSet:
    """BEGIN dev (2022 and 2021 releases): the response against its knowledge; not faithful = hallucinated."""
    out = EvalSet("begin-dev", "binary", "dialogue")
    for release, folder in BEGIN_RELEASES.items():
        for r in _parquet(data / "dialogue" / "begin" / folder / "h-0.parquet"):
            out.add({"id": r["id"], "langpair": release, "type": r["fine_label"] or "?", "source": r["knowledge"],
                     "hyp": r["response"], "label": not r["faithful"]}, ("source", "hyp"))
    return out


def load_eval_sets(names: list[str], data: Path, seed: int) -> dict[str, EvalSet]:
    """The named sets; ids must be unique within a set."""
    raw = data / "raw"
    builders = {
        **{f"hallucigen-{sc}-{sp}": (lambda sc=sc, sp=sp: [hallucigen_built(data, sc, sp)])
           for sc in ("translation", "paraphrase") for sp in ("trial", "test")},
        **{f"published-{sc}-trial": (lambda sc=sc: [hallucigen_published(data, sc)])
           for sc in ("translation", "paraphrase")},
        "cross-model": lambda: cross_model(data, seed),
        **{name: (lambda name=name: [shroom(raw, name, natural_origins(data))]) for name in SHROOM_FILES},
        "begin-dev": lambda: [begin(data)],
    }
    sets: dict[str, EvalSet] = {}
    for name in names:
        if name not in builders:
            raise InputError(f"unknown evaluation set {name!r} in params; known: {sorted(builders)}")
        for s in builders[name]():
            ids = [r["id"] for r in s.rows]
            if len(set(ids)) != len(ids):
                dup = next(i for i in ids if ids.count(i) > 1)
                raise InputError(f"evaluation set {s.name}: duplicate id {dup!r}")
            sets[s.name] = s
    return sets
