"""The source registry (sources.yaml) and the lock file that pins hashes learnt on first fetch."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import yaml

from tasks.errors import PipelineError
from tasks.io import atomic_path

HERE = Path(__file__).resolve().parent
REGISTRY_FILE = HERE / "sources.yaml"
LOCK_FILE = HERE / "sources.lock.tsv"


@dataclass(frozen=True)
class SourceFile:
    path: str  # relative path under data/raw/<source>/ and under the source's mirror folder
    upstream: str  # upstream path relative to the source's base (or Hub repo)
    sha256: str | None
    bytes: int | None = None
    member: str | None = None  # member of the upstream archive, when upstream is an archive


@dataclass(frozen=True)
class Source:
    name: str
    title: str
    licence: str
    mirror: str | None  # folder in a raw-data mirror; None: upstream only
    upstream: dict  # {kind: url, base} or {kind: hf, repo_id, revision}
    files: tuple[SourceFile, ...]

    def upstream_label(self) -> str:
        up = self.upstream
        if up["kind"] == "hf":
            return f"hf://datasets/{up['repo_id']}@{up['revision']}"
        return up["base"]


def load_registry(path: str | Path = REGISTRY_FILE) -> dict[str, Source]:
    """Parse the registry into Source objects, validating each entry."""
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    sources = {}
    for name, entry in raw.items():
        try:
            files = tuple(SourceFile(**f) for f in entry["files"])
            kind = entry["upstream"]["kind"]
            if kind not in ("url", "hf"):
                raise ValueError(f"unknown upstream kind {kind!r}")
            sources[name] = Source(name=name, title=entry["title"], licence=entry["licence"], mirror=entry["mirror"],
                                   upstream=entry["upstream"], files=files)
        except (KeyError, TypeError, ValueError) as exc:
            raise PipelineError(f"{path}: source '{name}' is malformed: {exc}") from exc
    return sources


def read_lock(path: str | Path = LOCK_FILE) -> dict[tuple[str, str], str]:
    """Return {(source, file path): sha256} pinned on earlier fetches."""
    path = Path(path)
    if not path.exists():
        return {}
    with open(path, encoding="utf-8", newline="") as fh:
        return {(r["source"], r["path"]): r["sha256"] for r in csv.DictReader(fh, delimiter="\t")}


def write_lock(lock: dict[tuple[str, str], str], path: str | Path = LOCK_FILE) -> None:
    """Write the lock file sorted, so it diffs cleanly in git."""
    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            fh.write("source\tpath\tsha256\n")
            for (source, fpath), sha in sorted(lock.items()):
                fh.write(f"{source}\t{fpath}\t{sha}\n")
