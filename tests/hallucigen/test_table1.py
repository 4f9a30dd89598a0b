"""tasks/hallucigen/table1.py: the overview's Table 1 and the quotas scaled from it."""
import pytest

from tasks.edits.library import TYPES
from tasks.hallucigen.table1 import COLUMNS, TABLE_1, paper_quotas, table_counts


def test_the_table_has_the_eleven_types_and_the_published_split_sizes():
    """Table 1's rows add up to the published sizes (translation trial 10 and test 100 per direction; Swedish test
    119, trials 16 and 20) except English test, which the table gives as 118 of the published 119."""
    assert sorted(COLUMNS) == sorted(TYPES) and all(len(row) == len(COLUMNS) for row in TABLE_1.values())
    sums = {key: sum(table_counts(*key).values()) for key in TABLE_1}
    assert {k: n for k, n in sums.items() if len(k[1]) == 5} == {
        (split, d): {"trial": 10, "test": 100}[split] for split in ("trial", "test")
        for d in ("en-fr", "fr-en", "en-de", "de-en")}
    assert [sums["test", "en"], sums["test", "sv"], sums["trial", "en"], sums["trial", "sv"]] == [118, 119, 16, 20]
    assert table_counts("test", "en")["natural"] == 33 and "tense" not in table_counts("test", "en-fr")


def test_quotas_are_the_table_at_its_size_and_scaled_by_largest_remainder():
    assert paper_quotas("en-fr", {"test": 100})["test"] == {"addition": 10, "number": 24, "date": 33, "pronoun": 33}
    assert paper_quotas("en-fr", {"trial": 2, "test": 20}) == {
        "trial": {"number": 1, "date": 1}, "test": {"addition": 2, "number": 5, "date": 7, "pronoun": 6}}
    assert sum(paper_quotas("en", {"test": 119})["test"].values()) == 119
    with pytest.raises(ValueError, match="Table 1 has no test split for 'xx'"):
        paper_quotas("xx", {"test": 10})
