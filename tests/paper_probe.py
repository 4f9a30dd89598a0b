"""The paper path's pieces, run in a subprocess whose HF_ENDPOINT points at the local Hub (huggingface_hub
reads it at import). Prints one JSON object of what each piece produced; tests/e2e/test_paper_hub.py checks it.

Usage: python -m tests.paper_probe fetch <raw dir> <lock tsv>   (fetch aces, faithdial, charp; pin or verify)
       python -m tests.paper_probe models <work dir> <raw dir>  (ACES mapping, loaders, NLI, T5, critic)
       python -m tests.paper_probe offline <raw dir> <mirror>   (the offline profile's sources and models)"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from tasks.errors import PipelineError

PAPER_HUB_SOURCES = ["aces", "faithdial", "charp"]


def probe_fetch(raw: Path, lock_file: Path) -> dict:
    from tasks.fetch.fetch import fetch_source
    from tasks.fetch.registry import load_registry, read_lock, write_lock

    registry, lock = load_registry(), read_lock(lock_file)
    try:
        entries = {name: fetch_source(registry[name], None, raw, lock, timeout=10) for name in PAPER_HUB_SOURCES}
    except PipelineError as exc:
        return {"error": str(exc)}
    write_lock(lock, lock_file)
    return {"files": {name: [f["path"] for f in e["files"]] for name, e in entries.items()},
            "upstream": {name: e["upstream"] for name, e in entries.items()}}


def probe_models(work: Path, raw: Path) -> dict:
    from tasks.charp.generate import generate_beam
    from tasks.charp.metrics import critic_rate
    from tasks.charp.train import train_generator
    from tasks.detectors.nli import NLIDetector, entailment_columns, nli_decide
    from tasks.dialogue.charp import load_charp
    from tasks.dialogue.faithdial import load_faithdial
    from tasks.hallucigen.aces import aces_candidates
    from tests import hub_content as hc

    out: dict = {}
    candidates, tally = aces_candidates(raw / "aces" / "challenge_set.jsonl", ["en-fr", "fr-en", "en-de", "de-en"])
    out["aces_types"] = {d: sorted({c.type for c in cs}) for d, cs in candidates.items()}
    out["aces_tally"] = tally.as_dict()

    dialogue, counts = load_faithdial(raw / "faithdial", ["train", "valid", "test"])
    out["faithdial_turns"] = {s: len(rows) for s, rows in dialogue.splits.items()}
    charp = load_charp(raw / "charp", {"echarp": "echarp.json", "hcharp": "hcharp.json"},
                       dialogue.splits["valid"], counts["valid"])
    out["charp_turns"] = {s: len(rows) for s, rows in charp.splits.items()}

    sources = ["The museum opened in 1901 in Paris."] * 3
    for name in (hc.BGE_M3, hc.SCANDI):
        det = NLIDetector(name, name, batch_size=4)
        h1, h2 = ["The museum opened in 1901.", "It opened.", "Paris."], ["It opened in 1910.", "No.", "Lyon."]
        e, n = det.entailment(sources + sources, h1 + h2)
        rule = [nli_decide(e[i], n[i], e[3 + i], n[3 + i]) for i in range(3)]
        out[f"nli:{name}"] = {"labels": list(det.decide(sources, h1, h2)), "rule": rule,
                              "not_entailment_columns": entailment_columns(det.classifier.id2label)[1],
                              "e_plus_n": [round(float(x), 5) for x in e + n]}

    train, valid = dialogue.splits["train"], dialogue.splits["valid"]
    params = {"seed": 13, "epochs": 2, "batch_size": 4, "max_length": 64, "learning_rate": 0.001, "patience": 1}
    spec = {"model": hc.FLAN_T5, "arch": "seq2seq"}
    out["t5_losses"] = train_generator(train, valid, spec, params, work / "t5")
    out["t5_saved"] = sorted(p.name for p in (work / "t5").iterdir())
    gen = {"beam_size": 3, "batch_size": 4, "max_length": 64, "max_new_tokens": 6}
    out["t5_generated"] = generate_beam(charp.splits["hcharp"], str(work / "t5"), "seq2seq", gen)

    knowledge, predictions = [r["knowledge"] for r in valid], [r["response"] for r in valid]
    spec = {"model": hc.CRITIC, "hallucinated_label": 1}
    out["critic_pickle"] = critic_rate(knowledge, predictions, {**spec, "allow_pickle": True})
    try:
        critic_rate(knowledge, predictions, {**spec, "allow_pickle": False})
        out["critic_safetensors_only"] = "loaded"
    except PipelineError as exc:
        out["critic_safetensors_only"] = str(exc)
    return out


def probe_offline(raw: Path, mirror: Path) -> dict:
    """Fetch the offline profile's sources from the mirror and load each model it uses: the MiniLM encoder
    (similarity, cross-encoder base, BERTScore) and SmolLM2 (generation, LLM detectors, judge)."""
    import yaml

    from tasks.charp.metrics import bertscore_f1
    from tasks.detectors.pair_classifier import load_pair_classifier
    from tasks.fetch.fetch import fetch_source
    from tasks.fetch.registry import load_registry, read_lock
    from tasks.models.local import LocalChatClient

    profile = yaml.safe_load((Path(__file__).resolve().parent.parent / "profiles" / "offline.yaml").read_text())
    registry, lock = load_registry(), read_lock()
    fetched = {name: len(fetch_source(registry[name], mirror, raw, lock)["files"])
               for name in profile["fetch"]["sources"]}
    load_pair_classifier("minilm")
    return {"fetched": fetched, "bertscore": bertscore_f1(["the cat sat"], ["the cat sat"], "minilm", 6),
            "smollm2": LocalChatClient("smollm2", max_new_tokens=2).complete(["Say yes."])}


PROBES = {"fetch": probe_fetch, "models": probe_models, "offline": probe_offline}

if __name__ == "__main__":
    mode, first, second = sys.argv[1:]
    print(json.dumps(PROBES[mode](Path(first), Path(second)), default=str))
