"""tasks/hallucigen/spelling.py: misspelt words, garbled text, a lower-case start and a colon end."""

import pytest


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
