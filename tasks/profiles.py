"""Apply a named profile (profiles/<name>.yaml) to params.yaml, keeping its comments.

Usage: python -m tasks.profiles paper   (or: make profile PROFILE=paper)
"""
from __future__ import annotations

import sys
from pathlib import Path

from ruamel.yaml import YAML

from tasks.io import atomic_path
from tasks.params import PARAMS_FILE, ROOT

PROFILES_DIR = ROOT / "profiles"


def _merge(target, overrides: dict, where: str) -> None:
    for key, value in overrides.items():
        if key not in target:
            raise KeyError(f"profile sets '{where}{key}', which params.yaml does not have")
        if isinstance(value, dict):
            _merge(target[key], value, f"{where}{key}.")
        else:
            target[key] = value


def apply_profile(name: str, params_file: Path = PARAMS_FILE, profiles_dir: Path = PROFILES_DIR) -> None:
    """Overwrite the keys the profile names in params.yaml (atomically); other keys stay as they are."""
    profile_file = profiles_dir / f"{name}.yaml"
    if not profile_file.is_file():
        known = sorted(p.stem for p in profiles_dir.glob("*.yaml"))
        raise SystemExit(f"unknown profile '{name}'; known: {known}")
    yaml = YAML()
    yaml.width = 120
    yaml.representer.add_representer(type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null"))
    params = yaml.load(params_file.read_text(encoding="utf-8"))
    _merge(params, YAML(typ="safe").load(profile_file.read_text(encoding="utf-8")), "")
    with atomic_path(params_file) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        yaml.dump(params, fh)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    try:
        apply_profile(sys.argv[1])
    except KeyError as exc:
        raise SystemExit(f"ERROR profile {sys.argv[1]}: {exc.args[0]}") from None
    print(f"params.yaml now uses profile '{sys.argv[1]}'")
