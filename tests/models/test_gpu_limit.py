"""The gpu concurrency limit on the real `detect` flow, on a real Prefect server of its own (a fresh database:
the limit is global, so runs elsewhere on the machine must not hold its slots): three model detectors
(similarity on the packaged MiniLM) and one CPU detector (consistency) submitted side by side on a written
evaluation set. The task-run times read back from the API show, with limit 1, no two model tasks overlapping
while the CPU detector overlaps one of them; with limit 2, two model tasks overlap. Outputs are the same either
way."""
from __future__ import annotations

from itertools import combinations

import pytest
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
from prefect.testing.utilities import prefect_test_harness

from flows.detect import detect
from tasks.errors import PipelineError
from tasks.io import write_parquet
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import load_params
from tasks.schemas import HALLUCIGEN_DETECTION

# Model tasks read the 480 en-fr pairs, one text at a time: seconds each, so under limit 2 two of them still
# overlap when a loaded server starts their task runs a second or two apart (16 pairs, 0.3-1.7 s a task, did
# not in one CI run). The CPU detector reads all 40,480 pairs, so it is still running when the first model
# task gets its slot.
MODEL_ROWS, CPU_ROWS = 480, 40000
SIMILARITY = {"kind": "similarity", "model": "minilm", "batch_size": 1, "langpairs": ["en-fr"]}
LLM = load_params("detect")["llm"]  # the client the detect schema requires (no llm_prompt detector here uses it)


def detect_params(limit: int) -> dict:
    return {"seed": 13, "gpu_concurrency": limit, "eval_sets": ["hallucigen-translation-test"], "llm": LLM,
            "detectors": {"sim-a": SIMILARITY, "sim-b": SIMILARITY, "sim-c": SIMILARITY,
                          "consistency": {"kind": "consistency"}}}


def write_eval_set(root) -> None:
    """A built translation test split: pairs whose hyp2 changes the source's number."""
    rows = []
    for k in range(MODEL_ROWS + CPU_ROWS):
        source = f"On {k % 28 + 1} March Anna Berg paid {k} euros for {k % 7 + 2} tickets in Paris."
        rows.append({"id": f"t{k}", "scenario": "translation", "langpair": "en-fr" if k < MODEL_ROWS else "de-en",
                     "split": "test", "source": source, "hyp1": source,
                     "hyp2": source.replace(f"paid {k} ", f"paid {k + 1} "),
                     "type": "number", "label": "hyp2"})
    write_parquet(rows, HALLUCIGEN_DETECTION, root / "data" / "hallucigen" / "translation" / "test.detection.parquet")


def task_spans(flow_run_id) -> dict[str, list[tuple]]:
    """(start, end) of the flow run's detector task runs, gpu-tagged and not."""
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])))
    detectors = [r for r in runs if r.name.startswith("detect-")]
    assert all(r.state.is_completed() and r.start_time and r.end_time for r in detectors)
    return {"gpu": [(r.start_time, r.end_time) for r in detectors if GPU_TAG in r.tags],
            "cpu": [(r.start_time, r.end_time) for r in detectors if GPU_TAG not in r.tags]}


def overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[1] and b[0] < a[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[int, tuple[dict, dict]]:
    """Per limit: the task spans and the output files of one detect run."""
    out = {}
    with prefect_test_harness(server_startup_timeout=180):
        for limit in (1, 2):
            root = tmp_path_factory.mktemp(f"limit{limit}")
            write_eval_set(root)
            state = detect(detect_params(limit), root, return_state=True)
            assert state.is_completed()
            with get_client(sync_client=True) as client:
                assert client.read_global_concurrency_limit_by_name(f"tag:{GPU_TAG}").limit == limit
            outputs = {p.name: p.read_bytes() for p in sorted((root / "data" / "detections").iterdir())}
            out[limit] = (task_spans(state.state_details.flow_run_id), outputs)
    return out


def test_limit_1_serialises_model_tasks_while_cpu_detectors_run_beside_them(runs):
    spans, _ = runs[1]
    assert len(spans["gpu"]) == 3 and len(spans["cpu"]) == 1
    assert not any(overlap(a, b) for a, b in combinations(spans["gpu"], 2)), spans
    assert any(overlap(spans["cpu"][0], g) for g in spans["gpu"]), spans


def test_limit_2_lets_two_model_tasks_overlap(runs):
    spans, _ = runs[2]
    assert any(overlap(a, b) for a, b in combinations(spans["gpu"], 2)), spans


def test_outputs_do_not_depend_on_the_limit(runs):
    assert runs[1][1] == runs[2][1]


@pytest.mark.parametrize("bad", [0, -1, "2", True])
def test_a_bad_limit_names_the_params_key(bad):
    with pytest.raises(PipelineError, match=r"detect\.gpu_concurrency"):
        ensure_gpu_limit(bad)
