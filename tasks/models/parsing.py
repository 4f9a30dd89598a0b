"""Reading structured answers out of model completions."""
from __future__ import annotations

import json


def json_field(answer: str, key: str):
    """The value of ``key`` in the JSON object spanning the first "{" to the last "}" of ``answer``; None
    when there is no such object or key."""
    start, end = answer.find("{"), answer.rfind("}")
    if not 0 <= start < end:
        return None
    try:
        obj = json.loads(answer[start:end + 1])
    except json.JSONDecodeError:
        return None
    return obj.get(key) if isinstance(obj, dict) else None
