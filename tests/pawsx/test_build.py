"""tasks/pawsx/build.py on fixtures with bad rows: every row accounted for."""

from tasks.edits.spacy_model import TAG_PIPES, batched_parser
from tasks.pawsx.build import build_examples
from tests.pawsx.helpers import FIXTURE, _pawsx_with_non_utf8

PARAMS = {"seed": 13, "splits": ["dev"], "source_langs": ["fr", "de"], "types": ["tense", "negation"],
          "lexical_negation_share": 0.5}


def test_build_accounts_for_every_row(nlp):
    result = build_examples(FIXTURE, PARAMS, batched_parser(nlp), batched_parser(nlp, pipes=TAG_PIPES))
    for langpair, by_type in result.stats["examples"].items():
        for type_, s in by_type.items():
            assert s["read"] == 9, (langpair, type_)
            assert s["kept"] + s["rejected"] == s["read"]
    fr_tense = result.stats["examples"]["fr-en"]["tense"]
    # id 1 is a past beside a date long past (no present put there); id 2 has a modal; id 8 has an empty French source
    assert fr_tense["kept"] == 0
    assert fr_tense["rejected_by_reason"] == {"bad_label": 1, "duplicate_id": 1, "empty_sentence": 2,
                                              "malformed_row": 1, "missing_source": 1, "modal": 1,
                                              "not_paraphrase": 1, "tense_with_past_date": 1}
    assert result.stats["examples"]["de-en"]["tense"]["kept"] == 1  # id 8: 'He has a car' -> 'He had a car'
    de_neg = result.stats["examples"]["de-en"]["negation"]
    assert de_neg["kept"] == 3  # ids 1, 2 (cannot), 8
    assert len(result.rejects) == sum(s["rejected"] for by in result.stats["examples"].values() for s in by.values())
    ids = [e["id"] for e in result.examples]
    assert len(ids) == len(set(ids))
    by_id = {e["id"]: e for e in result.examples}
    ex = by_id["de-en:negation:dev:8"]
    assert (ex["source"], ex["hyp_good"], ex["hyp_bad"]) == (
        "Er hat ein Auto.", "He has a car .", "He does not have a car .")
    for det in result.detection:
        ex = by_id[det["id"]]
        hyps = {"hyp1": det["hyp1"], "hyp2": det["hyp2"]}
        assert hyps[det["label"]] == ex["hyp_bad"]
        assert set(hyps.values()) == {ex["hyp_good"], ex["hyp_bad"]}


def test_both_builds_report_non_utf8_rows_with_file_and_line(tmp_path, nlp):
    from tasks.hallucigen.translation import pawsx_pool

    root = _pawsx_with_non_utf8(tmp_path)
    result = build_examples(root, PARAMS, batched_parser(nlp), batched_parser(nlp, pipes=TAG_PIPES))
    bad = [(r["file"], r["line"], r["pawsx_id"], r["langpair"], r["type"])
           for r in result.rejects if r["reason"] == "non_utf8"]
    assert bad == [("x-final/en/dev_2k.tsv", 11, "9", lp, t)
                   for lp in ("fr-en", "de-en") for t in ("tense", "negation")]
    assert result.stats["files"]["x-final/fr/dev_2k.tsv"]["rejected_lines"] == {"empty_sentence": [4], "non_utf8": [5]}
    assert result.stats["examples"]["fr-en"]["tense"]["rejected_by_reason"]["missing_source"] == 2  # ids 8 and 10
    assert "de-en:tense:dev:10" in {e["id"] for e in result.examples}

    items, files, _ = pawsx_pool(root, ["dev"])
    assert files["x-final/en/dev_2k.tsv"]["rejected_lines"]["non_utf8"] == [11]
    assert files["x-final/fr/dev_2k.tsv"]["rejected_lines"]["non_utf8"] == [5]
    assert files["x-final/fr/dev_2k.tsv"]["kept"] + files["x-final/fr/dev_2k.tsv"]["rejected"] == 5
    assert [(it["key"], "fr" in it) for it in items if it["key"].endswith((":9", ":10"))] == [("pawsx:dev:10", False)]
