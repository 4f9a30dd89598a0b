"""Shared pieces of the edit tests: example sentences, an entity pool and `run`, one edit through
`tasks.edits.library.perturb`."""

import random

from tasks.edits.context import Context
from tasks.edits.library import perturb

EN = ("In 1997 , she appeared as Sheila Dixon in Coronation Street , and in 1998 her brother moved 25 km north "
      "to Leeds .")
DE = "Im März 1997 war er mit seinem Bruder 25 km nördlich von Berlin und hat dort drei Jahre gelebt."
POOL = {"PERSON": ["John Smith"], "GPE@to": ["Paris"], "GPE@von": ["Paris"], "LOC@à": ["Nice"], "NAME@om": ["Uppsala"]}


# Every label a named-entity edit can swap: the default is persons only (SWAPPED_LABELS); tests of the place and
# organisation rules switch the others on.
ALL_LABELS = {"PERSON", "PER", "GPE", "LOC", "ORG", "NAME"}


def run(type_, text, lang, doc=None, ents=(), seed="1", labels=None):
    return perturb(type_, text, Context(lang, random.Random(f"{seed}:{type_}"), doc, list(ents), POOL,
                                        entity_labels=labels))
