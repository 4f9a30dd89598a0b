"""tasks/models/batching.py: length-sorted batches keep every index once."""
from __future__ import annotations

from tasks.models.batching import length_sorted_batches, progress


def test_length_sorted_batches_keep_every_index_once():
    batches = length_sorted_batches([3, 10, 1, 10, 5], 2)
    assert batches == [[1, 3], [4, 0], [2]]


def test_progress_is_shown_for_several_named_batches_only():
    assert not progress([[0], [1]], "e5").disable
    assert progress([[0, 1]], "e5").disable and progress([[0], [1]], None).disable
