"""tasks/edits/modifiers.py: the attested modifier table and which modifiers are never added."""



def test_ordinals_and_neighbours_are_never_added():
    from tasks.edits.modifiers import attested

    table = attested(["He lived in the nearby city .", "She moved to the nearby city .", "It is the old city .",
                      "We saw the old city ."], "en")
    assert {w for words in table["pre"].values() for w in words} == {"old"}
    french = attested(["C'est la version nord-américaine.", "Voici la version nord-américaine.",
                       "C'est la version courte.", "Voici la version courte."], "fr")
    assert {w for words in french["post"].values() for w in words} == {"courte"}


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
