"""PAWS-X English shown as plain text: exact outputs, the edit's offset, and rows left alone."""
import pytest

from tasks.hallucigen.detokenize import detokenize, plain_text


@pytest.mark.parametrize("tokenized,plain", [
    ("Hawker ( postcode : 2614 ) is a suburb of Canberra , Australia .",
     "Hawker (postcode: 2614) is a suburb of Canberra, Australia."),
    ("Mats Wilander defeats Anders Järryd , 6 -- 4 , 3 -- 6 , 7 - 5 .",
     "Mats Wilander defeats Anders Järryd, 6–4, 3–6, 7–5."),
    ("In the new TV-series '' Dead Gorgeous '' Hazel played the sister .",
     'In the new TV-series "Dead Gorgeous" Hazel played the sister.'),
    ("He told `` The Literary Digest '' it .", 'He told "The Literary Digest" it.'),
    ("Kabir asks Sarika to end Ranvir 's game , but it is n't over .",
     "Kabir asks Sarika to end Ranvir's game, but it isn't over."),
    ("He gave US $ 7,000 , about 12 % of it , to the players ' union .",
     "He gave US $7,000, about 12% of it, to the players' union."),
    ("known as Guru Nanak Dev Ji ( 1469-1539 C.E . ) .", "known as Guru Nanak Dev Ji (1469-1539 C.E.)."),
    ("He won 6 : 4 and left at 10 : 30 -- late .", "He won 6:4 and left at 10:30 -- late."),  # a dash in words
    ("It became a cult - favorite on C - 311 ( April 27 , 1893 - May 8 , 1958 ) .",
     "It became a cult-favorite on C-311 (April 27, 1893 - May 8, 1958)."),  # compounds; a range keeps its spaces
    ("It ran in `` The Avengers '' # 71 ( December 1969 ) .", 'It ran in "The Avengers" #71 (December 1969).'),
    ("Plain text, already fine.", "Plain text, already fine."),
])
def test_detokenize_exact(tokenized, plain):
    assert detokenize(tokenized) == (plain, None)


def test_the_edit_offset_follows_the_text():
    text = "Kabir asks Sarika , in 1990 , to end Ranvir 's game ."
    plain, start = detokenize(text, text.index("Ranvir"))
    assert plain[start:].startswith("Ranvir's game.")
    assert detokenize(text, text.index("1990"))[1] == plain.index("1990")


@pytest.mark.parametrize("spaced,plain", [
    ('Ein Figur in " Detection Unlimited ", einem Roman .', 'Ein Figur in "Detection Unlimited", einem Roman.'),
    ("Katuwana ( Hambantota ) liegt in Sri Lanka .", "Katuwana (Hambantota) liegt in Sri Lanka."),
    ('Il a dit : « oui » , puis " non " !', 'Il a dit : « oui », puis "non" !'),  # French keeps ' :' and ' !'
    ("Une superficie de 0,91 % , soit 12 -- 14 km .", "Une superficie de 0,91 %, soit 12–14 km."),
    ('Adam Surat (" Force intérieure") est un film .', 'Adam Surat ("Force intérieure") est un film.'),
    ("le court métrage `` Autism Every Day '' , produit", 'le court métrage "Autism Every Day", produit'),
    ("le court métrage `` Autism Every Day '', produit", 'le court métrage "Autism Every Day", produit'),
    ("Long est né en Israël , migra en 1961 .", "Long est né en Israël, migra en 1961."),
])
def test_french_and_german_lose_only_their_stray_spaces(spaced, plain):
    assert detokenize(spaced, english=False) == (plain, None)


def test_a_pawsx_row_as_plain_text():
    x_en = {"langpair": "fr-en", "hyp_good_origin": "pawsx", "source": "Il l'a dit , non ?",
            "hyp_good": "He said it , in 1990 .", "hyp_bad": "He did not say it , in 1990 .", "edit_start": 3}
    assert plain_text(x_en) == {**x_en, "source": "Il l'a dit, non ?", "hyp_good": "He said it, in 1990.",
                                "hyp_bad": "He did not say it, in 1990.", "edit_start": 3}
    en_x = {"langpair": "en-de", "hyp_good_origin": "pawsx", "source": "He said it , in 1990 .",
            "hyp_good": "Er sagte es , 1990 .", "hyp_bad": "Er sagte es nicht , 1990 .", "edit_start": 14}
    assert plain_text(en_x) == {**en_x, "source": "He said it, in 1990.", "hyp_good": "Er sagte es, 1990.",
                                "hyp_bad": "Er sagte es nicht, 1990.", "edit_start": 13}
    aces = {**x_en, "hyp_good_origin": "aces"}
    assert plain_text(aces) == aces
