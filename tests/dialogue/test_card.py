"""tasks/dialogue/card.py: the annotation section names the brief and the second annotator's verdicts of an
annotated dataset, says when none judged it yet, and is absent for a dataset read from its source alone."""
from __future__ import annotations

from tasks.dialogue.card import annotation_lines


def test_the_annotation_section_names_the_brief_and_the_verdicts():
    text = "\n".join(annotation_lines({"examples": "curation/x/examples.jsonl", "review": "curation/x/judged.csv"}))
    assert "`curation/x/brief.md`" in text and "`curation/x/review_brief.md`" in text
    assert "verdicts in `curation/x/judged.csv`" in text


def test_an_unjudged_or_unannotated_dataset():
    assert annotation_lines({"examples": "curation/x/examples.jsonl", "review": None})[-1].endswith(
        "not yet judged by a second annotator.")
    assert annotation_lines({"split_fractions": {"train": 1.0}}) == []
