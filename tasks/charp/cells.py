"""A CHARP grid cell (system, training history, evaluation history), its stable string form for file
names and JSON keys, and the join of a cell's predictions with the evaluation turns they answer."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from tasks.charp.data import eval_turns
from tasks.errors import InputError

NAME = re.compile(r"^(?P<system>[^.]+)\.train-h-(?P<train_h>[^.]+)\.eval-h-(?P<eval_h>[^.]+)$")
GOLD = "gold"  # the gold responses' own scores (CHARP Table 4): system gold, train h none
CONTROL = "control"  # the gold responses each paired with another turn's knowledge: what the critic must flag
NO_TRAINING = "none"  # train h of systems that are not trained (few-shot, gold)


@dataclass(frozen=True, order=True)
class Cell:
    system: str
    train_h: str
    eval_h: str

    def __post_init__(self):
        for name in ("system", "train_h", "eval_h"):
            value = str(getattr(self, name))
            if not value or "." in value or "/" in value:
                raise ValueError(f"cell {name} {value!r}: must be non-empty, without '.' or '/'")
            object.__setattr__(self, name, value)

    def __str__(self) -> str:
        return f"{self.system}.train-h-{self.train_h}.eval-h-{self.eval_h}"

    @classmethod
    def parse(cls, name: str) -> Cell:
        m = NAME.match(name)
        if not m:
            raise ValueError(f"{name!r} is not a cell name (<system>.train-h-<h>.eval-h-<h>)")
        return cls(**m.groupdict())

    @property
    def file_stem(self) -> str:
        """The prediction file's name inside predictions/<system>/."""
        return f"train-h-{self.train_h}.eval-h-{self.eval_h}"

    def gold(self) -> Cell:
        """The gold-response cell of the same evaluation history."""
        return Cell(GOLD, NO_TRAINING, self.eval_h)

    def control(self) -> Cell:
        """The control cell of the same evaluation history: gold responses with mismatched knowledge."""
        return Cell(CONTROL, NO_TRAINING, self.eval_h)


def prediction_path(data: Path, cell: Cell) -> Path:
    return Path(data) / "charp" / "predictions" / cell.system / f"{cell.file_stem}.parquet"


def checkpoint_path(data: Path, cell: Cell) -> str:
    """The absolute folder of the model a trained cell generates with (data/charp/models/<system>/h-<train h>)."""
    return str((Path(data) / "charp" / "models" / cell.system / f"h-{cell.train_h}").resolve())


def prediction_rows(cell: Cell, turns: list[dict], predictions: list[str]) -> list[dict]:
    """The rows of a cell's prediction file (schemas.CHARP_PREDICTION), one per evaluation turn."""
    return [{"id": t["id"], "system": cell.system, "train_h": cell.train_h, "eval_h": cell.eval_h, "prediction": p}
            for t, p in zip(turns, predictions)]


def train_metrics_path(root: Path, system: str, h: str) -> Path:
    return Path(root) / "metrics" / "charp" / f"train.{system}.h-{h}.json"


def generate_metrics_path(root: Path, cell: Cell) -> Path:
    return Path(root) / "metrics" / "charp" / f"generate.{cell}.json"


def cells_with_turns(data: Path, params: dict) -> dict[Cell, tuple[list[dict], list[str]]]:
    """{cell: (turns, predictions)} of every prediction file, each prediction joined on its turn id to the
    evaluation turn of its history variant; a prediction for an unknown turn is an error naming the file."""
    out, turns = {}, {}
    for path in sorted((Path(data) / "charp" / "predictions").glob("*/*.parquet")):
        rows = pq.read_table(path).to_pylist()
        if not rows:
            continue
        cell = Cell(rows[0]["system"], rows[0]["train_h"], rows[0]["eval_h"])
        if cell.eval_h not in turns:
            turns[cell.eval_h] = {t["id"]: t for t in eval_turns(data, params, cell.eval_h)}
        unknown = [r["id"] for r in rows if r["id"] not in turns[cell.eval_h]]
        if unknown:
            raise InputError(f"{path}: prediction for turn {unknown[0]!r}, not an evaluation turn of h={cell.eval_h}")
        out[cell] = ([turns[cell.eval_h][r["id"]] for r in rows], [r["prediction"] for r in rows])
    return out
