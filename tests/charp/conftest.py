"""Fixtures of the CHARP tests: a data folder with evaluation turns of two history variants and the
predictions of two cells."""
from __future__ import annotations

import pytest

from tasks.charp.cells import Cell
from tasks.io import write_parquet
from tasks.schemas import DIALOGUE_TURN
from tests.charp.helpers import _predictions


def _turn(k: int, h: str) -> dict:
    history = [{"speaker": "seeker", "text": f"question {k}"}] if h == "full" else []
    return {"id": f"t{k}", "split": "test", "dialogue_id": f"d{k}", "history": history, "knowledge": f"knowledge {k}",
            "response": f"response {k}", "original_response": None, "begin": None, "vrm": None, "fine_label": None,
            "faithful": None, "provenance": {"source": "dstc11", "file": "f", "index": k}}


@pytest.fixture
def data(tmp_path):
    for h in ("full", "0"):
        write_parquet([_turn(k, h) for k in range(3)], DIALOGUE_TURN, tmp_path / f"dialogue/dstc11/test/h-{h}.parquet")
    _predictions(tmp_path, Cell("smollm2", "full", "full"), ["t2", "t0", "t1"])
    _predictions(tmp_path, Cell("fewshot", "none", "0"), ["t1", "t0"])
    return tmp_path
