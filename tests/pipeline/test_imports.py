"""tasks/pipeline/imports.py: function-level imports are followed."""
from __future__ import annotations

from tasks.pipeline.imports import import_closure


def test_function_level_imports_are_followed():
    modules, data = import_closure("flows.detect")
    assert "tasks.detectors.consistency" in modules  # imported inside registry.build_detector
    assert "tasks.models.http" in modules
    assert "tasks.charp.judge" not in modules and "tasks.scoring.report" not in modules
