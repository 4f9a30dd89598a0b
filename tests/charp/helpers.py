"""Shared values of the CHARP tests: an evaluation turn, the charp params the scoring modules read, and a
writer of one cell's predictions."""
from __future__ import annotations

from tasks.charp.cells import Cell, prediction_path
from tasks.io import write_parquet
from tasks.schemas import CHARP_PREDICTION

TURN = {"id": "t1", "history": [{"speaker": "seeker", "text": "Is there a cheap hotel?"}],
        "knowledge": "The Alpha hotel is cheap. It has free parking.", "response": "Yes, the Alpha hotel is cheap."}
PARAMS = {"eval_dataset": "dstc11", "dataset": "dstc11", "splits": {"train": "train", "eval": "test"},
          "subsets": {"eval": None}, "seed": 13, "metrics": {"critic": {"name": "critic X"}},
          "judge": {"method": "llm", "client": {"backend": "openai", "openai": {"model": "gpt-4-turbo"}}},
          "client": {"backend": "openai", "openai": {"model": "gpt-3.5-turbo"}}}


def _predictions(data, cell: Cell, ids: list[str]) -> None:
    rows = [{"id": i, "system": cell.system, "train_h": cell.train_h, "eval_h": cell.eval_h, "prediction": f"p-{i}"}
            for i in ids]
    write_parquet(rows, CHARP_PREDICTION, prediction_path(data, cell))
