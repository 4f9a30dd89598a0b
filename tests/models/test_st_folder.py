"""tasks/models/st_folder.py: a zipped sentence-transformers folder split over packages."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from tasks.models.registry import assemble, load_registry
from tests.models.helpers import _wheel


def test_a_zipped_sentence_transformers_folder_split_over_packages_embeds_with_prompt_pooling_and_dense(tmp_path):
    """A tiny random BERT as a sentence-transformers folder (MiniLM's tokenizer, a Dense layer, an STS prompt),
    zipped and split over three packages like EmbeddingGemma: assembled, unpacked once, and embedded exactly as
    mean pooling of the prompted text, then the Dense layer, then L2 normalisation."""
    import json
    import shutil

    import numpy as np
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModel, AutoTokenizer, BertConfig, BertModel

    from tasks.models.registry import model_path
    from tasks.models.st_folder import StFolderEncoder, unpack_st_zip

    folder = tmp_path / "st" / "model_download"
    torch.manual_seed(0)
    BertModel(BertConfig(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32)
              ).save_pretrained(folder, safe_serialization=True)
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        shutil.copy(Path(model_path("minilm")) / name, folder / name)
    (folder / "2_Dense").mkdir()
    dense = torch.randn(5, 16)
    save_file({"linear.weight": dense}, str(folder / "2_Dense" / "model.safetensors"))
    (folder / "2_Dense" / "config.json").write_text(json.dumps({"in_features": 16, "out_features": 5, "bias": False,
                                                                "activation_function": "torch.nn.Identity"}))
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}]))
    (folder / "config_sentence_transformers.json").write_text(json.dumps({"prompts": {"STS": "task: sts | "}}))
    archive = shutil.make_archive(str(tmp_path / "tiny"), "zip", tmp_path / "st")
    data = Path(archive).read_bytes()
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    thirds = [data[: len(data) // 3], data[len(data) // 3: 2 * len(data) // 3], data[2 * len(data) // 3:]]
    for i, part in enumerate(thirds, 1):
        _wheel(wheels, "tiny-st", f"0.1.{i}", {"tiny_st/chunk.bin": part})
    entry = {"title": "tiny", "licence": "MIT", "loader": "st_zip",
             "transport": {"pypi": [f"tiny-st==0.1.{i}" for i in (1, 2, 3)]},
             "files": [{"path": "tiny.zip", "concat": "tiny_st/chunk.bin", "sha256": hashlib.sha256(data).hexdigest()}]}
    (tmp_path / "models.yaml").write_text(yaml.safe_dump({"tiny": entry}), encoding="utf-8")
    out = assemble("tiny", load_registry(tmp_path / "models.yaml"), tmp_path / "cache", find_links=str(wheels))
    unpacked = unpack_st_zip(out / "tiny.zip")
    assert unpacked == out / "unpacked" / "model_download" and unpack_st_zip(out / "tiny.zip") == unpacked

    texts = ["The bridge opened in 1932.", "A much longer sentence about the river and the old town.", "Hi."]
    got = StFolderEncoder(unpacked, batch_size=2).embed(texts)
    tokenizer, model = AutoTokenizer.from_pretrained(unpacked), AutoModel.from_pretrained(unpacked).eval()
    with torch.inference_mode():
        rows = []
        for text in texts:
            hidden = model(**tokenizer("task: sts | " + text, return_tensors="pt")).last_hidden_state[0]
            rows.append(torch.nn.functional.normalize(hidden.mean(0) @ dense.T, dim=-1).numpy())
    assert got.shape == (3, 5) and got == pytest.approx(np.stack(rows), abs=1e-5)
