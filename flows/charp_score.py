"""Flow `charp_score`: metrics of every CHARP grid cell, the seven-category judge, the blind human-evaluation sheet,
agreement with filled sheets when there are some, the generators' learning curves, the summary table and plots
(DVC stage `charp_score`)."""
from __future__ import annotations

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.charp.cells import cells_with_turns
from tasks.charp.grid_scores import cell_metrics, judge_grid, metrics_json
from tasks.charp.report_files import write_reports
from tasks.io import atomic_dir, write_json
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import Charp, GpuLimit, as_dict, flow_params

DATA = ROOT / "data"


@task(name="automatic-metrics", cache_policy=NO_CACHE, tags=[GPU_TAG])
def metrics_task(cells: dict, params: dict) -> tuple[dict, dict]:
    return cell_metrics(cells, params["metrics"], params["seed"])


@task(name="judge", cache_policy=NO_CACHE, tags=[GPU_TAG])
def judge_task(cells: dict, params: dict) -> tuple[dict, dict, dict]:
    return judge_grid(cells, params, ROOT)


@flow(name="charp-score")
def charp_score(params: Charp, gpu: GpuLimit) -> None:
    params = as_dict(params)
    ensure_gpu_limit(gpu.gpu_concurrency)
    cells = cells_with_turns(DATA, params)
    results, per_turn = metrics_task(cells, params)
    judge = judge_task(cells, params) if params["judge"]["enabled"] else ({}, {}, {})
    with atomic_dir(DATA / "charp" / "reports") as tmp:
        text = write_reports(params, cells, results, per_turn, judge, ROOT, tmp)
    write_json(metrics_json(results), ROOT / "metrics" / "charp.json")
    create_markdown_artifact(key="charp-report", markdown=text, description="CHARP experiment grid")


if __name__ == "__main__":
    run_flow(lambda: charp_score(**flow_params(charp_score)), name="charp_score")
