"""tasks/edits/pronouns.py: when a change of person reads as a plain change."""

from tasks.edits.pronouns import person_change_problem


def _problem(text: str, old: str, new: str, lang: str = "en") -> str | None:
    start = text.rindex(old)
    return person_change_problem(text, start, start + len(old), new, lang)


def test_a_first_or_second_person_object_the_sentence_already_has_would_need_a_reflexive():
    """'You want me to talk to me?' names the speaker twice where English says 'myself'."""
    assert _problem("You want me to talk to her?", "her", "me") == "reflexive_needed"
    assert _problem("We voted for them .", "them", "us") == "reflexive_needed"
    assert _problem("You want me to talk to her?", "me", "him") is None
    assert _problem("You want Tom to talk to her?", "her", "me") is None
