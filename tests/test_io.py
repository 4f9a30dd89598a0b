"""tasks/io.py: atomic writers (a failed or killed write leaves the previous artifact, and the temporaries a
killed writer leaves behind are swept on the next start, only theirs and only when their writer is gone), and
strict rows (write_parquet refuses a row whose keys differ from the schema, naming file, row and column,
writing nothing)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tasks.errors import SchemaError
from tasks.io import atomic_dir, sweep_stale_temporaries, write_parquet
from tasks.schemas import CHARP_PREDICTION

ROOT = Path(__file__).resolve().parent.parent
KILLED_WRITER = """
import sys, time
from pathlib import Path
from tasks.io import atomic_dir, write_json
with atomic_dir(sys.argv[1]) as tmp:
    write_json({"new": True}, Path(tmp) / "a.json")
    print("writing", flush=True)
    time.sleep(60)
"""


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_atomic_dir_keeps_the_previous_folder_until_the_block_succeeds(tmp_path):
    out = tmp_path / "raw"
    out.mkdir()
    (out / "old.txt").write_text("old")
    with pytest.raises(RuntimeError), atomic_dir(out) as tmp:
        (tmp / "new.txt").write_text("new")
        raise RuntimeError("verification failed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw"] and (out / "old.txt").read_text() == "old"
    with atomic_dir(out) as tmp:
        (tmp / "new.txt").write_text("new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw"]
    assert sorted(p.name for p in out.iterdir()) == ["new.txt"]


def test_a_killed_writer_leaves_a_temporary_that_the_sweep_removes(tmp_path):
    out = tmp_path / "data" / "translation"
    out.mkdir(parents=True)
    (out / "old.json").write_text("{}")
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert writer.stdout.readline() == "writing\n"
        (left,) = [p for p in out.parent.iterdir() if p.name != "translation"]
        assert left.name.startswith(f".translation.{writer.pid}-") and (left / "a.json").is_file()
        assert sweep_stale_temporaries(tmp_path) == []  # its writer still runs
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
    assert sweep_stale_temporaries(tmp_path / "data") == [left]
    assert [p.name for p in out.parent.iterdir()] == ["translation"] and (out / "old.json").read_text() == "{}"


def test_sweep_removes_only_the_atomic_writers_temporaries(tmp_path):
    dead, live = _dead_pid(), subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        nested = tmp_path / "data" / "hallucigen" / "translation"
        nested.mkdir(parents=True)
        stale = [nested / f".test.generation.parquet.{dead}-k2x_9qaz.tmp",
                 tmp_path / "data" / f".raw.{dead}-abcdefgh.tmp",
                 tmp_path / "data" / ".raw.q1w2e3r4.tmp"]  # the last: named before writers recorded their pid
        stale[1].mkdir()
        (stale[1] / "pawsx").mkdir()
        for path in (stale[0], stale[2]):
            path.write_text("partial")
        kept = [nested / f".trial.detection.parquet.{live.pid}-abcdefgh.tmp", nested / ".hidden.tmp",
                nested / "results.tmp", nested / ".test.parquet.ABCDEFGH.tmp", nested / ".test.parquet.abc.tmp",
                nested / "test.generation.parquet"]
        for path in kept:
            path.write_text("keep")
        assert sorted(sweep_stale_temporaries(tmp_path / "data", tmp_path / "metrics")) == sorted(stale)
        assert not any(p.exists() for p in stale) and all(p.read_text() == "keep" for p in kept)
    finally:
        live.kill()
        live.wait()


ROW = {"id": "t1", "system": "smollm2", "train_h": "full", "eval_h": "0", "prediction": "Yes."}


def test_exact_rows_are_written(tmp_path):
    write_parquet([ROW, {**ROW, "id": "t2"}], CHARP_PREDICTION, tmp_path / "p.parquet")
    assert [r["id"] for r in pq.read_table(tmp_path / "p.parquet").to_pylist()] == ["t1", "t2"]


@pytest.mark.parametrize("bad, message", [
    ({k: v for k, v in ROW.items() if k != "prediction"}, r"p\.parquet: row 1: missing column 'prediction'$"),
    ({**ROW, "predicton": "typo"}, r"p\.parquet: row 1: column 'predicton' not in the schema$"),
    ({**{k: v for k, v in ROW.items() if k != "eval_h"}, "evalh": "0"},
     r"row 1: missing column 'eval_h'; column 'evalh' not in the schema$"),
])
def test_a_row_with_other_keys_is_an_error_naming_row_and_column(tmp_path, bad, message):
    with pytest.raises(SchemaError, match=message):
        write_parquet([ROW, bad], CHARP_PREDICTION, tmp_path / "p.parquet")
    assert list(tmp_path.iterdir()) == []
