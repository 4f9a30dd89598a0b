"""The perturbation library (tasks/edits/library.py): every type, on real sentences, with exact outputs
(English with the real spaCy model, French with fr_core_news_sm, German and Swedish with the rules and word
lists), skips with a reason, and edits that would give themselves away."""

import random

import pytest

from tasks.edits.context import Context
from tasks.edits.library import TYPES, perturb
from tasks.edits.result import Edit, Skip
from tasks.hallucigen.entities import name_spans, ner_spans
from tests.edits.helpers import ALL_LABELS, DE, EN, run

FR = "En 1997, elle est apparue à Paris avec son frère et a parcouru 25 km vers le nord en mars."
SV = "Han är en stor man som bor 25 km norr om Stockholm sedan 1997 med sin bror."


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


def test_unknown_type_is_an_error():
    with pytest.raises(ValueError, match="unknown hallucination type"):
        run("spelling", EN, "en")
    assert len(TYPES) == 11


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
    ("tense", "He moved to Florence in 1524 .", "en", Skip("tense_with_past_date")),  # no present beside 1524
    ("tense", "He lives in Florence and works there .", "en", Skip("tense_clash")),
    ("tense", "Im März 1997 war er in Berlin.", "de", Skip("tense_with_past_date")),  # never 'ist' beside 1997
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
    ("negation", "I need a little time .", "en", "I don't need a little time ."),
    ("negation", "Il a finalement réalisé une des premières collections botaniques.", "fr", Skip("denied_in_sequence")),
    ("negation", "Alok Nath was not able to do his job so he was replaced .", "en",
     Skip("removed_in_compound_sentence")),
    ("negation", "It crosses over the Lake Texoma arm of Washita River .", "en",
     "It does not cross over the Lake Texoma arm of Washita River ."),
    ("negation", "I don't even know where to begin .", "en", Skip("removed_in_compound_sentence")),
    ("negation", "I don't know where to begin .", "en", "I know where to begin ."),
    ("negation", "Didn't think I'd see you again .", "en", "Thought I'd see you again ."),  # keeps its capital
    ("negation", "I'd like to buy a few of these .", "en", Skip("contracted_auxiliary")),
    ("negation", "I would like to buy a few of these .", "en", "I wouldn't like to buy a few of these ."),
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
    ("tense", "Le lac est situé au nord de la ville.", "fr", Skip("place_statement")),  # where a place lies: any time
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
     Skip("tense_with_past_date")),  # never 'rules' beside the 12th century
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


def test_a_content_edit_inside_a_quoted_title_is_skipped(fr_nlp):
    """'Le dernier fils' -> 'La dernière fille' renames a work, not a person: no content edit inside a short
    quoted title; one outside it, or inside quoted speech, still goes."""
    title = 'Superman rencontre le Zod actuel pour la première fois dans "Le dernier fils" en 2008.'
    assert run("gender", title, "fr", doc=fr_nlp(title)) == Skip("inside_quoted_title")
    assert run("date", "The band released `` Summer of 1969 '' in 1985 .", "en").detail == "1985->1976"
    assert run("date", "The band released `` Summer of 1969 '' .", "en") == Skip("inside_quoted_title")
    speech = 'The king said "We will never give up the fight for our freedom and our children" .'
    assert run("gender", speech, "en").detail == "king->queen"
