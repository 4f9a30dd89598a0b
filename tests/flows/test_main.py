"""A stage that fails on bad input: a PipelineError prints one line and no traceback, Prefect still records
the run as failed, and the temporaries a killed run left are swept when the next run starts."""
from __future__ import annotations

import io
import logging
import re
import subprocess
import sys

from flows.main import OnePipelineErrorLine, artifact_key
from tasks.errors import MissingFileError, PipelineError
from tasks.ops.repo_copy import copy_repo
from tests.prefect_server import api_post
from tests.repo_copy import run, stage_env


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_failing_fetch_prints_one_line_and_prefect_records_the_failure(tmp_path, prefect_api):
    repo = copy_repo(tmp_path / "repo")
    empty_mirror = tmp_path / "empty-mirror"
    empty_mirror.mkdir()
    stale = repo / "data" / f".raw.{_dead_pid()}-abcdefgh.tmp"
    (stale / "pawsx").mkdir(parents=True)

    env = {**stage_env(empty_mirror), "PREFECT_API_URL": prefect_api}
    proc = run([sys.executable, "-m", "flows.fetch"], repo, env, check=False)

    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    message = "source 'pawsx': file 'x-final/de/dev_2k.tsv' is missing from the mirror"
    assert [line for line in lines if message in line] == [lines[-1]]
    assert lines[-1] == f"ERROR fetch: {message} ({empty_mirror}/pawsx/x-final/de/dev_2k.tsv)"
    assert not any("Traceback" in line or line.lstrip().startswith('File "') for line in lines)
    assert len(lines) <= 6, lines  # before: two tracebacks, 72-120 lines
    assert f"removed data/{stale.name}, left by a killed run" in lines and not stale.exists()
    name = re.search(r"Beginning flow run '([^']+)' for flow 'fetch'", proc.stderr)[1]
    (flow_run,) = api_post(prefect_api, "/flow_runs/filter", {"flow_runs": {"name": {"any_": [name]}}})
    assert flow_run["state_type"] == "FAILED"
    task_runs = api_post(prefect_api, "/task_runs/filter", {"flow_runs": {"id": {"any_": [flow_run["id"]]}}})
    assert [(t["name"], t["state_type"]) for t in task_runs] == [("fetch-pawsx", "FAILED")]


def _log_through_filter(records: list[tuple[str, BaseException | None]]) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(OnePipelineErrorLine())
    logger = logging.getLogger("tests.flow_errors")
    logger.propagate, logger.handlers = False, [handler]
    for message, exc in records:
        if exc is None:
            logger.error(message)
            continue
        try:
            raise exc
        except BaseException:
            logger.exception(message)
    return stream.getvalue()


def test_the_console_filter_drops_only_pipeline_errors_and_their_echoes():
    def caused_by_pipeline_error() -> RuntimeError:
        try:
            raise PipelineError("params key 'x' is bad")
        except PipelineError as inner:
            try:
                raise RuntimeError("wrapped") from inner
            except RuntimeError as outer:
                return outer

    out = _log_through_filter([
        ("Task run failed with exception", MissingFileError("file 'a.tsv' is missing")),
        ("Finished in state Failed(\"Task run encountered an exception MissingFileError: file 'a.tsv' is missing\")",
         None),
        ("Encountered exception during execution", caused_by_pipeline_error()),
        ("Finished in state Failed('RuntimeError: wrapped')", None),
        ("Encountered exception during execution", ValueError("not a pipeline error")),
    ])
    lines = out.splitlines()
    assert lines[0] == "Finished in state Failed('RuntimeError: wrapped')"
    assert lines[1] == "Encountered exception during execution" and lines[2] == "Traceback (most recent call last):"
    assert lines[-1] == "ValueError: not a pipeline error" and "a.tsv" not in out and "params key" not in out


def test_an_artifact_key_keeps_only_what_prefect_accepts():
    assert artifact_key("dialogue", "charp_offline", "counts") == "dialogue-charp-offline-counts"
    assert artifact_key("hallucigen", "Translation", "counts") == "hallucigen-translation-counts"
