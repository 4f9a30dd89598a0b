"""tasks/hallucigen/famous_names.py: first-name swaps that touch a famous name give no example."""

from tasks.hallucigen.select import Candidate


def _swap(good, old, new, label="PERSON"):
    start = good.index(old)
    row = {"type": "named-entity", "hyp_good": good, "hyp_bad": good[:start] + new + good[start + len(old):],
           "edit_from": old, "edit_to": new, "edit_start": start, "edit_detail": f"{label}:{old}->{new}"}
    return Candidate(key=good, type="named-entity", row=row)


def test_first_name_swaps_that_touch_a_famous_name_give_no_example():
    """Blind reviews rejected 'Bob Gaye' beside Aretha Franklin and 'Alexander Fleming' directing a 1931 film
    (rule 5); an unknown person's first name swaps as before, and so does a place."""
    from tasks.hallucigen.famous_names import drop_famous_swaps, first_name_swap
    from tasks.stats import Tally

    gaye = _swap("Chuck Rainey was the first bassist for Aretha Franklin and Marvin Gaye.", "Marvin", "Bob")
    fleming = _swap("The film was directed by Douglas Fairbanks and Victor Fleming.", "Victor", "Alexander")
    shamah = _swap("Tarang P. Amin was replaced by Joey Shamah, who was named President.", "Joey", "Danny")
    blackett = _swap("The mill was sold to William Blackett in 1870.", "William", "Thomas")
    place = _swap("He moved from Paris to Berlin in 1920.", "Paris", "Lyon", label="GPE")
    assert first_name_swap(gaye.row) == ("Marvin", "Bob", "Gaye") and first_name_swap(place.row) is None
    candidates, tally = {"named-entity": [gaye, fleming, shamah, blackett, place]}, Tally()
    for _ in range(5):
        tally.keep()
    drop_famous_swaps(candidates, tally, "smollm2")
    assert candidates["named-entity"] == [shamah, blackett, place]
    assert tally.as_dict() == {"read": 5, "kept": 3, "rejected": 2, "rejected_by_reason": {"famous_name": 2}}
    unchecked = {"named-entity": [gaye, fleming]}
    drop_famous_swaps(unchecked, Tally(), None)
    assert unchecked["named-entity"] == [gaye, fleming]
