"""Flow `train_detector`: fine-tune the cross-encoder detector on PAWS-X dev pairs built by the
perturbation library, none from an evaluation split (DVC stage `train_detector`)."""
from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.detectors.train import train_cross_encoder
from tasks.detectors.training_pairs import training_pairs
from tasks.hallucigen.sources import load_models, model_ids
from tasks.io import atomic_dir, write_json
from tasks.models.gpu_limit import GPU_TAG, ensure_gpu_limit
from tasks.params import ROOT
from tasks.params_schema import GpuLimit, TrainDetector, as_dict, flow_params

DATA = ROOT / "data"


@task(name="build-training-pairs", cache_policy=NO_CACHE)
def pairs_task(params: dict):
    models = load_models(["en", "fr"])
    rows, stats = training_pairs(DATA / "raw", DATA / "hallucigen", params, models)
    return rows, {**stats, "spacy_models": model_ids(models)}


@task(name="train-cross-encoder", cache_policy=NO_CACHE, tags=[GPU_TAG])
def train_task(rows: list[dict], params: dict) -> dict:
    with atomic_dir(DATA / "detectors" / "cross-encoder") as tmp:
        return train_cross_encoder(rows, params, tmp)


@flow(name="train-detector")
def train_detector(params: TrainDetector, gpu: GpuLimit) -> None:
    ensure_gpu_limit(gpu.gpu_concurrency)
    rows, stats = pairs_task(as_dict(params))
    stats["training"] = train_task(rows, as_dict(params))
    write_json(stats, ROOT / "metrics" / "train_detector.json")


if __name__ == "__main__":
    run_flow(lambda: train_detector(**flow_params(train_detector)), name="train_detector")
