"""tasks/hallucigen/paraphrase_checks.py: the faithfulness and consistency checks of a paraphrase."""

import pytest

from tasks.hallucigen.paraphrase_checks import failed_checks
from tests.hallucigen.helpers import FAITHFUL


def test_faithful_hyp_good_checks_both_directions():
    from tasks.hallucigen.paraphrase_checks import faithfulness_failures, one_side_adds

    src = "The council voted in favour of the new stadium after a long debate on its cost to the city."
    assert faithfulness_failures(src, "After a long debate on its cost to the city, the council voted in favour of "
                                      "the new stadium.", FAITHFUL) == []
    assert faithfulness_failures(src, "After a long debate on its cost to the city, the council voted against the "
                                      "new stadium.", FAITHFUL) == ["reversed_polarity"]
    # a pair the antonym edits left out ('won'/'lost', lexicon reversal) still reverses a paraphrase
    from tasks.hallucigen.paraphrase_checks import reversed_polarity

    assert reversed_polarity("The team won the final in 1998 .", "The team lost the final in 1998 .")
    assert not reversed_polarity("The team won the final in 1998 .", "In 1998 the team won the final .")
    assert faithfulness_failures(src, "The council voted.", FAITHFUL) == ["similarity", "dropped_content"]
    assert faithfulness_failures(src, "The council voted in favour of the new stadium after a long debate on its "
                                      "cost, which angered local shopkeepers, residents and football supporters.",
                                 FAITHFUL) == ["added_content"]
    assert one_side_adds("Iran testar ny missil", "Iran testar ny missil: ISNA", 0.6)
    assert one_side_adds("Murray vann i London", "Murray vann Wimbledon-titeln i London", 0.6)
    assert not one_side_adds("Regeringen sänker skatten", "Regeringen sänker skatten", 0.6)
    from tasks.hallucigen.paraphrase_checks import swedish_side_adds

    assert swedish_side_adds("Det var jag som tvingade honom till det.", "För att jag var den som tvingade honom.", 0.6)
    assert not swedish_side_adds("Därför jag är en grottmänniska.", "För att jag är en grottmänniska!", 0.6)


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
    ("I came as soon as I could.", "I came as soon as I got here. _ _", ["stray_mark"]),
    ("Why are you being so nice to me?", "Why you being so nice to me?", ["dropped_auxiliary"]),
])
def test_faithful_hyp_good_keeps_qualifiers_numbers_roles_and_voice(source, hyp, failed):
    """hyp+ that the blind review rejected (rule 1): a hedge, an extent or a number dropped, an active clause
    turned into a passive with a 'by' agent, an addressee made a participant, a noun's number or the future
    changed, the speaker dropped, a mangled name or -ing form, a loop or dashes, the paraphraser's unknown-token
    mark, a dialogue dash, a doubled full stop, a padding blank or a dropped auxiliary; a qualifier of the same
    class may stand in."""
    from tasks.hallucigen.paraphrase_checks import faithfulness_failures

    assert faithfulness_failures(source, hyp, FAITHFUL) == failed


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
    from tasks.hallucigen.paraphrase_checks import degenerate

    assert degenerate("Even 800-381-0266 800-381-0266 800-381-0266 800-381-0266")
    assert degenerate("The state of affairs is1-65561-65561-65561-65561")
    assert not degenerate("He said that that was all that mattered , and that was that .")
