"""`make run`: one `dvc repro` whose stages all report to one local Prefect server, then the per-stage
time table. The server on 127.0.0.1:<port> is reused when it answers, else started in the background
(state in .prefect/); an explicit PREFECT_API_URL wins over both.

    python -m tasks.ops.run [--port N] [--save FILE.json] [dvc repro args, e.g. a stage name]
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import asdict
from pathlib import Path

from tasks.errors import PipelineError
from tasks.io import write_json
from tasks.ops.prefect_server import PORT, STATE_DIR, answers, client_env, ensure_server, ui_url
from tasks.ops.stage_times import format_table, timed_repro
from tasks.params import ROOT


def server_for_run(port: int) -> str:
    """The API URL the stages report to, with a line saying where it comes from."""
    explicit = os.environ.get("PREFECT_API_URL")
    if explicit:
        if not answers(explicit):
            raise PipelineError(f"PREFECT_API_URL={explicit} does not answer; unset it to use a local server")
        print(f"Prefect server: PREFECT_API_URL={explicit}", flush=True)
        return explicit
    api, started = ensure_server(STATE_DIR, port)
    print(f"Prefect server: {'started' if started else 'reusing the one'} at {ui_url(api)} "
          f"({'state and log in ' + str(STATE_DIR) if started else 'already running'})", flush=True)
    return api


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=PORT)
    ap.add_argument("--save", type=Path, help="also write the table's rows here (JSON)")
    args, repro_args = ap.parse_known_args(argv)
    try:
        api = server_for_run(args.port)
    except PipelineError as exc:
        print(f"ERROR make run: {exc}", file=sys.stderr)
        return 1
    returncode, rows, total, cpu = timed_repro(repro_args, ROOT, client_env(api))
    print(f"\nPer-stage wall time ({' '.join(['dvc repro', *repro_args])}):")
    print(format_table(rows, total, cpu))
    print(f"Flow runs, task runs and artifacts of every stage: {ui_url(api)}/runs")
    if args.save:
        write_json([asdict(r) for r in rows], args.save)
    return returncode


if __name__ == "__main__":
    sys.exit(main())
