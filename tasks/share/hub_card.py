"""Hugging Face Hub metadata of a built dataset folder: the YAML front matter of its card (configs with
data_files per split and view, licence, languages, task categories, size, sources, pretty name)."""
from __future__ import annotations

from pathlib import Path

import yaml

from tasks.io import atomic_path
from tasks.share.croissant import write_croissant

# Hub licence identifiers of the raw sources (the registry's free-text licence is in the card body).
SOURCE_LICENSES = {
    "pawsx": "other", "hallucigen": "unknown", "aces": "cc-by-nc-sa-4.0", "shroom": "unknown",
    "sweparaphrase": "other", "turku-paraphrase-sv": "cc-by-sa-4.0", "begin": "other", "begin-2021": "cc-by-4.0",
    "dstc11-track5": "cdla-sharing-1.0", "faithdial": "mit", "charp": "unknown",
}
# Hub datasets the sources correspond to, for source_datasets ("extended|<id>"; else the registry name).
SOURCE_HUB_IDS = {
    "pawsx": "google-research-datasets/paws-x", "faithdial": "McGill-NLP/FaithDial", "charp": "huawei-noah/CHARP",
}
SIZE_BOUNDS = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]


def size_category(n_rows: int) -> str:
    """The Hub's size bucket of a dataset with n_rows rows (its largest view)."""
    return next((label for bound, label in SIZE_BOUNDS if n_rows < bound), "n>1M")


def licenses(sources: list[str]) -> list[str]:
    return sorted({SOURCE_LICENSES.get(s, "unknown") for s in sources})


def source_datasets(sources: list[str]) -> list[str]:
    return [f"extended|{SOURCE_HUB_IDS.get(s, s)}" for s in sources]


def config(name: str, splits: dict[str, str], default: bool = False) -> dict:
    """One Hub configuration: split name -> parquet path relative to the folder."""
    entry = {"config_name": name, "data_files": [{"split": s, "path": p} for s, p in splits.items()]}
    return {**entry, "default": True} if default else entry


def card_metadata(pretty_name: str, sources: list[str], languages: list[str], task_categories: list[str],
                  configs: list[dict], n_rows: int) -> dict:
    return {"pretty_name": pretty_name, "license": licenses(sources), "language": sorted(languages),
            "task_categories": task_categories, "size_categories": [size_category(n_rows)],
            "source_datasets": source_datasets(sources), "configs": configs}


def front_matter(meta: dict) -> str:
    """The card's YAML header, to put before its Markdown body."""
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000) + "---\n"


def hallucigen_metadata(scenario: str, rows: list[dict], sources: list[str]) -> dict:
    """Views generation (default) and detection per built split, plus the published files (one split)."""
    splits = sorted({r["split"] for r in rows}, key=["trial", "test"].index)
    configs = [config(view, {s: f"{s}.{view}.parquet" for s in splits}, default=view == "generation")
               for view in ("generation", "detection")]
    configs.append(config("published", {"published": "published.detection.parquet"}))
    languages = {lang for r in rows for lang in r["langpair"].split("-")}
    tasks = ["text-classification", "translation" if scenario == "translation" else "text-generation"]
    return card_metadata(f"HalluciGen {scenario}", sources, sorted(languages), tasks, configs, len(rows))


def dialogue_metadata(dataset: str, sources: list[str], splits: dict[str, int], variants: list[str]) -> dict:
    """One configuration per history variant (h-full the default), one split each."""
    configs = [config(v, {s: f"{s}/{v}.parquet" for s in splits}, default=i == 0) for i, v in enumerate(variants)]
    return card_metadata(f"Knowledge-grounded dialogue: {dataset}", sources, ["en"], ["text-generation"], configs,
                         sum(splits.values()))


HALLUCIGEN_CITATION = ("Dürlich, Gogoulou, Guillou, Nivre, Zahra. Overview of the CLEF-2024 Eloquent Lab: Task 2 on "
                       "HalluciGen - Detection and generation of hallucinations. CLEF 2024 Working Notes.")
CHARP_CITATION = ("CHARP: Conversation History AwaReness Probing for Knowledge-grounded Dialogue Systems. "
                  "Findings of ACL 2024.")


def write_hub_files(folder: Path, meta: dict, body: str, description: str, cite_as: str) -> None:
    """The card (front matter + Markdown body) and croissant.json of a folder whose data files are written."""
    with atomic_path(Path(folder) / "README.md") as card:
        card.write_text(front_matter(meta) + "\n" + body, encoding="utf-8")
    write_croissant(Path(folder), meta, description, cite_as)
