"""Check the paper profile against the real Hugging Face Hub (run on a networked machine): every Hub dataset
of the source registry exists at its revision and holds the files the registry names, and every Hub model
the paper profile names exists, with its commit id, weight format (safetensors or pickle-only) and, for the
NLI detectors, its labels. Prints one line per repo; exit 1 if anything is missing.

Usage: python -m tasks.fetch.hub_check   (honours HF_ENDPOINT and HF_TOKEN, e.g. for the gated Llama-2)"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from tasks.fetch.registry import load_registry
from tasks.models.registry import load_registry as load_model_registry
from tasks.params import PARAMS_FILE, ROOT
from tasks.profiles import _merge


def paper_params(params_file: Path = PARAMS_FILE) -> dict:
    params = yaml.safe_load(params_file.read_text(encoding="utf-8"))
    _merge(params, yaml.safe_load((ROOT / "profiles" / "paper.yaml").read_text(encoding="utf-8")), "")
    return params


def paper_models(params: dict) -> dict[str, str]:
    """Hub model id -> what uses it (nli models marked, for their label check). Names of the model registry
    stand for their Hub id, or are left out when PyPI packages ship them."""
    uses = {}
    for name, det in params["detect"]["detectors"].items():
        if det.get("model") and det.get("enabled", True):
            uses[det["model"]] = f"{det['kind']} detector {name}"
    uses[params["detect"]["llm"]["local"]["model"]] = "llm_prompt detectors"
    llm = params["hallucigen_llm"]
    for system in llm["generators"]:
        uses[llm["systems"][system]["client"]["local"]["model"]] = f"hallucigen_llm generator {system}"
    uses[params["train_detector"]["base_model"]] = "cross-encoder base"
    for system in params["charp"]["grid"]["systems"]:
        uses[params["charp"]["systems"][system]["model"]] = f"charp system {system}"
    uses[params["charp"]["metrics"]["bertscore_model"]] = "BERTScore"
    uses[params["charp"]["metrics"]["critic"]["model"]] = "critic"
    registry = load_model_registry()
    hub_ids = {(registry[m].transport.get("hub") if m in registry else m): u for m, u in uses.items()}
    return {m: u for m, u in hub_ids.items()  # minus packaged models and folders (a built artifact under data/)
            if m and not m.startswith(("data/", "/", ".")) and not (ROOT / m).exists()}


def check(params: dict) -> list[str]:
    """One line per repo: 'ok' or 'MISSING', what was checked; the caller exits 1 on any MISSING."""
    from huggingface_hub import HfApi, hf_hub_download

    api, lines = HfApi(), []
    for source in load_registry().values():
        up = source.upstream
        if up["kind"] != "hf":
            continue
        try:
            info = api.dataset_info(up["repo_id"], revision=up["revision"])
            have = {s.rfilename for s in info.siblings}
            missing = [f.upstream for f in source.files if f.upstream not in have]
            status = "MISSING" if missing else "ok"
            lines.append(f"{status} dataset {up['repo_id']}@{up['revision']} commit {info.sha}"
                         + (f"; missing files {missing} (has {sorted(have)})" if missing else ""))
        except Exception as exc:  # repo, revision or network: reported, not raised
            lines.append(f"MISSING dataset {up['repo_id']}@{up['revision']}: {_first_line(exc)}")
    for model, use in sorted(paper_models(params).items()):
        try:
            info = api.model_info(model)
            files = {s.rfilename for s in info.siblings}
            weights = ("safetensors" if any(f.endswith(".safetensors") for f in files)
                       else "pickle-only" if any(f.endswith(".bin") for f in files) else "no weights")
            line = f"ok model {model} ({use}) commit {info.sha}, weights {weights}"
            if use.startswith("nli"):
                config = json.loads(Path(hf_hub_download(model, "config.json", revision=info.sha)).read_text())
                line += f", labels {sorted(config.get('id2label', {}).values())}"
            lines.append(line)
        except Exception as exc:
            lines.append(f"MISSING model {model} ({use}): {_first_line(exc)}")
    return lines


def _first_line(exc: Exception) -> str:
    text = " ".join(str(exc).split("\n")[:1]) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"


if __name__ == "__main__":
    result = check(paper_params())
    print("\n".join(result))
    sys.exit(1 if any(line.startswith("MISSING") for line in result) else 0)
