"""BEGIN as a critic-evaluation set: knowledge, a one-turn history, a model response, its fine label and
a binary faithful / not-faithful label by the mapping in params (dialogue.begin.faithful)."""
from __future__ import annotations

import csv
from pathlib import Path

from tasks.dialogue.turns import SEEKER, LoadResult, make_turn
from tasks.errors import InputError

# BEGIN 2022 dev (per source) and BEGIN 2021 dev: (source folder, file, split, column names).
FILES_2022 = [("begin", f"{d}/begin_dev_{s}.tsv", "dev") for d, s in (("wow", "wow"), ("cmu-dog", "cmu"),
                                                                      ("topicalchat", "tc"))]
FILE_2021 = ("begin-2021", "dev_05_24_21.tsv", "dev_2021")
COLUMNS_2022 = ["model_name", "data_source", "knowledge", "message", "response", "begin_label"]
COLUMNS_2021 = ["evidence", "previous turn", "response", "gold label", "coarse label", "full label set"]


def _rows(path: Path, name: str, columns: list[str]):
    if not path.is_file():
        raise InputError(f"{name}: file not found")
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header != columns:
            raise InputError(f"{name}: line 1: header {header} is not {columns}")
        for index, fields in enumerate(reader):
            yield index, (dict(zip(columns, fields)) if len(fields) == len(columns) else None)


def load_begin(raw_root: Path, faithful: dict[str, list[str]]) -> LoadResult:
    """Read BEGIN 2022 dev (split 'dev') and 2021 dev (split 'dev_2021') from data/raw.

    ``faithful`` maps each release ('2022', '2021') to its labels that count as faithful; every other
    known label is not faithful, and an unknown label is a counted reject."""
    raw_root = Path(raw_root)
    known = {"2022": {"Fully attributable", "Not fully attributable", "Generic"},
             "2021": {"entailment", "hallucination", "generic", "off-topic", "contradiction"}}
    result = LoadResult()
    sources = [(folder, file, split, "2022") for folder, file, split in FILES_2022] + [(*FILE_2021, "2021")]
    for folder, file, split, release in sources:
        name = f"{folder}/{file}"
        columns = COLUMNS_2022 if release == "2022" else COLUMNS_2021
        for index, row in _rows(raw_root / folder / file, name, columns):
            if row is None:
                result.reject(folder, name, index, "malformed_row")
                continue
            label = row["begin_label"] if release == "2022" else row["gold label"]
            if label not in known[release]:
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
