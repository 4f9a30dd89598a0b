"""Flow `nightly-reevaluation`: `dvc repro` of the scoring stages, every metric compared with the
previous successful run (history under data/history), a regression report (markdown file + Prefect
artifact), and a failed run when a metric drops by more than nightly.max_drop.

    python -m flows.nightly          run it once
    python -m flows.nightly serve    serve the deployment `nightly-reevaluation/nightly` on its cron
                                     schedule (needs a Prefect server: make server; PREFECT_API_URL set)
"""
from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run

from flows.main import run_flow
from tasks.errors import PipelineError
from tasks.io import atomic_path
from tasks.params import ROOT
from tasks.params_schema import Nightly, as_dict, flow_params, load_stage_params
from tasks.scoring.history import (
    append_history,
    compare,
    flatten,
    last_successful,
    read_history,
    regression_report,
)

DEPLOYMENT = "nightly"


class RegressionError(PipelineError):
    """A metric dropped by more than the allowed amount since the previous successful run."""


@task(name="dvc-repro", cache_policy=NO_CACHE)
def repro_task(targets: list[str]) -> None:
    proc = subprocess.run(["dvc", "repro", *targets], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-5:]
        raise PipelineError(f"dvc repro {' '.join(targets)} failed ({proc.returncode}): " + " / ".join(tail))


@task(name="compare-with-history", cache_policy=NO_CACHE)
def compare_task(params: dict, run: dict) -> tuple[str, list[dict]]:
    current = flatten(json.loads((ROOT / "metrics" / "score.json").read_text(encoding="utf-8")))
    folder = ROOT / params["history"]
    previous = last_successful(read_history(folder / "metrics.jsonl"))
    rows = compare(previous["metrics"] if previous else None, current, params["max_drop"])
    report = regression_report(rows, previous, run, params["max_drop"])
    regressions = [r for r in rows if r["regression"]]
    for path in (folder / "reports" / f"{run['started'].replace(':', '')}.md", folder / "regression_report.md"):
        with atomic_path(path) as tmp:
            tmp.write_text(report, encoding="utf-8")
    append_history(folder / "metrics.jsonl",
                   {**run, "status": "regression" if regressions else "ok", "metrics": current})
    create_markdown_artifact(key="nightly-regression-report", markdown=report, description="Nightly metric comparison")
    return report, regressions


@flow(name="nightly-reevaluation")
def nightly(params: Nightly) -> None:
    params = as_dict(params)
    run = {"started": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "name": flow_run.get_name() or "local"}
    repro_task(params["targets"])
    _, regressions = compare_task(params, run)
    if regressions:
        names = ", ".join(r["metric"] for r in regressions[:5])
        raise RegressionError(f"{len(regressions)} metric(s) dropped by more than {params['max_drop']}: {names}; "
                              f"see {params['history']}/regression_report.md")


def serve() -> None:
    from prefect.schedules import Cron

    params = load_stage_params(Nightly)
    nightly.serve(name=DEPLOYMENT, parameters={"params": as_dict(params)},
                  schedules=[Cron(params.cron, timezone=params.timezone)])


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        serve()
    else:
        run_flow(lambda: nightly(**flow_params(nightly)), name="nightly")
