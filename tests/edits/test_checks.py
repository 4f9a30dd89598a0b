"""The edit checks reject what they must: no change, a span that lies, a diff outside the span, a
re-tag that does not show the new tense or polarity."""
from tasks.edits.checks import check_retag, check_span
from tasks.edits.result import Edit

GOOD = "The team won the cup in 2004 ."


def _edit(bad, start, source, target, type_="tense", detail="past->future"):
    return Edit(type=type_, good=GOOD, bad=bad, start=start, source=source, target=target, detail=detail)


def test_clean_edit_passes():
    assert check_span(_edit("The team will win the cup in 2004 .", 9, "won", "will win")) is None


def test_unchanged_span_mismatch_and_outside_diff_are_caught():
    assert check_span(_edit(GOOD, 9, "won", "won")) == "unchanged"
    assert check_span(_edit("The team will win the cup in 2004 .", 9, "won", "wins")) == "span_mismatch"
    # the declared span is 'won', but the year changed too
    assert check_span(_edit("The team will win the cup in 2005 .", 9, "won", "will win")) == "span_mismatch"
    sneaky = Edit(type="tense", good=GOOD, bad="A team will win the cup in 2004 .", start=9, source="won",
                  target="will win", detail="past->future")
    assert check_span(sneaky) in ("span_mismatch", "diff_outside_span")


def test_retag_confirms_tense_and_polarity(nlp):
    good_doc = nlp(GOOD)
    ok = _edit("The team will win the cup in 2004 .", 9, "won", "will win")
    assert check_retag(ok, nlp(ok.bad), good_doc) is None
    wrong = _edit("The team wins the cup in 2004 .", 9, "won", "wins")  # claims future, is present
    assert check_retag(wrong, nlp(wrong.bad), good_doc) == "retag_tense_mismatch"
    neg = _edit("The team did not win the cup in 2004 .", 9, "won", "did not win", "negation", "insert:not")
    assert check_retag(neg, nlp(neg.bad), good_doc) is None
    fake = _edit("The team won the cup in 2005 .", 24, "2004", "2005", "negation", "insert:not")
    assert check_retag(fake, nlp(fake.bad), good_doc) == "retag_polarity_unchanged"


def test_retag_window_gives_the_same_tags_as_the_whole_sentence(nlp):
    from tasks.edits.checks import retag_text
    from tasks.edits.spacy_model import tag_receptive_field
    from tasks.edits.tense import tense_edit

    good = ("In the summer of 1924 , after a long journey from the north , he went to Union County in southern "
            "Arkansas to work in an office in Norphlet near Smackover during the oil boom of that decade .")
    good_doc = nlp(good)
    edit = tense_edit(good_doc, "future")
    margin = tag_receptive_field(nlp)
    assert margin == 4  # en_core_web_sm: MaxoutWindowEncoder depth 4 x window 1
    text, offset = retag_text(edit, good_doc, margin)
    assert len(text) < len(edit.bad) and edit.bad[offset:offset + len(text)] == text
    assert edit.target in text
    whole = {t.idx: t.tag_ for t in nlp(edit.bad)}
    window = {t.idx + offset: t.tag_ for t in nlp(text)}
    span = range(edit.start, edit.start + len(edit.target))
    assert {i: tag for i, tag in window.items() if i in span} == {i: tag for i, tag in whole.items() if i in span}
    assert check_retag(edit, nlp(text), good_doc, offset) is None
