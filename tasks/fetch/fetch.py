"""Fetch registry sources into data/raw/<source>/, verifying every file's sha256."""
from __future__ import annotations

import os
from pathlib import Path

from tasks.errors import ChecksumError, PipelineError
from tasks.fetch.download import from_mirror, from_upstream, sha256_of
from tasks.fetch.registry import Source
from tasks.params import ROOT

MIRROR_ENV = "HALLUCI_RAW_MIRROR"


def resolve_mirror(param_value: str | None) -> Path | None:
    """The mirror folder: $HALLUCI_RAW_MIRROR wins when set, else params fetch.mirror; None means upstream."""
    env_value = os.environ.get(MIRROR_ENV, "").strip()
    value, origin = (env_value, f"${MIRROR_ENV}") if env_value else (param_value, "params fetch.mirror")
    if not value:
        return None
    path = Path(value)
    if not path.is_absolute():
        path = ROOT / path
    if not path.is_dir():
        raise PipelineError(f"raw-data mirror '{path}' (from {origin}) is not a directory; "
                            f"fix it, or set fetch.mirror: null and unset ${MIRROR_ENV} to fetch upstream")
    return path.resolve()


def fetch_source(source: Source, mirror: Path | None, out_dir: Path, lock: dict, timeout: float = 60.0) -> dict:
    """Fetch and verify every file of one source into out_dir/<source>/.

    A source with a mirror folder is read from the mirror when one is set; otherwise, and for
    upstream-only sources, from upstream. Files without a registry hash are checked against the lock
    (and pinned there on first fetch). Returns the source's manifest entry.
    """
    use_mirror = mirror is not None and source.mirror is not None
    entries = []
    for f in source.files:
        dest = out_dir / source.name / f.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        if use_mirror:
            from_mirror(mirror, source, f, dest)
        else:
            from_upstream(source, f, dest, timeout)
        got = sha256_of(dest)
        expected, origin = (f.sha256, "registry") if f.sha256 else (lock.get((source.name, f.path)), "lock file")
        if expected is None:
            lock[(source.name, f.path)] = got
        elif got != expected:
            where = f"mirror {mirror}" if use_mirror else f"upstream {source.upstream_label()}"
            raise ChecksumError(f"source '{source.name}': file '{f.path}' from {where} has sha256 {got}, "
                                f"expected {expected} ({origin})")
        entries.append({"path": f.path, "sha256": got, "bytes": dest.stat().st_size})
    return {"title": source.title, "licence": source.licence, "upstream": source.upstream_label(), "files": entries}
