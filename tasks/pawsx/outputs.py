"""Writing the PAWS-X edits artifacts: examples, detection view, rejects (parquet) and stats (metrics)."""
from __future__ import annotations

from pathlib import Path

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
