"""Entry point shared by the flows: sweep a killed run's temporaries, run a flow, and turn a PipelineError
into one line on stderr."""
from __future__ import annotations

import atexit
import logging
import re
import sys
from collections.abc import Callable

from prefect.logging.handlers import PrefectConsoleHandler

from tasks.errors import PipelineError
from tasks.io import SCRATCH, sweep_stale_temporaries
from tasks.ops import stage_profile
from tasks.params import ROOT

# Where a killed stage's temporaries are swept: the writers' scratch folder, and data/ and metrics/ for the
# sibling temporaries of a writer whose target is on another filesystem than .scratch/ (tasks.io.temp_dir).
ARTIFACT_ROOTS = (SCRATCH, ROOT / "data", ROOT / "metrics")


def artifact_key(*parts: str) -> str:
    """A Prefect artifact key from name parts: lowercase letters, digits and dashes only, which is all Prefect
    accepts (e.g. ("dialogue", "charp_offline", "counts") -> "dialogue-charp-offline-counts")."""
    return re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")


def run_flow(flow: Callable[[], object], name: str | None = None) -> None:
    """Run ``flow``; on a PipelineError exit 1 with one line naming the problem and no traceback.

    With HALLUCI_PROFILE set, the stage's time, memory and model loads are written at exit
    (tasks.ops.stage_profile). Before the run, temporaries that a killed stage left (in .scratch/ or among the
    artifacts) are removed.
    Prefect still marks the run failed (and sends its traceback to the API); the console shows no traceback for
    a PipelineError. The line is printed at interpreter exit, after Prefect has stopped its temporary
    server and logged that, so it is the last line a researcher sees.
    """
    for path in sweep_stale_temporaries(*ARTIFACT_ROOTS):
        print(f"removed {path.relative_to(ROOT)}, left by a killed run", file=sys.stderr)
    quiet_pipeline_errors()
    stage_profile.start(name or flow.__name__)
    failure: list[str] = []
    atexit.register(lambda: failure and print(failure[0], file=sys.stderr, flush=True))
    try:
        flow()
    except PipelineError as exc:
        failure.append(f"ERROR {name or flow.__name__}: {exc}")
        sys.exit(1)


def quiet_pipeline_errors() -> None:
    """Keep Prefect's console handlers from printing a PipelineError's tracebacks and the state lines that
    repeat its message; the API (and so the UI) still gets every record."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, PrefectConsoleHandler) and not any(
                isinstance(f, OnePipelineErrorLine) for f in handler.filters):
            handler.addFilter(OnePipelineErrorLine())


class OnePipelineErrorLine(logging.Filter):
    """Drops records that carry a PipelineError (or an error caused by one) and later records that repeat
    its message."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        while exc is not None and not isinstance(exc, PipelineError):
            exc = exc.__cause__ or exc.__context__
        if exc is not None:
            if str(exc):
                self.messages |= {str(exc), repr(str(exc))[1:-1]}
            return False
        text = record.getMessage()
        return not any(message in text for message in self.messages)
