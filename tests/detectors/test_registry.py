"""tasks/detectors/registry.py: which detectors hold a gpu slot, and the detector params check."""
from __future__ import annotations

import pytest

from tasks.detectors.registry import check_detectors, holds_gpu
from tasks.errors import PipelineError


def test_only_models_with_an_accelerator_path_hold_a_gpu_slot(tmp_path):
    (tmp_path / "head.json").write_text('{"encoder": "e5"}')
    assert holds_gpu({"kind": "similarity", "model": "minilm"}) and holds_gpu({"kind": "llm_prompt"})
    assert holds_gpu({"kind": "cross_encoder", "model": "data/detectors/cross-encoder"})
    assert not holds_gpu({"kind": "similarity", "model": "e5"}) and not holds_gpu({"kind": "consistency"})
    assert not holds_gpu({"kind": "learned", "model": str(tmp_path)})
    (tmp_path / "head.json").write_text('{"encoder": "intfloat/multilingual-e5-small"}')
    assert holds_gpu({"kind": "learned", "model": str(tmp_path)})


def test_detector_params_are_checked():
    check_detectors({"a": {"kind": "consistency"}, "b": {"kind": "similarity"},
                     "v": {"kind": "vote", "members": ["a", "b"]}})
    with pytest.raises(PipelineError, match="unknown kind"):
        check_detectors({"a": {"kind": "oracle"}})
    with pytest.raises(PipelineError, match="later"):
        check_detectors({"v": {"kind": "vote", "members": ["a", "b"]}, "a": {"kind": "consistency"}})
