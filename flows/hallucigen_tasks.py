"""What both HalluciGen flows run once a build's rows exist (``finish_dataset``): the gates, the stats every
dataset card reports, the trained hypothesis-only probe and the source-blind check (gpu-tagged tasks), the
writer, which also publishes the per-type counts as a table artifact, and the probe's gate."""
from __future__ import annotations

from pathlib import Path

from prefect import task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE

from flows.main import artifact_key
from tasks.hallucigen.artifact_probe import probe_report
from tasks.hallucigen.build import check_build, check_probe, probe_gate
from tasks.hallucigen.fingerprint import encoder_fingerprints
from tasks.hallucigen.outputs import type_table, write_hallucigen
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.review import published_review_stats, review_stats
from tasks.hallucigen.select import detection_row
from tasks.hallucigen.source_blind import source_blind_report
from tasks.hallucigen.sources import source_lines
from tasks.models.gpu_limit import GPU_TAG
from tasks.models.sentence import sentence_encoder
from tasks.params import ROOT

RAW = ROOT / "data" / "raw"


@task(name="source-blind-check", cache_policy=NO_CACHE, tags=[GPU_TAG])
def source_blind_task(rows: list[dict], params: dict) -> dict:
    return source_blind_report(rows, params)


@task(name="artifact-probe", cache_policy=NO_CACHE, tags=[GPU_TAG])
def artifact_probe_task(rows: list[dict], params: dict) -> dict:
    spec = params["artifact_probe"]
    embed = sentence_encoder(spec["encoder"]).embed if spec["encoder"] else None
    return probe_report([detection_row(r, params["seed"]) for r in rows], spec, params["seed"], embed)


@task(name="write-hallucigen", cache_policy=NO_CACHE, task_run_name="write-{scenario}")
def write_hallucigen_task(scenario: str, rows: list[dict], published: list[dict], stats: dict, params: dict,
                          out_dir: Path, metrics_file: Path) -> None:
    write_hallucigen(scenario, rows, published, stats, params, out_dir, metrics_file)
    create_table_artifact(key=artifact_key("hallucigen", scenario, "counts"), table=type_table(rows),
                          description=f"HalluciGen {scenario}: examples per split, direction/language and type")


def finish_dataset(scenario: str, rows: list[dict], stats: dict, exhausted: dict[str, set], params: dict,
                   groups: list[str], sources: list[str], encoders: list[str | None]) -> None:
    """Gate a built dataset (``check_build``), add to its ``stats`` the published files of ``groups`` (directions or
    languages), the licence lines of ``sources``, the fingerprints of ``encoders``, the source-blind check when
    enabled, the artifact probe and the review figures, then write it: data/hallucigen/<scenario>/ and
    metrics/hallucigen_<scenario>.json ('translation': data/hallucigen/translation/). Last, the probe's gate
    (``check_probe``): the card of a build it fails is there to read."""
    check_build(scenario, rows, params, exhausted)
    published, stats["published_files"] = ingest_published(RAW / "hallucigen", scenario, groups)
    stats["sources"] = source_lines(sources)
    stats["encoder_fingerprints"] = encoder_fingerprints(encoders)
    if params["source_blind"]["enabled"]:
        stats["source_blind"] = source_blind_task(rows, params)
    if params["artifact_probe"]["enabled"]:
        report = artifact_probe_task(rows, params)
        stats["artifact_probe"] = {**report, "gate": probe_gate(report, params["artifact_probe"])}
    stats["review"] = review_stats(params["review_sheets"], scenario, rows)
    stats["published_review"] = published_review_stats(params["published_review"], published)
    write_hallucigen_task(scenario, rows, published, stats, params, ROOT / "data" / "hallucigen" / scenario,
                          ROOT / "metrics" / f"hallucigen_{scenario}.json")
    check_probe(scenario, stats.get("artifact_probe"))
