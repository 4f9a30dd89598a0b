"""HalluciGen builds: selection, quality gates, consistency checks, ACES mapping, published files, pools."""
import random
from collections import Counter
from pathlib import Path

import pytest

from tasks.edits.result import Edit, Skip
from tasks.errors import PipelineError
from tasks.hallucigen.aces import aces_candidates
from tasks.hallucigen.consistency import failed_checks
from tasks.hallucigen.paraphrase import mend_hyphens, normalise, shroom_items, swedish_pairs
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.select import (
    Candidate,
    balance_gender_directions,
    check_gates,
    detection_row,
    edit_side,
    select_balanced,
    towards_women,
)
from tasks.hallucigen.translation import _foundation_edit

FIXTURES = Path(__file__).parent / "fixtures"


def _row(i, split="test", type_="number", source=None, good="a", bad="b"):
    return {"id": f"x:{i}", "split": split, "type": type_, "source": source or f"s{i}", "hyp_good": good,
            "hyp_bad": bad, "scenario": "paraphrase", "langpair": "en"}


def test_select_balanced_is_uniform_seeded_and_uses_each_source_once():
    cands = {t: [Candidate(key=f"k{k}", type=t, row={}) for k in range(n)] for t, n in
             (("number", 30), ("date", 3), ("tense", 30))}
    chosen, exhausted = select_balanced(cands, {"trial": 4, "test": 20}, random.Random(1))
    again, _ = select_balanced(cands, {"trial": 4, "test": 20}, random.Random(1))
    assert [c.key for c in chosen["test"]] == [c.key for c in again["test"]]
    keys = [c.key for split in chosen.values() for c in split]
    assert len(keys) == len(set(keys)) == 24
    test_types = [c.type for c in chosen["test"]]
    assert "date" in exhausted and "natural" in exhausted
    assert abs(test_types.count("number") - test_types.count("tense")) <= 1


def test_a_dropped_candidate_changes_only_the_pick_it_took_part_in():
    cands = {t: [Candidate(key=f"{t}{k}", type=t, row={"hyp_bad": f"{t}-{k}"}) for k in range(40)]
             for t in ("number", "date", "tense")}
    chosen, _ = select_balanced(cands, {"test": 12}, random.Random(3))
    dropped = chosen["test"][0]
    fewer = {t: [c for c in cs if c != dropped] for t, cs in cands.items()}
    again, _ = select_balanced(fewer, {"test": 12}, random.Random(3))
    before, after = {c.key for c in chosen["test"]}, {c.key for c in again["test"]}
    assert before - after == {dropped.key}
    assert len(after - before) == 1


def test_every_split_has_as_many_gender_edits_towards_women_as_towards_men():
    details = ["He->She"] * 10 + ["She->He"] * 30
    cands = {"gender": [Candidate(key=str(k), type="gender", row={"edit_detail": d, "hyp_bad": str(k)})
                        for k, d in enumerate(details)]}
    chosen, _ = select_balanced(cands, {"trial": 4, "test": 12}, random.Random(5), side=towards_women("en"))
    assert [Counter(c.row["edit_detail"] for c in chosen[s]) for s in ("trial", "test")] == [
        Counter({"He->She": 2, "She->He": 2}), Counter({"He->She": 6, "She->He": 6})]
    pooled, _ = select_balanced(cands, {"trial": 4, "test": 12}, random.Random(5))
    assert Counter(c.row["edit_detail"] for c in pooled["test"]) == Counter({"He->She": 1, "She->He": 11})


def test_pronoun_edits_alternate_into_and_out_of_the_third_person():
    """A hypothesis-only language model called every 'me -> him' of the English build hallucinated (the rarer
    word): each split takes pronoun edits out of the third person as often as into it, while both last."""
    details = ["me->him"] * 60 + ["him->me", "them->us", "his->my"] * 2 + ["He->She"] * 4 + ["She->He"] * 4
    cands = {t: [Candidate(key=str(k), type=t, row={"edit_detail": d, "hyp_bad": str(k)}) for k, d in enumerate(details)
                 if (d[0].isupper()) == (t == "gender")] for t in ("pronoun", "gender")}

    def into_third(side):
        chosen, _ = select_balanced(cands, {"trial": 4, "test": 16}, random.Random(5), side=side)
        gender = Counter(c.row["edit_detail"] for s in ("trial", "test") for c in chosen[s] if c.type == "gender")
        assert gender == Counter({"He->She": 4, "She->He": 4})
        return [Counter(c.row["edit_detail"] == "me->him" for c in chosen[s] if c.type == "pronoun")
                for s in ("trial", "test")]

    assert into_third(edit_side("en")) == [Counter({True: 1, False: 1}), Counter({True: 5, False: 5})]
    assert into_third(towards_women("en")) == [Counter({True: 2}), Counter({True: 9, False: 1})]


def test_a_pronoun_pair_or_a_tense_verb_recurs_no_more_than_max_same_edit_in_a_split():
    """A pronoun pair or a Swedish tense edit's verb is a word, not a class: 15 of one English split's 24 pronoun
    edits were 'me -> him', 8 of one Swedish split's 21 tense edits 'är -> var'. English tense details name a class
    ('present->past') and recur freely."""
    def cands(tense_details):
        return {"pronoun": [Candidate(key=f"p{k}", type="pronoun", row={"edit_detail": d, "hyp_bad": f"p{k}"})
                            for k, d in enumerate(["me->him"] * 10 + ["him->me", "us->them", "my->his"])],
                "tense": [Candidate(key=f"t{k}", type="tense", row={"edit_detail": d, "hyp_bad": f"t{k}"})
                          for k, d in enumerate(tense_details)]}

    chosen, exhausted = select_balanced(cands(["present->past"] * 10), {"test": 12}, random.Random(5), max_same_edit=2)
    assert Counter(c.row["edit_detail"] for c in chosen["test"]) == Counter(
        {"present->past": 7, "me->him": 2, "him->me": 1, "us->them": 1, "my->his": 1})
    assert "pronoun" in exhausted
    swedish = ["är->var"] * 8 + ["springer->sprang", "hoppar->hoppade"]
    chosen, exhausted = select_balanced(cands(swedish), {"test": 12}, random.Random(5), max_same_edit=2)
    assert Counter(c.row["edit_detail"] for c in chosen["test"] if c.type == "tense") == Counter(
        {"är->var": 2, "springer->sprang": 1, "hoppar->hoppade": 1})
    assert {"pronoun", "tense"} <= exhausted


def test_a_scarce_type_gets_back_the_sources_an_abundant_type_took():
    """Swedish tense held 23 test sources and gender 8, with 24 gender candidates pooled: the greedy round-robin
    let tense take the sources gender edits needed. A filled split is evened out on the same sources, while each
    type's sides stay within one (or as close as they were)."""
    def split(gender_details):
        tense = [Candidate(key=f"s{k}", type="tense", row={"edit_detail": "present->past", "hyp_bad": f"t{k}"})
                 for k in range(12)]
        gender = [Candidate(key=f"s{k}", type="gender", row={"edit_detail": d, "hyp_bad": f"g{k}"})
                  for k, d in zip(range(0, 12, 2), gender_details)]  # edits of the even sources only
        chosen, _ = select_balanced({"tense": tense, "gender": gender}, {"test": 12}, random.Random(1),
                                    side=towards_women("en"))
        return (Counter(c.type for c in chosen["test"]), {c.key for c in chosen["test"]},
                Counter(c.row["edit_detail"] for c in chosen["test"] if c.type == "gender"))

    types, sources, sides = split(["He->She", "She->He"] * 3)  # the greedy round-robin gave tense 8, gender 4
    assert types == Counter(tense=6, gender=6) and sources == {f"s{k}" for k in range(12)}
    assert sides == Counter({"He->She": 3, "She->He": 3})
    types, _, sides = split(["He->She"] * 5 + ["She->He"])  # one more towards women would set the sides 3 apart
    assert types == Counter(tense=8, gender=4) and sides == Counter({"He->She": 3, "She->He": 1})


def test_no_two_examples_share_a_hallucinated_hypothesis():
    rows = [("saw her", "saw me"), ("saw him", "saw me"), ("met him", "met me")]
    cands = {"pronoun": [Candidate(key=g, type="pronoun", row={"edit_detail": "x->me", "hyp_bad": b})
                         for g, b in rows]}
    chosen, _ = select_balanced(cands, {"test": 3}, random.Random(5))
    assert sorted(c.row["hyp_bad"] for c in chosen["test"]) == ["met me", "saw me"]


def test_max_same_edit_keeps_an_edit_from_recurring_in_a_split():
    """'Två->Tre' 8 times among 13 Swedish number edits, 'interim' inserted 5 times: a recurring edit gives
    itself away; with max_same_edit each edit comes at most that often per split, in any case."""
    details = ["Två->Tre"] * 12 + ["två->tre"] * 4 + ["fyra->tre", "45->43", "3->2"]
    cands = {"number": [Candidate(key=str(k), type="number", row={"edit_detail": d, "hyp_bad": str(k)})
                        for k, d in enumerate(details)]}
    chosen, exhausted = select_balanced(cands, {"trial": 2, "test": 10}, random.Random(5), max_same_edit=2)
    assert [c.row["edit_detail"] for c in chosen["trial"]] == ["Två->Tre", "Två->Tre"]
    assert [c.row["edit_detail"] for c in chosen["test"]] == ["fyra->tre", "Två->Tre", "två->tre", "45->43", "3->2"]
    assert "number" in exhausted
    unlimited, _ = select_balanced(cands, {"trial": 2, "test": 10}, random.Random(5))
    assert len(unlimited["test"]) == 10
    same = {"number": [Candidate(key=str(k), type="number", row={"edit_detail": "two->three", "hyp_bad": str(k)})
                       for k in range(10)]}
    chosen, exhausted = select_balanced(same, {"trial": 3, "test": 3}, random.Random(5), max_same_edit=2)
    assert [len(chosen["trial"]), len(chosen["test"])] == [2, 2] and "number" in exhausted  # capped per split


def test_max_share_keeps_one_type_from_filling_a_split_the_others_ran_out_of():
    cands = {t: [Candidate(key=f"{t}{k}", type=t, row={}) for k in range(n)] for t, n in
             (("natural", 40), ("date", 2), ("tense", 3))}
    chosen, _ = select_balanced(cands, {"test": 30}, random.Random(1), max_share=1.5)
    assert sorted(Counter(c.type for c in chosen["test"]).items()) == [("date", 2), ("natural", 15), ("tense", 3)]
    filled, _ = select_balanced(cands, {"test": 30}, random.Random(1))
    assert Counter(c.type for c in filled["test"])["natural"] == 25


def test_gender_edits_go_as_often_towards_women_as_towards_men():
    details = ["He->She", "he->she,his->her", "His->Her", "men->women", "She->He", "her->his"]
    cands = {"gender": [Candidate(key=str(k), type="gender", row={"edit_detail": d}) for k, d in enumerate(details)],
             "date": [Candidate(key="d", type="date", row={})]}
    assert balance_gender_directions(cands, "en", random.Random(1)) == 2
    to_female = [c.row["edit_detail"].split("->")[-1].lower() in ("she", "she,his", "her", "women")
                 for c in cands["gender"]]
    assert sorted(to_female) == [False, False, True, True] and len(cands["date"]) == 1
    de = {"gender": [Candidate(key="a", type="gender", row={"edit_detail": "Vater->Mutter"})]}
    assert balance_gender_directions(de, "de", random.Random(1)) == 1 and de["gender"] == []


@pytest.mark.parametrize("rows,message", [
    ([_row(1), _row(1)], "duplicate ids"),
    ([_row(1, good="same", bad="same")], "hyp\\+ equals hyp-"),
    ([_row(1, type_="spelling")], "types outside the eleven"),
    ([_row(1, split="trial", source="s"), _row(2, source="s")], "sources in both trial and test"),
    ([_row(1), _row(2), _row(3), _row(4, type_="date")], "differ by more than the tolerance 1"),
])
def test_quality_gates_fail_clearly(rows, message):
    with pytest.raises(PipelineError, match=message):
        check_gates(rows, "paraphrase en", 1, set())


def test_gates_pass_and_spare_exhausted_types():
    rows = [_row(1), _row(2), _row(3), _row(4, type_="date")]
    check_gates(rows, "paraphrase en", 1, {"date"})


def test_detection_view_is_seeded_and_labels_the_bad_hypothesis():
    row = {**_row(7, good="faithful", bad="hallucinated")}
    det = detection_row(row, 13)
    assert det == detection_row(row, 13)
    assert det[det["label"]] == "hallucinated" and {det["hyp1"], det["hyp2"]} == {"faithful", "hallucinated"}


FAITHFUL = {"min_similarity": 0.3, "max_added_content": 0.4, "max_dropped_content": 0.5, "encoder": "e5",
            "encoder_sv": "e5", "entity_encoder": "e5", "min_encoder_similarity": {"en": 0.975, "sv": 0.97}}


def test_faithful_hyp_good_checks_both_directions():
    from tasks.hallucigen.consistency import faithfulness_failures, one_side_adds

    src = "The council voted in favour of the new stadium after a long debate on its cost to the city."
    assert faithfulness_failures(src, "After a long debate on its cost to the city, the council voted in favour of "
                                      "the new stadium.", FAITHFUL) == []
    assert faithfulness_failures(src, "After a long debate on its cost to the city, the council voted against the "
                                      "new stadium.", FAITHFUL) == ["reversed_polarity"]
    # a pair the antonym edits left out ('won'/'lost', lexicon reversal) still reverses a paraphrase
    from tasks.hallucigen.consistency import reversed_polarity

    assert reversed_polarity("The team won the final in 1998 .", "The team lost the final in 1998 .")
    assert not reversed_polarity("The team won the final in 1998 .", "In 1998 the team won the final .")
    assert faithfulness_failures(src, "The council voted.", FAITHFUL) == ["similarity", "dropped_content"]
    assert faithfulness_failures(src, "The council voted in favour of the new stadium after a long debate on its "
                                      "cost, which angered local shopkeepers, residents and football supporters.",
                                 FAITHFUL) == ["added_content"]
    assert one_side_adds("Iran testar ny missil", "Iran testar ny missil: ISNA", 0.6)
    assert one_side_adds("Murray vann i London", "Murray vann Wimbledon-titeln i London", 0.6)
    assert not one_side_adds("Regeringen sänker skatten", "Regeringen sänker skatten", 0.6)
    from tasks.hallucigen.consistency import swedish_side_adds

    assert swedish_side_adds("Det var jag som tvingade honom till det.", "För att jag var den som tvingade honom.", 0.6)
    assert not swedish_side_adds("Därför jag är en grottmänniska.", "För att jag är en grottmänniska!", 0.6)


def test_a_swedish_pair_whose_hyp_good_opens_in_lower_case_gives_no_hyp_good():
    """'när jag kom hem' for 'När jag kom hem' was judged not fluent; a source in lower case excuses it."""
    from tasks.hallucigen.paraphrase import swedish_pair_problem

    lower = swedish_pair_problem("När jag kom hem var han borta.", "när jag kom hem var han borta.", 0.6)
    assert lower == "lower_start"
    assert swedish_pair_problem("När jag kom hem var han borta.", "När jag kom hem, var han borta.", 0.6) is None
    assert swedish_pair_problem("när jag kom hem var han borta.", "när jag kom hem, var han borta.", 0.6) is None
    assert swedish_pair_problem("Det var jag som tvingade honom till det.", "för att jag var den som tvingade honom.",
                                0.6) == "one_side_adds"


EMPLOYMENT = "Future employment in Europe largely depends on the successful development of biotechnology."
HAZARD = "Up to 24 000 people in my country die prematurely each year due to this major hazard."
VOTE = "If these two factors are taken into account our group will vote for this resolution."
SWOBODA = "Mr Swoboda, I have also been shown a full version."


@pytest.mark.parametrize("source,hyp,failed", [
    (EMPLOYMENT, "The future of employment in Europe depends on the successful development of biotechnology.",
     ["dropped_qualifier"]),
    (EMPLOYMENT, "The future of employment in Europe mostly depends on the successful development of biotechnology.",
     []),
    (HAZARD, "In my country, up to 24 000 people die prematurely each year because of this major hazard.", []),
    (HAZARD, "In my country, 24 000 people die prematurely each year because of this hazard.", ["dropped_qualifier"]),
    ("I will not be voting for Amendment 249 because we cannot know how the market will develop.",
     "We cannot know how the market will develop, so I will not be voting for the amendment.", ["dropped_number"]),
    (VOTE, "This resolution will be voted on by our group if these two factors are taken into account.",
     ["agent_passive"]),
    (VOTE, "Our group will vote for this resolution if these 2 factors are taken into account.", []),
    ("I am very concerned by Mr Rübig's question, which Sir Jack has tabled.",
     "I am very concerned by Mr Rbig's question, which SirJack tabled.", ["mangled_word"]),
    (SWOBODA, "Mr Swoboda, a full version has also been shown to me.", []),
    (SWOBODA, "Mr Swoboda has also shown me a full version.", ["addressee_made_participant"]),
    ("We want to take the first decisions in Berlin.", "In Berlin, we want to take the first decision.",
     ["grammatical_number"]),
    ("I believe that this report meets these ideas.", "I believe this report will meet these ideas.",
     ["tense_changed"]),
    ("The Committee on Budgets, in a sense, has been the auxiliary committee.",
     "The Committee on Budgets has been the auxiliary committee.", ["dropped_qualifier"]),
    ("Man came alive and the clock struck five.", "The man came alive, and the clock clock clock struck five.",
     ["degenerate"]),
    ("The CFP was a derogation in itself from the Treaty of Rome.", "theCFP was a derogation from the Treaty of Rome.",
     ["mangled_word"]),
    ("Thank you, Commissioner, for your reply.", "Commissioner, thank you for his reply.", ["gender_added"]),
    ("I believe that the consequences have been disproportionate.", "The consequences have been disproportionate.",
     ["dropped_qualifier", "speaker_dropped"]),
    ("It is not necessarily a solution to the problems.", "It is not a solution to the problems.",
     ["dropped_qualifier"]),
    ("I think the consequences have been disproportionate.", "I believe the consequences have been disproportionate.",
     []),
    ("I give the floor to Mrs Gradin to answer the question.", "Mrs Gradin was given the floor to answer the question.",
     ["speaker_dropped"]),
    ("I give the floor to Mrs Gradin to answer the question.", "I give Mrs Gradin the floor to answer the question.",
     []),
    ("And... sold to the lady on my left.", "And... sold to the lady on my left- -", ["degenerate"]),
    ("Do you have trouble saying her name?", "Do you have trouble sayin 'her name?", ["mangled_word"]),
    ("I have not been sleeping for three days.", "I haven't been sleeping for three days.", []),
    ("And that's your solution?", "And that's your \u2047  solution?", ["stray_mark"]),
    ("Did you hear what he said?", "- Did you hear what he said?", ["stray_mark"]),
    ("- Did you hear what he said?", "- Did you hear what he said?", []),  # the source has the dash
    ("It's the end of the world.", "It's the end of the world..", ["stray_mark"]),
    ("It's the end of the world...", "It's the end of the world...", []),
    ("Why are you being so nice to me?", "Why you being so nice to me?", ["dropped_auxiliary"]),
])
def test_faithful_hyp_good_keeps_qualifiers_numbers_roles_and_voice(source, hyp, failed):
    """hyp+ that the blind review rejected (rule 1): a hedge, an extent or a number dropped, an active clause
    turned into a passive with a 'by' agent, an addressee made a participant, a noun's number or the future
    changed, the speaker dropped, a mangled name or -ing form, a loop or dashes, the paraphraser's unknown-token
    mark, a dialogue dash, a doubled full stop or a dropped auxiliary; a qualifier of the same class may stand
    in."""
    from tasks.hallucigen.consistency import faithfulness_failures

    assert faithfulness_failures(source, hyp, FAITHFUL) == failed


def test_a_second_encoder_turns_away_hyp_good_the_first_let_through():
    """Judged rule-1 failures that pass e5 at 0.978 (0.984, 0.991) and the surface checks; EmbeddingGemma gives them
    0.935 and 0.936, and 0.98 to a faithful rewording. Without it the first paraphrase would be hyp+."""
    from tasks.hallucigen.paraphrase import select_hyp_good

    cases = {"We're the first Starfleet vessel to chart this region.":
             "We're the first Starfleet vessel to chart this cul-de-sac region.",
             "I'm going to go to the bathroom.": "I'm going to go to bathrooms.",
             "It was a decision taken by the Conference of Presidents.":
             "The conference of presidents made the decision."}
    pool = list(cases)
    by_source = {src: [{"hyp": hyp, "label": None, "origin": f"shroom:s.json:{i}"}]
                 for i, (src, hyp) in enumerate(cases.items())}
    params = {**FAITHFUL, "min_encoder_similarity": {"en": 0.978}, "max_added_content": 0.25,
              "max_dropped_content": 0.25}
    goods, _, removed = select_hyp_good(pool, by_source, params)
    assert [g for _, g, _ in goods] == list(cases.values()) and "confirm_similarity" not in removed
    goods, _, removed = select_hyp_good(pool, by_source, {**params, "confirm_encoder": "embeddinggemma",
                                                          "min_confirm_similarity": 0.96})
    assert [(g, origin) for _, g, origin in goods] == [(pool[0], "source"), (pool[1], "source"),
                                                      (cases[pool[2]], "shroom:s.json:2")]
    assert removed["confirm_similarity"] == 2

def test_consistency_checks():
    src = "In 2004 , Jane Doe bought 3 houses in Leeds ."
    assert failed_checks(src, "Jane Doe bought 3 houses in Leeds in 2004 .", 0.3) == []
    assert failed_checks(src, "Jane Doe bought houses in Leeds .", 0.3) == []  # omission is no hallucination
    assert failed_checks(src, "Jane Doe bought 4 houses in Leeds in 2004 .", 0.3) == ["numbers"]
    assert failed_checks(src, "In 2004 , John Doe bought 3 houses in Leeds .", 0.3) == ["names"]
    # an inflected or title-cased word of the source is no new name
    assert failed_checks("The palestinian development plan failed .", "Palestinians saw The Development plan "
                         "fail .", 0.1) == []
    assert failed_checks(src, "Jane Doe did not buy 3 houses in Leeds in 2004 .", 0.3) == ["negation"]
    assert failed_checks(src, "Property was acquired .", 0.3) == ["similarity"]
    # an acronym of a name of the source, the name it abbreviates, and a number it spells out are not new
    assert failed_checks("Investment in the European Union rose .", "Investment in the EU rose .", 0.1) == []
    assert failed_checks("A delegation from the DPRK 's Parliament .", "A delegation from the Democratic People 's "
                         "Republic of Korea .", 0.1) == []
    assert failed_checks("It should go from three to five years .", "It should go from 3 to 5 years .", 0.1) == []
    assert failed_checks("Investment in the European Union rose .", "Investment in the United States rose .",
                         0.1) == ["names"]
    # a model's misspelling of a source name (a dropped accent or letter) is no new name; another name is
    assert failed_checks("The report by Mr Gutiérrez Díaz and Mr Fourçans .", "Mr Gutiérrez Daz and Mr Fourans "
                         "reported .", 0.1) == []
    assert failed_checks("The report by Mr Gutiérrez Díaz .", "The report by Mr Gutiérrez Ortega .", 0.1) == ["names"]


def test_a_model_output_stuck_in_a_loop_is_degenerate():
    from tasks.hallucigen.consistency import degenerate

    assert degenerate("Even 800-381-0266 800-381-0266 800-381-0266 800-381-0266")
    assert degenerate("The state of affairs is1-65561-65561-65561-65561")
    assert not degenerate("He said that that was all that mattered , and that was that .")


def test_aces_rows_map_phenomena_and_count_rejects():
    cands, tally = aces_candidates(FIXTURES / "aces" / "challenge_set.jsonl", ["de-en", "fr-en"])
    assert [(c.type, c.row["hyp_bad"]) for c in cands["de-en"]] == [
        ("date", "He has lived in Berlin since 2014."), ("conversion", "She ran 5 miles.")]
    assert tally.as_dict()["rejected_by_reason"] == {"empty_text": 1, "good_equals_incorrect": 1,
                                                     "other_langpair": 1, "unmapped_phenomenon": 1}


def test_published_files_in_the_detection_schema(mirror):
    rows, tallies = ingest_published(mirror / "hallucigen", "translation", ["en-fr", "fr-en", "en-de", "de-en"])
    trial = [r for r in rows if r["split"] == "trial"]
    test = [r for r in rows if r["split"] == "test"]
    assert trial and all(r["label"] in ("hyp1", "hyp2") and r["type"] for r in trial)
    assert test and all(r["label"] is None for r in test)
    for t in tallies.values():
        assert t["kept"] + t["rejected"] == t["read"]
    pg, _ = ingest_published(mirror / "hallucigen", "paraphrase", ["en", "sv"])
    assert len({r["source"] for r in pg if r["split"] == "test" and r["langpair"] == "en"}) == 119


def test_pools_count_bad_input(mirror):
    _, tallies = shroom_items(mirror / "shroom", ["train.model-aware.json"])
    assert tallies["train.model-aware.json"]["rejected_by_reason"]["empty_src"] == 1  # the NaN src
    pairs, tallies, _ = swedish_pairs(mirror, {"sweparaphrase_files": ["sweparaphrase_test.jsonl"]})
    turku = tallies["turku-paraphrase-sv/test.json"]
    assert turku["kept"] == 312 and turku["rejected_by_reason"]["flagged_label"] == 471
    assert tallies["sweparaphrase/sweparaphrase_test.jsonl"]["kept"] == 97
    assert normalise('"Handskarna är av", sa Rob.') == normalise("Handskarna är av, sa Rob")


def test_natural_hallucination_is_a_failing_shroom_paraphrase(tmp_path, nlp):
    """A SHROOM paraphrase labelled Hallucination is hyp- (natural), one stuck in a loop is not, nor an unlabelled
    one that fails the checks; of those that pass the checks the one closest to the source is hyp+; a shorter
    one that drops content falls below the encoder floor."""
    import json

    from tasks.hallucigen.paraphrase import english_candidates

    src = "The committee met in Brussels on Tuesday and agreed on the budget for the coming year after a long debate."
    (tmp_path / "shroom").mkdir()
    (tmp_path / "hallucigen" / "pg").mkdir(parents=True)
    bad = "Hallucination"
    items = [{"task": "PG", "src": src, "hyp": "The committee met in 800-381-0266 800-381-0266 800-381-0266.",
              "label": bad},
             {"task": "PG", "src": src, "hyp": "The committee met in Brussels and agreed on 13 budgets."},
             {"task": "PG", "src": src,
              "hyp": "The committee met in Brussels and agreed on 12 budgets after a debate.", "label": bad},
             {"task": "PG", "src": src, "hyp": "After a long debate, the committee agreed on next year's budget."},
             {"task": "PG", "src": src, "hyp": "On Tuesday in Brussels, after lengthy debate, the committee agreed to "
                                               "the budget for next year."},
             {"task": "PG", "src": src, "hyp": "After a long debate, the committee met in Brussels on Tuesday and "
                                               "agreed on the budget for the coming year."},
             {"task": "PG", "src": float("nan"), "hyp": "x"}, {"task": "MT", "src": "a", "hyp": "b"}]
    (tmp_path / "shroom" / "s.json").write_text(json.dumps(items))  # NaN src as in the real file
    (tmp_path / "hallucigen" / "pg" / "test_detection_en.csv").write_text(f'id,source,hyp1,hyp2\n0,"{src}",a,b\n')
    params = {"seed": 13, "shroom_files": ["s.json"], "min_source_chars": 50, "pool_size": 10, "min_similarity": 0.3,
              "types": ["natural", "tense"], **FAITHFUL}
    candidates, stats = english_candidates(tmp_path, params, nlp)
    natural = candidates["natural"][0].row
    assert natural["hyp_bad"] == "The committee met in Brussels and agreed on 12 budgets after a debate."
    assert natural["hyp_good"] == ("After a long debate, the committee met in Brussels on Tuesday and agreed on the "
                                   "budget for the coming year.")  # faithful and closest (e5 0.996 against 0.989)
    assert stats["hyp_good_removed_by_check"] == {"degenerate": 1, "dropped_content": 2, "encoder_similarity": 1,
                                                  "grammatical_number": 2, "labelled_hallucination": 2, "numbers": 3,
                                                  "similarity": 1}
    assert natural["edit_detail"] == "shroom:labelled,numbers,grammatical_number"
    assert natural["hyp_good_origin"] == "shroom"
    assert stats["files"]["s.json"]["rejected_by_reason"] == {"empty_src": 1, "not_pg_task": 1}
    assert stats["published_test_recall"] == 1.0


def test_no_natural_hallucination_beside_a_verbatim_copy_of_its_source(tmp_path, nlp):
    """A SHROOM 'paraphrase' that copies its source word for word is no hyp+ for a natural hyp-: the reworded
    hyp- would be the odd one out ('I'll see you in a couple of days.' beside '..., if you're going to be able to
    get a drink.'); the edit types still take it as hyp+."""
    import json

    from tasks.hallucigen.paraphrase import english_candidates

    src = "I will see you in a couple of days at the station in Leeds."
    (tmp_path / "shroom").mkdir()
    (tmp_path / "hallucigen" / "pg").mkdir(parents=True)
    items = [{"task": "PG", "src": src, "hyp": src},
             {"task": "PG", "src": src, "hyp": "I will see you in a couple of days at the station in Leeds, if you "
                                               "want a drink.", "label": "Hallucination"}]
    (tmp_path / "shroom" / "s.json").write_text(json.dumps(items))
    (tmp_path / "hallucigen" / "pg" / "test_detection_en.csv").write_text(f'id,source,hyp1,hyp2\n0,"{src}",a,b\n')
    params = {"seed": 13, "shroom_files": ["s.json"], "min_source_chars": 30, "pool_size": 10, "min_similarity": 0.3,
              "types": ["natural", "tense"], **FAITHFUL}
    candidates, stats = english_candidates(tmp_path, params, nlp)
    assert "natural" not in candidates
    assert stats["applicability"]["natural"]["rejected_by_reason"] == {"hyp_good_copies_source": 1}
    assert stats["hyp_good_origin"] == {"shroom": 1, "source": 0}  # the copy still serves the edit types


def test_shroom_labels_that_are_not_strings_are_counted_rejects(tmp_path):
    """["Hallucination"] or 1 is no SHROOM label: a bad_label reject, never a 'not hallucinated' hyp+."""
    import json

    items = [{"task": "PG", "src": "Source one.", "hyp": "Hyp a.", "label": "Not Hallucination"},
             {"task": "PG", "src": "Source one.", "hyp": "Hyp b.", "label": ["Hallucination"]},
             {"task": "PG", "src": "Source one.", "hyp": "Hyp c.", "label": 1},
             {"task": "PG", "src": "Source two.", "hyp": "Hyp d."}]
    (tmp_path / "s.json").write_text(json.dumps(items))
    by_source, tallies = shroom_items(tmp_path, ["s.json"])
    assert [h["hyp"] for h in by_source["Source one."]] == ["Hyp a."]
    assert [h["hyp"] for h in by_source["Source two."]] == ["Hyp d."]
    assert tallies["s.json"] == {"read": 4, "kept": 2, "rejected": 2, "rejected_by_reason": {"bad_label": 2}}


def test_pawsx_translations_that_drift_from_their_english_fall_below_the_floor():
    from tasks.hallucigen.translation import with_similarity

    items = [{"key": "a", "en": "The river flows north into the Black Sea near the old harbour .",
              "fr": "La rivière coule vers le nord dans la mer Noire près du vieux port ."},
             {"key": "b", "en": "The river flows north into the Black Sea near the old harbour .",
              "fr": "Le club a remporté le championnat en 1998 après une longue saison ."}]
    faithful, drift = (it["similarity"]["fr"] for it in with_similarity(items, "e5"))
    assert faithful >= 0.9 > drift


def test_foundation_negations_that_give_themselves_away_are_skipped():
    """pawsx_edits makes every clean negation; the translation build keeps a new one only where it reads as
    plausible without the source (a removal always)."""
    def edit(good, bad, detail):
        return {("fr-en", "negation", "k"): Edit("negation", good, bad, 0, good, bad, detail)}
    item = {"key": "k", "en": "The regiment left Philadelphia in 1777 ."}
    dated = edit(item["en"], "The regiment did not leave Philadelphia in 1777 .", "insert:not")
    assert _foundation_edit(dated, "fr-en", "negation", item) == Skip("denied_dated_fact")
    removal = edit(item["en"], "The regiment left Philadelphia in 1777 .", "remove:not")
    assert isinstance(_foundation_edit(removal, "fr-en", "negation", item), Edit)
    plain = {**item, "en": "The regiment left Philadelphia ."}
    assert isinstance(_foundation_edit(edit(plain["en"], "x", "insert:not"), "fr-en", "negation", plain), Edit)


def test_ner_spans_leave_a_possessive_out_and_drop_spans_without_a_capital():
    import spacy

    from tasks.hallucigen.entities import ner_spans

    nlp = spacy.blank("en")
    doc = nlp("The European Union 's trade and Whelihan 's")
    doc.ents = [doc.char_span(0, 21, "ORG"), doc.char_span(41, 43, "PERSON")]
    assert [doc.text[s:e] for s, e, _ in ner_spans(doc, "en")] == ["The European Union"]


def test_a_compound_the_paraphraser_split_is_written_as_the_source_writes_it():
    source = "We debate nuclear sector-related activities and a well- meant plan."
    assert mend_hyphens("The debate on nuclear sector- related activities continues.", source) == (
        "The debate on nuclear sector-related activities continues.")
    assert mend_hyphens("A well- meant plan.", "A plan.") == "A well- meant plan."  # not the source's compound
