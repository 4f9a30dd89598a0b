"""Flow `nightly-reevaluation`: `dvc repro` of the scoring stages, every metric compared with the
previous successful run (history under data/history), a regression report (markdown file + Prefect
artifact), and a failed run when a metric drops by more than nightly.max_drop.

With a DVC remote configured (make remote), artifacts and run-cache are pulled before the repro and pushed
after it, so any machine can run it.

    python -m flows.nightly                      run it once
    python -m flows.nightly serve                serve the deployment `nightly-reevaluation/nightly` on its cron
                                                 schedule (needs a Prefect server: make server; PREFECT_API_URL set)
    python -m flows.nightly deploy POOL [SOURCE] deploy it to a work pool (make deploy); a worker of the pool
                                                 (make worker) runs it from SOURCE: this checkout by default, or
                                                 a git URL the workers clone
"""
# No postponed annotations here: a served run loads this file by path, and Prefect validates `params: Nightly`.
import json
import subprocess
import sys
from datetime import UTC, datetime

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run

from flows.main import run_flow
from tasks.errors import PipelineError
from tasks.io import atomic_path
from tasks.params import ROOT
from tasks.params_schema import Nightly, as_dict, flow_params, load_stage_params
from tasks.remote import default_remote, sync
from tasks.scoring.metrics_log import (
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
def repro_task(targets: list[str], pull: bool) -> None:
    """`dvc repro`; with a remote, `--pull` fetches the outputs of stages restored from the run-cache."""
    args = ["dvc", "repro", *(["--pull"] if pull else []), *targets]
    proc = subprocess.run(args, check=False, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-5:]
        raise PipelineError(f"dvc repro {' '.join(targets)} failed ({proc.returncode}): " + " / ".join(tail))
    get_run_logger().info("dvc repro: " + " / ".join(proc.stdout.strip().splitlines()[-2:]))


@task(cache_policy=NO_CACHE)
def remote_task(action: str, targets: list[str]) -> None:
    get_run_logger().info(f"dvc {action}: {sync(action, targets)}")


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
    run = {"started": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "name": flow_run.get_name() or "local"}
    remote = default_remote()
    if remote is None:
        get_run_logger().info("no DVC remote configured (make remote): artifacts stay on this machine")
    else:
        remote_task.with_options(name="dvc-pull")("pull", params["targets"])
    repro_task(params["targets"], pull=remote is not None)
    if remote is not None:
        remote_task.with_options(name="dvc-push")("push", params["targets"])
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


def deploy(pool: str, source: str = str(ROOT)) -> None:
    """The nightly deployment on a work pool: its workers load flows/nightly.py from ``source``."""
    from prefect.schedules import Cron

    params = load_stage_params(Nightly)
    nightly.from_source(source=source, entrypoint="flows/nightly.py:nightly").deploy(
        name=DEPLOYMENT, work_pool_name=pool, parameters={"params": as_dict(params)},
        schedules=[Cron(params.cron, timezone=params.timezone)])


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        serve()
    elif sys.argv[1:2] == ["deploy"] and len(sys.argv) in (3, 4):
        deploy(*sys.argv[2:])
    else:
        run_flow(lambda: nightly(**flow_params(nightly)), name="nightly")
