"""tasks/text.py: words, the token F1 and the copy checks of a hyp+ against its source."""

from tasks.text import copies, near_copy, token_f1, word_edits, words


def test_words_ignore_case_spacing_and_punctuation():
    assert words("Houston,  we got a problem!") == ["houston", "we", "got", "a", "problem"]
    assert round(token_f1("The cat sat", "the cat ran"), 3) == 0.667


def test_a_copy_differs_in_case_spacing_and_punctuation_only():
    assert copies("Houston, we got a problem.", "houston we got a problem!")
    assert not copies("Houston, we got a problem.", "Houston, we have a problem.")
    assert copies("I came as soon as I could.", "I came as soon as I could. _ _")  # a blank is no word


def test_word_edits_count_insertions_deletions_and_substitutions_up_to_the_bound():
    assert word_edits("We got a problem.", "We have a problem.") == 1  # a substitution
    assert word_edits("We got a problem.", "We got a big problem.") == 1  # an insertion
    assert word_edits("We got a problem.", "Got a problem.") == 1  # a deletion
    assert word_edits("We got a problem.", "They had a problem.") == 2
    assert word_edits("a b", "a b c d e f") == 2  # capped: lengths alone are two apart


def test_a_near_copy_changes_one_word_at_most():
    assert near_copy("We got a problem.", "we got a problem")
    assert near_copy("We got a problem.", "We have a problem.")
    assert not near_copy("We got a problem.", "We've got a real problem.")
