"""Croissant JSON-LD (`croissant.json`) of a built dataset folder, written with mlcroissant from the card's
configs: one FileObject per parquet file (sha256), one RecordSet per config and split."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from tasks.io import atomic_path

CROISSANT_FILE = "croissant.json"
VERSION = "0.1.0"  # the dataset build's version (the project's)


def _data_type(arrow_type: pa.DataType):
    import mlcroissant as mlc

    if pa.types.is_boolean(arrow_type):
        return mlc.DataType.BOOL
    if pa.types.is_integer(arrow_type):
        return mlc.DataType.INTEGER
    if pa.types.is_floating(arrow_type):
        return mlc.DataType.FLOAT
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return mlc.DataType.TEXT
    return None


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


def record_set(config: str, split: str, file_id: str, schema: pa.Schema):
    """Scalar columns become fields; nested columns (e.g. a dialogue history) are named in the description."""
    import mlcroissant as mlc

    rs_id = f"{_slug(config)}.{split}"
    fields, nested = [], []
    for column in schema:
        dtype = _data_type(column.type)
        if dtype is None:
            nested.append(column.name)
            continue
        fields.append(mlc.Field(id=f"{rs_id}/{column.name}", name=column.name, data_types=[dtype],
                                source=mlc.Source(file_object=file_id, extract=mlc.Extract(column=column.name))))
    note = f" Nested columns in the file, not described here: {', '.join(nested)}." if nested else ""
    return mlc.RecordSet(id=rs_id, name=rs_id, description=f"Config {config}, split {split}.{note}", fields=fields)


def croissant_json(folder: Path, meta: dict, description: str, cite_as: str) -> dict:
    """The Croissant description of the files named in meta['configs'] (paths relative to folder)."""
    import mlcroissant as mlc

    files, record_sets = {}, []
    for cfg in meta["configs"]:
        for entry in cfg["data_files"]:
            path = entry["path"]
            if path not in files:
                files[path] = mlc.FileObject(id=_slug(path), name=_slug(path), content_url=path,
                                             encoding_formats=[mlc.EncodingFormat.PARQUET],
                                             sha256=hashlib.sha256((folder / path).read_bytes()).hexdigest())
            record_sets.append(record_set(cfg["config_name"], entry["split"], _slug(path),
                                          pq.read_schema(folder / path)))
    metadata = mlc.Metadata(name=meta["pretty_name"], description=description, cite_as=cite_as, version=VERSION,
                            license=meta["license"], in_language=meta["language"], distribution=list(files.values()),
                            record_sets=record_sets)
    return metadata.to_json()


def write_croissant(folder: Path, meta: dict, description: str, cite_as: str) -> Path:
    path = Path(folder) / CROISSANT_FILE
    with atomic_path(path) as tmp:
        text = json.dumps(croissant_json(Path(folder), meta, description, cite_as), indent=2, ensure_ascii=False)
        tmp.write_text(text + "\n", encoding="utf-8")
    return path
