"""BEGIN as a critic-evaluation set: knowledge, a one-turn history, a model response, its fine label and
a binary faithful / not-faithful label by the mapping in params (dialogue.begin.faithful)."""
from __future__ import annotations

import csv
from pathlib import Path

from tasks.dialogue.turns import SEEKER, LoadResult, make_turn
from tasks.errors import InputError
from tasks.params_rules import BEGIN_LABELS
from tasks.rows import decoded_lines

# BEGIN 2022 dev (per source) and BEGIN 2021 dev: (source folder, file, split, column names).
FILES_2022 = [("begin", f"{d}/begin_dev_{s}.tsv", "dev") for d, s in (("wow", "wow"), ("cmu-dog", "cmu"),
                                                                      ("topicalchat", "tc"))]
FILE_2021 = ("begin-2021", "dev_05_24_21.tsv", "dev_2021")
COLUMNS_2022 = ["model_name", "data_source", "knowledge", "message", "response", "begin_label"]
COLUMNS_2021 = ["evidence", "previous turn", "response", "gold label", "coarse label", "full label set"]
LABELS = BEGIN_LABELS  # params name each release's faithful labels, every other one is not faithful


def _fields(line: str) -> list[str]:
    return next(csv.reader([line], delimiter="\t", quoting=csv.QUOTE_NONE), [])


def _rows(path: Path, name: str, columns: list[str]):
    """(index, the row as a dict, or the reason it is unusable) per line after the header; a line whose
    bytes are not UTF-8 is 'non_utf8', one with another number of fields 'malformed_row'."""
    lines = decoded_lines(path, name)
    header = next(lines, (1, b"", ""))[2]
    fields = _fields(header.rstrip("\r\n")) if header is not None else "(not UTF-8)"
    if fields != columns:
        raise InputError(f"{name}: line 1: header {fields} is not {columns}")
    for line_no, _, line in lines:
        if line is None:
            yield line_no - 2, "non_utf8"
            continue
        fields = _fields(line.rstrip("\r\n"))
        yield line_no - 2, dict(zip(columns, fields)) if len(fields) == len(columns) else "malformed_row"


def load_begin(raw_root: Path, faithful: dict[str, list[str]]) -> LoadResult:
    """Read BEGIN 2022 dev (split 'dev') and 2021 dev (split 'dev_2021') from data/raw.

    ``faithful`` maps each release ('2022', '2021') to its labels that count as faithful (params validation
    checks they are labels of that release); every other known label is not faithful, and an unknown label
    is a counted reject."""
    raw_root = Path(raw_root)
    result = LoadResult()
    sources = [(folder, file, split, "2022") for folder, file, split in FILES_2022] + [(*FILE_2021, "2021")]
    for folder, file, split, release in sources:
        name = f"{folder}/{file}"
        columns = COLUMNS_2022 if release == "2022" else COLUMNS_2021
        for index, row in _rows(raw_root / folder / file, name, columns):
            if isinstance(row, str):
                result.reject(folder, name, index, row)
                continue
            label = row["begin_label"] if release == "2022" else row["gold label"]
            if label not in LABELS[release]:
                result.reject(folder, name, index, "unknown_label")
                continue
            message = row["message"] if release == "2022" else row["previous turn"]
            turn = make_turn(id=f"{folder}:{file}:{index}", split=split, dialogue_id=f"{folder}:{file}:{index}",
                             history=[{"speaker": SEEKER, "text": message}],
                             knowledge=row["knowledge"] if release == "2022" else row["evidence"],
                             response=row["response"], fine_label=label, faithful=label in faithful[release],
                             source=folder, file=name, index=index)
            result.add(folder, name, index, turn)
    return result
