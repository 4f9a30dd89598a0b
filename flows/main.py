"""Entry point shared by the flows: run a flow and turn a PipelineError into one line on stderr."""
from __future__ import annotations

import atexit
import sys
from typing import Callable

from tasks.errors import PipelineError


def run_flow(flow: Callable[[], object], name: str | None = None) -> None:
    """Run ``flow``; on a PipelineError exit 1 with one line naming the problem.

    The line is printed at interpreter exit, after Prefect has stopped its temporary server and logged
    that, so it is the last line a researcher sees.
    """
    failure: list[str] = []
    atexit.register(lambda: failure and print(failure[0], file=sys.stderr, flush=True))
    try:
        flow()
    except PipelineError as exc:
        failure.append(f"ERROR {name or flow.__name__}: {exc}")
        sys.exit(1)
