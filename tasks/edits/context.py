"""What a perturbation may use besides the text (Context), and the entity labels and Doc lookup the types share."""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from spacy.tokens import Doc

PERSON_LABELS = {"PERSON", "PER"}  # the NER labels of a person (en, fr); Swedish capitalised names are 'NAME'
PLACE_LABELS = {"GPE", "LOC"}


@dataclass
class Context:
    """What a perturbation may use besides the text: its language, a seeded RNG, the spaCy Doc (en, fr),
    named-entity spans in the text, a pool of entities of each label and the attested modifiers, both
    drawn from a corpus, and a tagger for edited sentences."""

    lang: str
    rng: random.Random
    doc: Doc | None = None
    entities: list[tuple[int, int, str]] = field(default_factory=list)
    entity_pool: dict[str, list[str]] = field(default_factory=dict)
    modifiers: dict = field(default_factory=dict)  # modifiers.attested() of a corpus of the language
    tag: Callable[[str], Doc] | None = None  # re-tags an edited sentence (en, fr)
    source: str = ""  # the source when it is in the same language (paraphrase)
    name_vectors: dict = field(default_factory=dict)  # name -> unit vector (entities.name_vectors)
    own_modifiers: dict = field(default_factory=dict)  # modifiers.attested() of the item's own corpus sentences
    entity_labels: set | None = None  # labels a named-entity edit swaps (None: SWAPPED_LABELS, persons)


def token_at(doc: Doc, start: int):
    """The token of ``doc`` that starts at character ``start``, or None."""
    return next((t for t in doc if t.idx == start), None)
