"""tasks/hallucigen/paraphrase.py: SHROOM and Swedish pools, hyp+ selection and natural hallucinations."""

from tasks.hallucigen.paraphrase import mend_hyphens, normalise, shroom_items, swedish_pairs
from tests.hallucigen.helpers import FAITHFUL


def test_a_swedish_pair_whose_hyp_good_opens_in_lower_case_gives_no_hyp_good():
    """'när jag kom hem' for 'När jag kom hem' was judged not fluent; a source in lower case excuses it."""
    from tasks.hallucigen.paraphrase import swedish_pair_problem

    lower = swedish_pair_problem("När jag kom hem var han borta.", "när jag kom hem var han borta.", 0.6)
    assert lower == "lower_start"
    assert swedish_pair_problem("När jag kom hem var han borta.", "När jag kom hem, var han borta.", 0.6) is None
    assert swedish_pair_problem("när jag kom hem var han borta.", "när jag kom hem, var han borta.", 0.6) is None
    assert swedish_pair_problem("Det var jag som tvingade honom till det.", "för att jag var den som tvingade honom.",
                                0.6) == "one_side_adds"


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


def test_a_verbatim_copy_of_its_source_is_never_hyp_good(tmp_path, nlp):
    """A SHROOM 'paraphrase' that copies its source, case and punctuation aside, is no hyp+: 38 of 119 English
    hyp+ did ('Houston, we got a problem.' / 'Houston, we got a problem.'), where any source-similarity detector
    wins without judging, and a reworded natural hyp- is the odd one out. Its source gives no example."""
    import json

    from tasks.hallucigen.paraphrase import english_candidates

    src = "I will see you in a couple of days at the station in Leeds."
    (tmp_path / "shroom").mkdir()
    (tmp_path / "hallucigen" / "pg").mkdir(parents=True)
    items = [{"task": "PG", "src": src, "hyp": src.upper().replace(" in Leeds.", " in Leeds!")},
             {"task": "PG", "src": src, "hyp": "I will see you in a couple of days at the station in Leeds, if you "
                                               "want a drink.", "label": "Hallucination"}]
    (tmp_path / "shroom" / "s.json").write_text(json.dumps(items))
    (tmp_path / "hallucigen" / "pg" / "test_detection_en.csv").write_text(f'id,source,hyp1,hyp2\n0,"{src}",a,b\n')
    params = {"seed": 13, "shroom_files": ["s.json"], "min_source_chars": 30, "pool_size": 10, "min_similarity": 0.3,
              "types": ["natural", "tense"], **FAITHFUL}
    candidates, stats = english_candidates(tmp_path, params, nlp)
    assert dict(candidates) == {}
    assert {t: stats["applicability"][t]["rejected_by_reason"] for t in ("natural", "tense")} == {
        "natural": {"no_consistent_shroom_paraphrase": 1}, "tense": {"no_consistent_shroom_paraphrase": 1}}
    assert stats["hyp_good_origin"] == {"shroom": 0, "source": 1}
    assert stats["hyp_good_removed_by_check"]["copies_source"] == 1


def test_a_rewording_is_hyp_good_before_a_near_copy():
    """Of two faithful paraphrases, one that changes more than a word of its source is hyp+ even where the near-copy
    is the more similar: a near-copy beside its edited twin gives the source away (capped per split)."""
    from tasks.hallucigen.paraphrase import select_hyp_good

    src = "We do not know whether there will be an agreement on the budget."
    near, reworded = ("We do not know whether there will be an agreement on this budget.",
                      "We don't know if there will be an agreement on the budget.")
    by_source = {src: [{"hyp": near, "label": None, "origin": "shroom:s.json:0"},
                       {"hyp": reworded, "label": None, "origin": "shroom:s.json:1"}]}
    goods, _, _ = select_hyp_good([src], by_source, {**FAITHFUL, "max_added_content": 0.25,
                                                     "max_dropped_content": 0.25})
    assert goods == [(src, reworded, "shroom:s.json:1")]


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


def test_a_compound_the_paraphraser_split_is_written_as_the_source_writes_it():
    source = "We debate nuclear sector-related activities and a well- meant plan."
    assert mend_hyphens("The debate on nuclear sector- related activities continues.", source) == (
        "The debate on nuclear sector-related activities continues.")
    assert mend_hyphens("A well- meant plan.", "A plan.") == "A well- meant plan."  # not the source's compound
