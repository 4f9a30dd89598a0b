"""Detectors by params: detect.detectors maps a name to {kind, ...}; kinds: nli, llm_prompt, similarity,
consistency, cross_encoder, learned, fluency (source-blind), vote. Optional per detector: langpairs (only these
directions/languages) and max_per_langpair (a seeded subsample, for slow detectors on CPU); int8 (encoder models:
dynamic int8 quantisation on CPU); enabled (default true)."""
from __future__ import annotations

from tasks.detectors.consistency import ConsistencyDetector
from tasks.detectors.cross_encoder import CrossEncoderDetector
from tasks.detectors.hypothesis_only import FluencyDetector
from tasks.detectors.learned import LearnedDetector, load_head
from tasks.detectors.llm_prompt import LLMPromptDetector
from tasks.detectors.nli import NLIDetector
from tasks.detectors.similarity import SimilarityDetector
from tasks.errors import PipelineError
from tasks.models.client import make_client, scores_answers
from tasks.models.encoders import cpu_only

MODEL_KINDS = {"nli", "llm_prompt", "similarity", "cross_encoder", "learned", "fluency"}  # gpu-tagged: holds_gpu
KINDS = MODEL_KINDS | {"consistency", "vote"}
PAIR_ONLY_KINDS = {"llm_prompt"}  # a per-hypothesis score only through a client that scores answers


def active_detectors(detectors: dict) -> dict:
    """The detectors not switched off (enabled: false), in params order."""
    return {name: spec for name, spec in detectors.items() if spec.get("enabled", True)}


def check_detectors(detectors: dict) -> None:
    """Unknown kinds and vote members that are not (earlier) detectors fail with the detector's name."""
    seen = []
    for name, spec in detectors.items():
        if spec.get("kind") not in KINDS:
            raise PipelineError(f"detector {name!r}: unknown kind {spec.get('kind')!r}; one of {sorted(KINDS)}")
        if spec["kind"] == "vote":
            missing = [m for m in spec.get("members", []) if m not in seen]
            if len(spec.get("members", [])) < 2 or missing:
                raise PipelineError(f"detector {name!r}: a vote needs two or more detectors listed before it; "
                                    f"unknown or later: {missing}")
        seen.append(name)


def pair_only(spec: dict, llm_params: dict | None) -> bool:
    """Whether a detector only compares two hypotheses (nothing to run on a binary set): an LLM prompt detector
    whose client returns text without log-probabilities."""
    return spec["kind"] in PAIR_ONLY_KINDS and not (llm_params and scores_answers(llm_params))


def holds_gpu(spec: dict) -> bool:
    """Whether a detector's tasks hold a `gpu` slot: every model kind, except an encoder that has no accelerator
    path (e5's C engine, for similarity and the learned head): those run beside the gpu tasks, on the CPU."""
    if spec["kind"] not in MODEL_KINDS:
        return False
    if spec["kind"] == "similarity":
        return not cpu_only(spec["model"])
    if spec["kind"] == "learned":
        return not cpu_only(load_head(spec["model"])["encoder"])
    return True


def build_detector(name: str, spec: dict, llm_params: dict | None = None):
    """The detector object for a non-vote spec (models load here)."""
    kind = spec["kind"]
    model_args = {k: spec[k] for k in ("batch_size", "max_length", "int8") if k in spec}
    if kind == "nli":
        return NLIDetector(name, spec["model"], **model_args)
    if kind == "cross_encoder":
        return CrossEncoderDetector(name, spec["model"], **model_args)
    if kind == "learned":
        return LearnedDetector(name, spec["model"], **{k: v for k, v in model_args.items() if k == "batch_size"})
    if kind == "similarity":
        return SimilarityDetector(name, spec["model"], **model_args)
    if kind == "fluency":  # source-blind: the hypothesis-only artifact check
        return FluencyDetector(name, spec.get("model", "smollm2"), spec.get("batch_size", 16),
                               spec.get("dtype") or "float32")
    if kind == "consistency":
        return ConsistencyDetector(name)
    if kind == "llm_prompt":
        return LLMPromptDetector(name, make_client(llm_params), spec["prompt"])
    raise PipelineError(f"detector {name!r}: kind {kind!r} is not built by build_detector")
