"""Flow `pawsx_edits`: tense and negation examples from PAWS-X (DVC stage `pawsx_edits`)."""
from __future__ import annotations

from prefect import flow

from flows.main import run_flow
from tasks.edits.spacy_model import (
    TAG_PIPES,
    batched_parser,
    load_english,
    model_id,
    tag_receptive_field,
)
from tasks.params import ROOT
from tasks.params_schema import PawsxEdits, as_dict, flow_params
from tasks.pawsx.build import build_examples_task
from tasks.pawsx.outputs import write_outputs_task

RAW_DIR = ROOT / "data" / "raw" / "pawsx"
OUT_DIR = ROOT / "data" / "pawsx_edits"
METRICS_FILE = ROOT / "metrics" / "pawsx_edits.json"


@flow(name="pawsx-edits")
def pawsx_edits(params: PawsxEdits) -> None:
    nlp = load_english(params.spacy_model)
    parse = batched_parser(nlp, params.batch_size, params.n_process)
    tag = batched_parser(nlp, params.batch_size, params.n_process, pipes=TAG_PIPES)
    result = build_examples_task(RAW_DIR, as_dict(params), parse, tag, tag_receptive_field(nlp))
    result.stats["spacy_model"] = model_id(nlp)
    write_outputs_task(result, OUT_DIR, METRICS_FILE)


if __name__ == "__main__":
    run_flow(lambda: pawsx_edits(**flow_params(pawsx_edits)), name="pawsx_edits")
