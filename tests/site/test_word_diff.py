"""tasks/site/word_diff.py: word diffs mark only the changed words and escape HTML."""
from __future__ import annotations

from tasks.site.word_diff import word_diff


def test_word_diff_marks_only_the_changed_words_and_escapes_html():
    good, bad = word_diff("He has 3 <cats>.", "He has 4 <cats>.")
    assert str(good) == "He has <del>3</del> &lt;cats&gt;."
    assert str(bad) == "He has <ins>4</ins> &lt;cats&gt;."
    assert [str(x) for x in word_diff("She came.", "She did not come.")] == [
        "She <del>came.</del>", "She <ins>did not come.</ins>"]
