"""tasks/hallucigen/select.py: balanced selection, quality gates and the detection view."""

import random
from collections import Counter

import pytest

from tasks.errors import PipelineError
from tasks.hallucigen.select import (
    Candidate,
    addition_side,
    balance_addition_lengths,
    balance_addition_shared_words,
    balance_future,
    balance_negation_directions,
    balance_pair_directions,
    check_gates,
    detection_row,
    edit_side,
    length_side,
    pair_side,
    select_balanced,
    shared_side,
    side_way,
    towards_women,
    within_side_lead,
)


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


def test_gender_edits_of_each_word_pair_go_each_way_within_one():
    """Balanced over all pairs, 7 'he -> she' beside 4 'she -> he' and 3 'girls -> boys' still gave 'she' away to
    a trained hypothesis-only probe (0.92): each word pair keeps at most one more edit one way than the other."""
    details = ["He->She", "he->she,his->her"] * 2 + ["He->She", "She->He", "she->he", "men->women", "His->Her",
                                                     "her->his"]
    cands = {"gender": [Candidate(key=str(k), type="gender", row={"edit_detail": d}) for k, d in enumerate(details)],
             "date": [Candidate(key="d", type="date", row={})]}
    assert balance_pair_directions(cands, "gender", "en", random.Random(1)) == 3  # 2 for 'he|she', 1 over all
    side = pair_side("en")
    kept = Counter(side(c) for c in cands["gender"])
    assert kept[("he|she", False)] == 2 and kept[("her|his", True)] == kept[("her|his", False)] == 1
    assert kept[("he|she", True)] + kept[("men|women", True)] == 3  # one of the two leading pairs gave its lead up
    assert len(cands["date"]) == 1
    de = {"gender": [Candidate(key="a", type="gender", row={"edit_detail": "Vater->Mutter"})]}
    assert balance_pair_directions(de, "gender", "de", random.Random(1)) == 0
    antonyms = {"antonym": [Candidate(key=str(k), type="antonym", row={"edit_detail": d})
                            for k, d in enumerate(["sud->nord"] * 10 + ["nord->sud"])]}
    assert balance_pair_directions(antonyms, "antonym", "fr", random.Random(1)) == 8  # 'nord' gave itself away
    assert Counter(c.row["edit_detail"] for c in antonyms["antonym"]) == Counter({"sud->nord": 2, "nord->sud": 1})


def test_tense_edits_go_into_the_future_no_more_than_once_more_than_out_of_it():
    details = ["present->future"] * 9 + ["future->past", "present->past", "past->present"]
    cands = {"tense": [Candidate(key=str(k), type="tense", row={"edit_detail": d}) for k, d in enumerate(details)]}
    assert balance_future(cands, "en", random.Random(1)) == 7
    assert Counter(c.row["edit_detail"] for c in cands["tense"]) == Counter(
        {"present->future": 2, "future->past": 1, "present->past": 1, "past->present": 1})


def test_negations_are_inserted_and_removed_within_one_of_each_other():
    details = ["insert:not"] * 11 + ["remove:not", "remove:kein->ein"]
    cands = {"negation": [Candidate(key=str(k), type="negation", row={"edit_detail": d})
                          for k, d in enumerate(details)]}
    assert balance_negation_directions(cands, random.Random(1)) == 8
    assert Counter(c.row["edit_detail"].startswith("remove") for c in cands["negation"]) == Counter({False: 3, True: 2})


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
    check_gates(rows, "paraphrase en", None, set())  # type_distribution: paper has no balance gate


def test_quotas_replace_the_even_share_and_the_rebalancing():
    """Each type takes its quota where the pool allows, a type without one none, and a split stays short when
    a type runs out (the others do not fill its place)."""
    cands = {t: [Candidate(key=f"{t}{k}", type=t, row={}) for k in range(n)] for t, n in
             (("number", 30), ("date", 3), ("tense", 30), ("gender", 30))}
    quotas = {"trial": {"number": 1, "date": 1}, "test": {"number": 10, "date": 5, "tense": 2}}
    chosen, exhausted = select_balanced(cands, {"trial": 2, "test": 17}, random.Random(1), max_share=2.0,
                                        quotas=quotas)
    assert Counter(c.type for c in chosen["trial"]) == {"number": 1, "date": 1}
    assert Counter(c.type for c in chosen["test"]) == {"number": 10, "date": 2, "tense": 2}
    assert exhausted == {"date"}  # not the types without a quota, with candidates (gender) or none (pronoun)


def test_detection_view_is_seeded_and_labels_the_bad_hypothesis():
    row = {**_row(7, good="faithful", bad="hallucinated")}
    det = detection_row(row, 13)
    assert det == detection_row(row, 13)
    assert det[det["label"]] == "hallucinated" and {det["hyp1"], det["hyp2"]} == {"faithful", "hallucinated"}


def test_near_copy_hyp_good_are_capped_per_split():
    """38 of 119 English hyp+ copied their source: with max_near_copy_share, at most that share of a split's hyp+
    change one word of the source or none; the others come from rewordings while they last."""
    def cand(k, good):
        return Candidate(key=f"s{k}", type="number", row={"edit_detail": f"{k}->x", "hyp_bad": f"b{k}",
                                                         "source": f"s{k} We got a big problem", "hyp_good": good})

    cands = {"number": [cand(k, f"s{k} We got a huge problem") for k in range(10)]
             + [cand(k, f"s{k} There is a big problem we have") for k in range(10, 30)]}
    chosen, _ = select_balanced(cands, {"test": 20}, random.Random(2), max_near_copy_share=0.1)
    assert sum(" We got" in c.row["hyp_good"] for c in chosen["test"]) == 2
    uncapped, _ = select_balanced(cands, {"test": 20}, random.Random(2))
    assert sum(" We got" in c.row["hyp_good"] for c in uncapped["test"]) > 2


def test_the_near_copy_cap_holds_for_a_split_its_pools_left_short():
    """A split of 40 that its pools leave short (6 rewordings, 6 near-copies) keeps at most the share of the split
    as filled, not of 40: at 0.1 no near-copy (one would be 1 of 7), at 0.2 one (1 of 7; two would be 2 of 8)."""
    def cand(k, good):
        return Candidate(key=f"s{k}", type="number", row={"edit_detail": f"{k}->x", "hyp_bad": f"b{k}",
                                                         "source": f"s{k} We got a big problem", "hyp_good": good})

    cands = {"number": [cand(k, f"s{k} We got a huge problem") for k in range(6)]
             + [cand(k, f"s{k} There is a big problem we have") for k in range(6, 12)]}
    for share, size, near in ((0.1, 6, 0), (0.2, 7, 1)):
        chosen, _ = select_balanced(cands, {"test": 40}, random.Random(2), max_near_copy_share=share)
        assert (len(chosen["test"]), sum(" We got" in c.row["hyp_good"] for c in chosen["test"])) == (size, near)


def test_no_hyp_good_nearly_repeats_one_already_picked_in_any_split():
    """PAWS-X holds a sentence in several pairs, reworded or reordered: the same removed 'without' came three
    times in one direction. A hyp+ sharing 80% of its words with a picked one is not used."""
    goods = ["It is also worth noting that the code would work without ADL (it is applied to it anyway).",
             "It is also worth noting that the code would work without ADL (it will be applied anyway to it).",
             "It serves the Chandimandir Cantonment area of the city Panchkula.",
             "It serves the Panchkula area of the city Chandimandir Cantonment.",
             "The river flows into the sea near the old town."]
    cands = {"negation": [Candidate(key=f"s{k}", type="negation", row={"edit_detail": "remove:not", "hyp_bad": f"b{k}",
                                                                       "source": f"s{k}", "hyp_good": g})
                          for k, g in enumerate(goods)]}
    chosen, _ = select_balanced(cands, {"trial": 1, "test": 4}, random.Random(2))
    assert len(chosen["trial"]) + len(chosen["test"]) == 3


def test_tense_and_negation_edits_take_their_directions_in_turn():
    """Every tense edit went from the present into the past and nearly every negation inserted one: a
    hypothesis-only probe read 'was' and 'not' as the hallucination. Each split takes a tense edit into each tense
    and a negation removed as often as one inserted, while each direction lasts."""
    tense = ["present->past"] * 12 + ["past->present"] * 4 + ["present->future"] * 2 + ["future->past"]
    negation = ["insert:not"] * 12 + ["remove:not", "remove-lexical:unknown->known", "remove:kein->ein"]
    cands = {"tense": [Candidate(key=f"t{k}", type="tense", row={"edit_detail": d, "hyp_bad": f"t{k}"})
                       for k, d in enumerate(tense)],
             "negation": [Candidate(key=f"n{k}", type="negation", row={"edit_detail": d, "hyp_bad": f"n{k}"})
                          for k, d in enumerate(negation)]}
    chosen, _ = select_balanced(cands, {"test": 16}, random.Random(4), side=edit_side("en"))
    into = Counter(c.row["edit_detail"].split("->")[1] for c in chosen["test"] if c.type == "tense")
    assert into == Counter({"past": 3, "present": 3, "future": 2})
    removed = Counter(c.row["edit_detail"].startswith("remove") for c in chosen["test"] if c.type == "negation")
    assert removed == Counter({True: 3, False: 5})
    unsided, _ = select_balanced(cands, {"test": 16}, random.Random(4))
    assert Counter(c.row["edit_detail"].split("->")[1] for c in unsided["test"] if c.type == "tense")["past"] > 3


def test_an_addition_side_is_whether_hyp_bad_has_more_words_than_hyp_good():
    """Every addition made hyp- the longer one: an addition's queue alternates between hyp- longer, as long and
    shorter (additions to a shorter twin: build.addition_on_twin)."""
    assert length_side({"hyp_good": "The band released the album.", "hyp_bad": "The band released the new album."}) == 1
    good = "The band released the new album."
    assert length_side({"hyp_good": good, "hyp_bad": "The band put out its first album."}) == 1
    assert length_side({"hyp_good": good, "hyp_bad": "The band put out its album."}) == 0
    assert length_side({"hyp_good": good, "hyp_bad": "It put out its first album."}) == 0
    assert length_side({"hyp_good": good, "hyp_bad": "It put out its album."}) == -1


def test_additions_with_the_longer_hyp_bad_are_sampled_down_to_the_larger_other_side():
    def cand(k, bad):
        return Candidate(key=f"s{k}", type="addition", row={"hyp_good": "a b c", "hyp_bad": bad})

    cands = {"addition": [cand(k, "a b c d") for k in range(10)] + [cand(10, "a b x"), cand(11, "a b x"),
                                                                     cand(12, "a b"), cand(13, "a")]}
    assert balance_addition_lengths(cands, random.Random(1)) == 8
    assert Counter(length_side(c.row) for c in cands["addition"]) == Counter({1: 2, 0: 2, -1: 2})


def test_gender_edits_go_towards_women_and_towards_men_within_one_over_all_pairs():
    """Pairs with no edit back each lead by one towards women; over all pairs the lead stays within one, and each
    pair keeps its own balance."""
    details = ["M.->Mme", "prince->princesse", "fils->fille", "homme->femme", "Il->Elle", "Il->Elle", "Elle->Il",
               "femme->homme"]
    cands = {"gender": [Candidate(key=str(k), type="gender", row={"edit_detail": d}) for k, d in enumerate(details)]}
    assert balance_pair_directions(cands, "gender", "fr", random.Random(1)) == 3
    towards = Counter(towards_women("fr")(c) for c in cands["gender"])
    assert towards == Counter({True: 3, False: 2})
    side = pair_side("fr")
    per_pair = Counter(side(c) for c in cands["gender"])
    assert all(abs(per_pair[(p, True)] - per_pair[(p, False)]) <= 1 for p, _ in per_pair)
    assert per_pair[("elle|il", True)] == 1 and per_pair[("elle|il", False)] == 1


def test_additions_where_only_hyp_bad_holds_an_unshared_word_are_sampled_down_to_the_larger_other_side():
    """A twin that reorders hyp+ leaves the added word the only one hyp+ lacks: hyp- then holds the larger share
    of unshared words, which the probe's less_shared baseline reads off."""
    good = "the band released the album in may"

    def cand(k, bad):
        return Candidate(key=f"s{k}", type="addition", row={"hyp_good": good, "hyp_bad": bad})

    reordered = [cand(k, "in may the band released the new album") for k in range(6)]  # 1/8 beside 0/7
    reworded = [cand(6, "the group released the new album")]  # 2/6 beside 3/7
    tied = [cand(7, "the band put out the new album")]  # 3/7 beside 3/7
    assert [shared_side(c.row) for c in (reordered[0], reworded[0], tied[0])] == [1, -1, 0]
    cands = {"addition": reordered + reworded + tied}
    assert balance_addition_shared_words(cands, random.Random(1)) == 5
    assert Counter(shared_side(c.row) for c in cands["addition"]) == Counter({1: 1, -1: 1, 0: 1})


def test_an_addition_queue_alternates_over_both_of_its_cues():
    good = "the band released the album in may"
    longer = {"hyp_good": good, "hyp_bad": "the band released the new album in may", "edit_detail": "insert:new"}
    reworded = {"hyp_good": good, "hyp_bad": "the group released the new album", "edit_detail": "insert:new"}
    side = edit_side("en")
    assert side(Candidate(key="a", type="addition", row=longer)) == (1, 1)
    assert side(Candidate(key="b", type="addition", row=reworded)) == addition_side(reworded) == (-1, -1)


def test_gender_edits_of_many_one_edit_pairs_still_alternate_women_and_men_in_a_split():
    """Five pairs with one edit towards women each and one pair with edits both ways: a split of six takes three
    each way, not the five singletons first."""
    details = ["M.->Mme", "prince->princesse", "fils->fille", "homme->femme", "roi->reine"] + ["Elle->Il"] * 3 + [
        "Il->Elle"] * 2
    cands = {"gender": [Candidate(key=str(k), type="gender", row={"edit_detail": d, "hyp_bad": str(k)})
                        for k, d in enumerate(details)]}
    chosen, _ = select_balanced(cands, {"test": 6}, random.Random(2), side=edit_side("fr"))
    assert Counter(towards_women("fr")(c) for c in chosen["test"]) == Counter({True: 3, False: 3})


def test_one_way_of_a_two_way_edit_leads_the_other_by_at_most_max_side_lead_in_a_split():
    """Ten tense edits into the past and two into the present: a split takes both present ones and three past
    ones, not ten past ones once the present ones run out; without the cap it fills up with the past."""
    details = ["present->past"] * 10 + ["past->present"] * 2
    cands = {"tense": [Candidate(key=str(k), type="tense", row={"edit_detail": d, "hyp_bad": str(k)})
                       for k, d in enumerate(details)]}
    capped, short = select_balanced(cands, {"test": 12}, random.Random(3), side=edit_side("en"), max_side_lead=1)
    assert Counter(c.row["edit_detail"] for c in capped["test"]) == Counter({"past->present": 2, "present->past": 3})
    assert "tense" in short
    filled, _ = select_balanced(cands, {"test": 12}, random.Random(3), side=edit_side("en"))
    assert Counter(c.row["edit_detail"] for c in filled["test"])["present->past"] == 10


def test_a_split_keeps_the_side_lead_after_its_near_copies_are_left_out():
    """Leaving out a near-copy may take a man-ward gender edit with it: the last-picked woman-ward ones go too."""
    side = edit_side("en")

    def way(cand):
        return side_way(cand, side)

    picked = [Candidate(key=str(k), type="gender", row={"edit_detail": d, "hyp_bad": str(k)})
              for k, d in enumerate(["He->She", "She->He", "He->She", "He->She", "He->She", "She->He"])]
    kept = within_side_lead(picked[:5], way, 1)
    assert [c.key for c in kept] == ["0", "1", "2"]
    assert [c.key for c in within_side_lead(picked, way, 1)] == ["0", "1", "2", "3", "5"]
