"""Atomic, deterministic writers for artifacts (parquet, JSON, directories)."""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pyarrow as pa
import pyarrow.parquet as pq

from tasks.errors import InputError, SchemaError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
# Where the atomic writers keep the temporaries of targets under the project root: one git- and dvc-ignored
# folder that no stage depends on, so a killed stage leaves nothing inside a DVC-tracked out.
SCRATCH = PROJECT_ROOT / ".scratch"
# Temporaries of the atomic writers: ".<name>.<writer pid>-<random>.tmp" (older ones lack the pid).
TEMP_SIBLING = re.compile(r"^\.(?P<name>.+)\.(?:(?P<pid>\d+)-)?[a-z0-9_]{8}\.tmp$")


def _temp_prefix(path: Path) -> str:
    return f".{path.name}.{os.getpid()}-"


def temp_dir(path: str | Path) -> Path:
    """The folder for the temporaries of ``path``: SCRATCH for a path under the project root (outside SCRATCH)
    on SCRATCH's filesystem, e.g. data/dialogue/dstc11 -> .scratch/.dstc11.<pid>-<random>.tmp; otherwise the
    path's own folder (a test's tmp dir, ~/.cache, a file inside another temporary). Creates both folders."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    parent = path.parent.resolve()
    if not parent.is_relative_to(PROJECT_ROOT) or parent.is_relative_to(SCRATCH):
        return path.parent
    try:
        SCRATCH.mkdir(exist_ok=True)
        same_filesystem = SCRATCH.stat().st_dev == parent.stat().st_dev  # os.replace needs one filesystem
    except OSError:
        return path.parent
    return SCRATCH if same_filesystem else path.parent


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path (in ``temp_dir(path)``); move it onto ``path`` only if the block succeeds."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=".tmp", dir=temp_dir(path))
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def save_png(fig, path: str | Path) -> None:
    """Write a matplotlib figure as a PNG atomically, with no software stamp (reruns are byte-identical), and
    close it."""
    import matplotlib.pyplot as plt

    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)


@contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Yield a temporary directory (in ``temp_dir(path)``) that replaces ``path`` only if the block succeeds;
    until then the previous ``path`` stays as it was, and the swap itself is two renames."""
    path = Path(path)
    folder = temp_dir(path)
    tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(path), suffix=".tmp", dir=folder))
    old = None
    try:
        yield tmp
        os.chmod(tmp, 0o755)
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=_temp_prefix(path), suffix=".tmp", dir=folder))
            os.replace(path, old)
        try:
            os.replace(tmp, path)
        except BaseException:
            if old is not None:
                os.replace(old, path)
                old = None
            raise
    finally:
        for leftover in (tmp, old):
            if leftover is not None and leftover.exists():
                shutil.rmtree(leftover)


def sweep_stale_temporaries(*roots: str | Path) -> list[Path]:
    """Remove the atomic writers' temporaries under ``roots`` that no other live process owns (left by a
    killed stage, e.g. .scratch/.dstc11.<dead pid>-k2x9qaz1.tmp); call it before writing. Returns what was
    removed. Other files, and temporaries of another running writer, stay."""
    removed = []
    for root in map(Path, roots):
        for folder, dirs, files in os.walk(root):
            for name in sorted(dirs + files):
                match = TEMP_SIBLING.match(name)
                if not match or _alive(match["pid"]):
                    continue
                target = Path(folder) / name
                if name in dirs:
                    dirs.remove(name)
                    shutil.rmtree(target, ignore_errors=True)
                else:
                    target.unlink(missing_ok=True)
                removed.append(target)
    return removed


def _alive(pid: str | None) -> bool:
    if pid is None or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_json(obj: object, path: str | Path) -> None:
    """Write JSON with sorted keys and a trailing newline, atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def check_columns(rows: list[dict], schema: pa.Schema, path: str | Path) -> None:
    """Every row has exactly the schema's columns; else a SchemaError naming the file, row and column."""
    names = set(schema.names)
    for i, row in enumerate(rows):
        if row.keys() != names:
            missing, extra = sorted(names - row.keys()), sorted(row.keys() - names)
            what = [f"missing column {c!r}" for c in missing] + [f"column {c!r} not in the schema" for c in extra]
            raise SchemaError(f"{path}: row {i}: {'; '.join(what)}")


def write_parquet(rows: list[dict], schema: pa.Schema, path: str | Path) -> None:
    """Write rows as one parquet file with a fixed schema and no volatile metadata, atomically; a row whose
    keys differ from the schema's columns is an error (never a silent null)."""
    check_columns(rows, schema, path)
    table = pa.Table.from_pylist(rows, schema=schema)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd", write_statistics=False, store_schema=False)


def read_records(path: str | Path, name: str) -> list:
    """Rows of a raw JSON (a list, or {"data": [...]}), JSON Lines or parquet file; errors name the file."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{name}: file not found")
    try:
        if path.suffix == ".parquet":
            return pq.read_table(path).to_pylist()
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".jsonl":
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        data = json.loads(text)
    except (json.JSONDecodeError, pa.ArrowInvalid, UnicodeDecodeError) as exc:
        raise InputError(f"{name}: unreadable ({exc})") from exc
    return data["data"] if isinstance(data, dict) and "data" in data else data
