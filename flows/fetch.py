"""Flow `fetch`: bring every enabled raw source into data/raw/, verified (DVC stage `fetch`)."""
from __future__ import annotations

from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.errors import PipelineError
from tasks.fetch.fetch import fetch_source, resolve_mirror
from tasks.fetch.registry import Source, load_registry, read_lock
from tasks.io import atomic_dir, write_json
from tasks.params import ROOT
from tasks.params_schema import Fetch, flow_params

OUT_DIR = ROOT / "data" / "raw"


@task(name="fetch-source", cache_policy=NO_CACHE, task_run_name="fetch-{source.name}")
def fetch_source_task(source: Source, mirror: Path | None, out_dir: Path, lock: dict, timeout: float) -> dict:
    entry = fetch_source(source, mirror, out_dir, lock, timeout)
    origin = "mirror" if mirror is not None and source.mirror is not None else "upstream"
    get_run_logger().info("%s: %d files verified (from %s)", source.name, len(entry["files"]), origin)
    return entry


@flow(name="fetch")
def fetch(params: Fetch) -> None:
    registry = load_registry()
    unknown = sorted(set(params.sources) - set(registry))
    if unknown:
        raise PipelineError(f"params fetch.sources names unknown sources {unknown}; known: {sorted(registry)}")
    mirror = resolve_mirror(params.mirror)
    get_run_logger().info("raw-data mirror: %s", mirror or "none (upstream)")
    lock = read_lock()
    pinned = len(lock)
    with atomic_dir(OUT_DIR) as tmp:
        manifest = {name: fetch_source_task(registry[name], mirror, Path(tmp), lock, params.timeout_s)
                    for name in params.sources}
        write_json(manifest, Path(tmp) / "SOURCES.json")
    if len(lock) > pinned:
        get_run_logger().warning("%d file(s) have no pinned sha256 (hashes in data/raw/SOURCES.json): run "
                                 "`make pin-sources` to pin them in tasks/fetch/sources.lock.tsv", len(lock) - pinned)


if __name__ == "__main__":
    run_flow(lambda: fetch(**flow_params(fetch)), name="fetch")
