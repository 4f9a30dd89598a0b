"""Flow `train_detector`: the trained detectors on PAWS-X dev pairs built by the perturbation library, none
from an evaluation split, split into train and validation by item: the learned detector (a head over frozen
e5 features) and the cross-encoder (a fine-tuned encoder, on a smaller subset); and the dialogue critic, the
same head on the CHARP domain's training turns (or BEGIN dev); the three train side by side, the two heads on
separate e5 engines (DVC stage `train_detector`)."""
from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.detectors.critic import begin_figure, critic_pairs, critic_split
from tasks.detectors.learned import save_head, train_head
from tasks.detectors.splits import items_per_direction, split_by_item
from tasks.detectors.train import train_cross_encoder
from tasks.hallucigen.sources import load_models, model_ids
from tasks.hallucigen.training_pairs import training_pairs
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


@task(name="train-learned-detector", cache_policy=NO_CACHE)
def learned_task(train: list[dict], valid: list[dict], params: dict) -> dict:
    head, figures = train_head(train, valid, {**params["learned"], "seed": params["seed"]})
    with atomic_dir(DATA / "detectors" / "learned") as tmp:
        save_head(head, tmp)
    return figures


@task(name="train-dialogue-critic", cache_policy=NO_CACHE)
def critic_task(params: dict) -> dict:
    spec, seed = params["critic"], params["seed"]
    rows, figures = critic_pairs(DATA, spec, seed)
    train, held_out = critic_split(rows, spec["valid_fraction"], seed)
    head, fit = train_head(train, held_out, {**params["learned"], "c": spec["c"], "seed": seed})
    with atomic_dir(DATA / "detectors" / "critic") as tmp:
        save_head(head, tmp)
    return {**figures, **fit, **begin_figure(head, DATA, spec, seed)}


@task(name="train-cross-encoder", cache_policy=NO_CACHE, tags=[GPU_TAG])
def cross_encoder_task(train: list[dict], valid: list[dict], params: dict) -> dict:
    with atomic_dir(DATA / "detectors" / "cross-encoder") as tmp:
        return train_cross_encoder(train, valid, params, tmp)


@flow(name="train-detector")
def train_detector(params: TrainDetector, gpu: GpuLimit) -> None:
    ensure_gpu_limit(gpu.gpu_concurrency)
    params = as_dict(params)
    rows, stats = pairs_task(params)
    train, valid = split_by_item(rows, params["valid_fraction"], params["seed"])
    small = items_per_direction(rows, params["cross_encoder_items_per_direction"], params["seed"])
    learned = learned_task.submit(train, valid, params)
    critic = critic_task.submit(params)
    training = cross_encoder_task.submit(*split_by_item(small, params["valid_fraction"], params["seed"]), params)
    stats.update(learned=learned.result(), critic=critic.result(), training=training.result())
    write_json(stats, ROOT / "metrics" / "train_detector.json")


if __name__ == "__main__":
    run_flow(lambda: train_detector(**flow_params(train_detector)), name="train_detector")
