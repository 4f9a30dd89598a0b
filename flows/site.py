"""Flow `site`: the static report site data/site/ (DVC stage `site`): dataset counts and validity, examples
per type with their edits, each detector's metrics, confusion matrix and errors per evaluation set, CHARP."""
from __future__ import annotations

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.io import atomic_dir
from tasks.params import ROOT
from tasks.params_schema import Site, SiteCharp, flow_params
from tasks.site import collect
from tasks.site.render import render_site

PLOTS = {"img/charp.png": ROOT / "data" / "charp" / "reports" / "metrics_by_eval_h.png"}


@task(name="collect-site", cache_policy=NO_CACHE)
def collect_task(params: Site, charp: SiteCharp) -> dict:
    return {"datasets": collect.datasets(ROOT),
            "types": collect.examples_by_type(ROOT, params.examples_per_type),
            "detectors": collect.detector_pages(ROOT, params.errors_per_detector),
            "charp": collect.charp(ROOT, charp.eval_dataset, charp.splits.eval, params.predictions_per_cell)}


@task(name="render-site", cache_policy=NO_CACHE)
def render_task(content: dict) -> list[str]:
    plots = {name: src for name, src in PLOTS.items() if src.is_file()}
    plots.update({f"img/{p.name}": p for p in sorted((ROOT / "data" / "reports").glob("f1.*.png"))})
    with atomic_dir(ROOT / "data" / "site") as tmp:
        return render_site(content, plots, tmp)


@flow(name="site")
def site(params: Site, charp: SiteCharp) -> None:
    pages = render_task(collect_task(params, charp))
    create_markdown_artifact(key="report-site", description="Pages of the static report site (data/site/)",
                             markdown="\n".join(["# data/site/", "", *[f"- `{p}`" for p in pages]]))


if __name__ == "__main__":
    run_flow(lambda: site(**flow_params(site)), name="site")
