"""Value rules of the params schema that a field type cannot say (tasks/params_schema.py uses them): each
raises ValueError with the problem, which the schema turns into one line naming the key, e.g.
`params.yaml: pawsx_edits.splits: must not repeat a value (got ['dev', 'dev'], 'dev' twice)`."""
from __future__ import annotations

import importlib.util
from typing import Annotated

from pydantic import AfterValidator


def installed_spacy_model(name: str) -> str:
    if importlib.util.find_spec(name) is None:
        raise ValueError(f"spaCy model {name!r} is not installed (pip install it, or name an installed one)")
    return name


SpacyModel = Annotated[str, AfterValidator(installed_spacy_model)]


def unique(values: list) -> list:
    """A list param names each value once: `splits: [dev, dev]` would read the dev file twice."""
    repeated = [v for k, v in enumerate(values) if v in values[:k]]
    if repeated:
        raise ValueError(f"must not repeat a value (got {values!r}, {repeated[0]!r} twice)")
    return values


UNIQUE = AfterValidator(unique)


def sums_to_one(fractions: dict[str, float]) -> dict[str, float]:
    """Split fractions cover the data once: {train: 0.8, valid: 0.1, test: 0.1}."""
    if abs(sum(fractions.values()) - 1.0) > 1e-9:
        raise ValueError(f"must sum to 1 (got {fractions!r}, sum {sum(fractions.values()):g})")
    return fractions


# Each BEGIN release's labels (tasks/dialogue/begin.py reads them); dialogue.begin.faithful names the faithful ones.
BEGIN_LABELS = {"2022": ("Fully attributable", "Generic", "Not fully attributable"),
                "2021": ("contradiction", "entailment", "generic", "hallucination", "off-topic")}


def begin_labels(faithful: dict[str, list[str]]) -> dict[str, list[str]]:
    """Every release names its faithful labels, each a label of that release: a typo such as
    'Fully atributable' would make every turn unfaithful."""
    for release, known in BEGIN_LABELS.items():
        if release not in faithful:
            raise ValueError(f"missing release '{release}' (its labels: {list(known)})")
        for label in faithful[release]:
            if label not in known:
                raise ValueError(f"'{release}': {label!r} is not a label of BEGIN {release} (labels: {list(known)})")
    return faithful
