"""Accounting of rows read, kept and rejected by reason (kept + rejected = read)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Tally:
    """Counts for one stream of rows; every row read is either kept or rejected with a reason."""

    read: int = 0
    kept: int = 0
    rejected: Counter = field(default_factory=Counter)

    def keep(self) -> None:
        self.read += 1
        self.kept += 1

    def reject(self, reason: str) -> None:
        self.read += 1
        self.rejected[reason] += 1

    def revoke(self, reason: str) -> None:
        """A kept row that a later check rejects."""
        self.kept -= 1
        self.rejected[reason] += 1

    def as_dict(self) -> dict:
        total_rejected = sum(self.rejected.values())
        if self.kept + total_rejected != self.read:
            raise AssertionError(f"accounting broken: kept {self.kept} + rejected {total_rejected} != read {self.read}")
        return {
            "read": self.read,
            "kept": self.kept,
            "rejected": total_rejected,
            "rejected_by_reason": dict(sorted(self.rejected.items())),
        }
