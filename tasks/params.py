"""Access to params.yaml, the single place for every knob."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
PARAMS_FILE = ROOT / "params.yaml"


def load_params(section: str | None = None, path: str | Path = PARAMS_FILE) -> Any:
    """Return params.yaml, or one top-level section of it."""
    with open(path, encoding="utf-8") as fh:
        params = yaml.safe_load(fh)
    if section is None:
        return params
    if section not in params:
        raise KeyError(f"{path}: no section '{section}'")
    return params[section]
