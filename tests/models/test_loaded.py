"""tasks/models/loaded.py: a loader runs once per distinct call, counts its loads, drops the least recently used
beyond its size, and makes concurrent callers of one missing model wait for a single load."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from tasks.models.loaded import LOADS, forget_all, loader


def test_one_load_per_call_with_defaults_bound_and_counted():
    calls = []

    @loader()
    def load_thing(name: str, full: bool = False):
        calls.append((name, full))
        return object()

    first = load_thing("a")
    assert load_thing("a") is first and load_thing("a", False) is first and load_thing(name="a", full=False) is first
    assert load_thing("a", True) is not first
    assert calls == [("a", False), ("a", True)] and LOADS[("load_thing", "a")] == 2
    forget_all()
    assert load_thing("a") is not first and LOADS[("load_thing", "a")] == 3


def test_the_least_recently_used_is_dropped_beyond_maxsize():
    @loader(maxsize=2)
    def load_sized(name: str):
        return [name]

    a, b = load_sized("a"), load_sized("b")
    assert load_sized("a") is a  # a is now the most recent: c drops b
    load_sized("c")
    assert load_sized("a") is a and load_sized("b") is not b
    assert LOADS[("load_sized", "b")] == 2 and LOADS[("load_sized", "a")] == 1


def test_concurrent_callers_wait_for_one_load():
    started = threading.Event()

    @loader()
    def load_slow(name: str):
        started.set()
        time.sleep(0.2)
        return [name]

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(load_slow, ["m"] * 4))
    assert started.is_set() and all(g is got[0] for g in got) and LOADS[("load_slow", "m")] == 1
