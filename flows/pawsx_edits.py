"""Flow `pawsx_edits`: tense and negation examples from PAWS-X (DVC stage `pawsx_edits`)."""
from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE

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
from tasks.pawsx.build import BuildResult, Parser, build_examples
from tasks.pawsx.outputs import write_outputs

RAW_DIR = ROOT / "data" / "raw" / "pawsx"
OUT_DIR = ROOT / "data" / "pawsx_edits"
METRICS_FILE = ROOT / "metrics" / "pawsx_edits.json"


@task(name="build-pawsx-edits", cache_policy=NO_CACHE)
def build_examples_task(raw_dir: Path, params: dict, parse: Parser, tag: Parser, margin: int | None) -> BuildResult:
    return build_examples(raw_dir, params, parse, tag, margin, progress=True)


@task(name="write-pawsx-edits", cache_policy=NO_CACHE)
def write_outputs_task(result: BuildResult, out_dir: Path, metrics_file: Path) -> None:
    write_outputs(result, out_dir, metrics_file)
    table = [{"langpair": lp, "type": t, **{k: v for k, v in s.items() if k != "rejected_by_reason"}}
             for lp, by_type in result.stats["examples"].items() for t, s in by_type.items()]
    create_table_artifact(key="pawsx-edits-counts", table=table,
                          description="PAWS-X tense/negation examples: read / kept / rejected per direction and type")


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
