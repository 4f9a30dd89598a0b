"""Writing the PAWS-X edits artifacts: examples, detection view, rejects (parquet) and stats (metrics)."""
from __future__ import annotations

from pathlib import Path

from prefect import task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE

from tasks.io import atomic_dir, write_json, write_parquet
from tasks.pawsx.build import BuildResult
from tasks.schemas import DETECTION_EXAMPLE, EDIT_EXAMPLE, REJECT


def write_outputs(result: BuildResult, out_dir: Path, metrics_file: Path) -> None:
    """Replace out_dir as a whole (never half-written) and write the stats as a DVC metrics file."""
    with atomic_dir(out_dir) as tmp:
        write_parquet(result.examples, EDIT_EXAMPLE, Path(tmp) / "examples.parquet")
        write_parquet(result.detection, DETECTION_EXAMPLE, Path(tmp) / "detection.parquet")
        write_parquet(result.rejects, REJECT, Path(tmp) / "rejects.parquet")
    write_json(result.stats, metrics_file)


@task(name="write-pawsx-edits", cache_policy=NO_CACHE)
def write_outputs_task(result: BuildResult, out_dir: Path, metrics_file: Path) -> None:
    write_outputs(result, out_dir, metrics_file)
    table = [{"langpair": lp, "type": t, **{k: v for k, v in s.items() if k != "rejected_by_reason"}}
             for lp, by_type in result.stats["examples"].items() for t, s in by_type.items()]
    create_table_artifact(key="pawsx-edits-counts", table=table,
                          description="PAWS-X tense/negation examples: read / kept / rejected per direction and type")
