from pathlib import Path

from tasks.pipeline.layers import package_of, upward_imports


def _module(root: Path, name: str, text: str = "") -> None:
    path = root.joinpath(*name.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.parent / "__init__.py").touch()
    path.write_text(text)


def test_the_code_base_has_no_upward_import():
    assert upward_imports() == []


def test_packages_map_to_their_layer():
    assert [package_of(m) for m in ("tasks.edits.tense", "tasks.io", "tasks.text", "tasks.edits", "flows.detect",
                                    "numpy")] == ["edits", "tasks", "tasks", "edits", "flows", None]


def test_an_upward_or_sideways_import_is_named_with_its_line(tmp_path):
    _module(tmp_path, "tasks.text")
    _module(tmp_path, "tasks.hallucigen.translation")
    _module(tmp_path, "tasks.charp.data")
    _module(tmp_path, "tasks.detectors.rules", "from tasks.text import token_f1\n\n\ndef f():\n"
                                               "    from tasks.hallucigen.translation import pool\n")
    _module(tmp_path, "tasks.hallucigen.select", "import tasks.charp.data\nfrom tasks.detectors import rules\n")
    assert upward_imports(tmp_path) == [
        "tasks/detectors/rules.py:5 imports tasks.hallucigen.translation (detectors may not import hallucigen)",
        "tasks/hallucigen/select.py:1 imports tasks.charp.data (hallucigen may not import charp)"]


def test_a_package_in_no_layer_is_named(tmp_path):
    _module(tmp_path, "tasks.newpkg.thing", "")
    assert upward_imports(tmp_path) == ["tasks/newpkg: package 'newpkg' is in no layer of LAYERS"]
