"""Atomic writers: a failed or killed write leaves the previous artifact, and the temporaries a killed
writer leaves behind are swept on the next start (only theirs, and only when their writer is gone)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tasks.io import atomic_dir, sweep_stale_temporaries

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
