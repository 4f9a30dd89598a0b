"""Flow `dialogue`: one knowledge-grounded dialogue dataset with its history-truncated variants
(DVC stage `dialogue@<dataset>`). Usage: python -m flows.dialogue <dataset>"""
from __future__ import annotations

import sys
from pathlib import Path

from prefect import flow, task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE

from flows.main import artifact_key, run_flow
from tasks.dialogue.build import RAW_SOURCES, load_dialogue
from tasks.dialogue.outputs import write_dialogue
from tasks.dialogue.turns import LoadResult
from tasks.params import ROOT
from tasks.params_schema import DialogueBuild, as_dict, flow_params

RAW_ROOT = ROOT / "data" / "raw"


@task(name="load-dialogue", cache_policy=NO_CACHE, task_run_name="load-{dataset}")
def load_dialogue_task(dataset: str, params: dict, raw_root: Path) -> LoadResult:
    return load_dialogue(dataset, params, raw_root)


@task(name="write-dialogue", cache_policy=NO_CACHE, task_run_name="write-{dataset}")
def write_dialogue_task(dataset: str, result: LoadResult, variants: list, raw_sources: list[str], params: dict,
                        out_dir: Path, metrics_file: Path) -> None:
    stats = write_dialogue(dataset, result, variants, raw_sources, params, out_dir, metrics_file)
    create_table_artifact(key=artifact_key("dialogue", dataset, "counts"),
                          table=[{"split": s, "turns": v["turns"]} for s, v in stats["splits"].items()],
                          description=f"Dialogue dataset {dataset}: turns per split")


@flow(name="dialogue", flow_run_name="dialogue-{dataset}")
def dialogue(dataset: str, params: DialogueBuild) -> None:
    result = load_dialogue_task(dataset, as_dict(params), RAW_ROOT)
    write_dialogue_task(dataset, result, params.truncation, RAW_SOURCES.get(dataset, []), as_dict(params),
                        ROOT / "data" / "dialogue" / dataset, ROOT / "metrics" / "dialogue" / f"{dataset}.json")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    run_flow(lambda: dialogue(**flow_params(dialogue, sys.argv[1])), name=f"dialogue@{sys.argv[1]}")
