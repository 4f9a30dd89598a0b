"""What an edit function returns: an Edit, or a Skip with its reason."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """A perturbation of ``good``: ``good[start:start+len(source)]`` became ``target``."""

    type: str
    good: str
    bad: str
    start: int  # char offset of the edited span in ``good``
    source: str  # the span in ``good``
    target: str  # what replaced it in ``bad``
    detail: str  # e.g. "past->future", "insert:not", "lexical:happy->unhappy"


@dataclass(frozen=True)
class Skip:
    """An edit that does not apply cleanly, with a reason that is counted in the stats."""

    reason: str
