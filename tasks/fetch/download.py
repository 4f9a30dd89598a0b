"""Getting one registry file's bytes: from a mirror folder, a URL (optionally an archive member), or the Hub."""
from __future__ import annotations

import hashlib
import shutil
import tarfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from tasks.errors import MissingFileError, SourceUnavailable
from tasks.fetch.registry import Source, SourceFile

CACHE_DIR = Path.home() / ".cache" / "halluci-bench" / "downloads"


def sha256_of(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def from_mirror(mirror: Path, source: Source, f: SourceFile, dest: Path) -> None:
    """Copy a file from the mirror; a missing file is an error naming the source and file."""
    src = mirror / source.mirror / f.path
    if not src.is_file():
        raise MissingFileError(f"source '{source.name}': file '{f.path}' is missing from the mirror ({src})")
    shutil.copyfile(src, dest)


def _download(url: str, timeout: float) -> Path:
    """Download a URL once into the cache (atomic), returning the cached path."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    cached = CACHE_DIR / hashlib.sha256(url.encode()).hexdigest()[:24]
    if cached.exists():
        return cached
    tmp = cached.with_suffix(".part")
    with urllib.request.urlopen(url, timeout=timeout) as resp, open(tmp, "wb") as out:
        shutil.copyfileobj(resp, out)
    tmp.replace(cached)
    return cached


def _extract_member(archive: Path, member: str, dest: Path, label: str) -> None:
    """Copy one member (matched by path suffix) of a zip or tar archive to dest."""
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            names = [n for n in zf.namelist() if n == member or n.endswith("/" + member)]
            if names:
                with zf.open(names[0]) as src, open(dest, "wb") as out:
                    shutil.copyfileobj(src, out)
                return
    else:
        with tarfile.open(archive) as tf:
            names = [m for m in tf.getmembers() if m.isfile() and (m.name == member or m.name.endswith("/" + member))]
            if names:
                with tf.extractfile(names[0]) as src, open(dest, "wb") as out:
                    shutil.copyfileobj(src, out)
                return
    raise MissingFileError(f"{label}: member '{member}' not found in upstream archive")


def from_upstream(source: Source, f: SourceFile, dest: Path, timeout: float) -> None:
    """Fetch a file from its upstream location; unreachable upstream raises SourceUnavailable."""
    label = f"source '{source.name}', file '{f.path}'"
    up = source.upstream
    try:
        if up["kind"] == "hf":
            from huggingface_hub import hf_hub_download

            local = hf_hub_download(repo_id=up["repo_id"], filename=f.upstream, repo_type="dataset",
                                    revision=up["revision"], etag_timeout=timeout)
            shutil.copyfile(local, dest)
            return
        fetched = _download(up["base"] + f.upstream, timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise MissingFileError(f"{label}: upstream {up['base'] + f.upstream} answers 404") from exc
        raise _unreachable(source, str(exc)) from exc
    except MissingFileError:
        raise
    except Exception as exc:  # network, DNS, Hub errors: the source cannot be reached
        raise _unreachable(source, str(exc).splitlines()[0].split(". ")[0] if str(exc) else type(exc).__name__) from exc
    if f.member:
        _extract_member(fetched, f.member, dest, label)
    else:
        shutil.copyfile(fetched, dest)


def _unreachable(source: Source, reason: str) -> SourceUnavailable:
    return SourceUnavailable(
        f"source '{source.name}': upstream {source.upstream_label()} is unreachable ({reason}); it is switched on "
        f"in params.yaml fetch.sources: remove '{source.name}' there (or run `make profile PROFILE=offline`) "
        "to build without it")
