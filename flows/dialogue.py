"""Flow `dialogue`: one knowledge-grounded dialogue dataset with its history-truncated variants
(DVC stage `dialogue@<dataset>`). Usage: python -m flows.dialogue <dataset>"""
from __future__ import annotations

import sys

from prefect import flow

from flows.main import run_flow
from tasks.dialogue.build import RAW_SOURCES, load_dialogue_task
from tasks.dialogue.outputs import write_dialogue_task
from tasks.params import ROOT
from tasks.params_schema import DialogueBuild, as_dict, flow_params

RAW_ROOT = ROOT / "data" / "raw"


@flow(name="dialogue", flow_run_name="dialogue-{dataset}")
def dialogue(dataset: str, params: DialogueBuild) -> None:
    result = load_dialogue_task(dataset, as_dict(params), RAW_ROOT)
    write_dialogue_task(dataset, result, params.truncation, RAW_SOURCES.get(dataset, []), as_dict(params),
                        ROOT / "data" / "dialogue" / dataset, ROOT / "metrics" / "dialogue" / f"{dataset}.json")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    run_flow(lambda: dialogue(**flow_params(dialogue, sys.argv[1])), name=f"dialogue@{sys.argv[1]}")
