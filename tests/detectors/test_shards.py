"""tasks/detectors/shards.py: which shards have work, and prompt detectors on binary sets through a scoring
client."""
from __future__ import annotations

import pytest

from tasks.detectors.shards import plan, run_shard
from tasks.scoring.eval_sets import EvalSet


def test_llm_prompt_detectors_run_on_binary_sets_only_through_a_scoring_client():
    binary = EvalSet("binary", "binary", "shroom", rows=[{"id": "b", "langpair": "en", "source": "s", "hyp": "h",
                                                          "type": "natural", "label": 1}])
    spec = {"llm": {"kind": "llm_prompt", "prompt": "support"}}
    local = {"backend": "local", "local": {"model": "smollm2"}}
    remote = {"backend": "openai", "openai": {"base_url": "http://127.0.0.1:9", "model": "m"}}
    assert [s.idle for s in plan(spec, {"binary": binary}, 13, None, local)] == [None]
    assert [s.idle for s in plan(spec, {"binary": binary}, 13, None, remote)] == [
        {"skipped": "gives no per-hypothesis score"}]
    rows, figures, counts = run_shard(plan(spec, {"binary": binary}, 13, None, local)[0], local)
    assert figures["examples"] == 1 and 0 < rows[0]["score_1"] < 1 and counts == {}


def test_shards_with_nothing_to_run_load_no_model():
    """An LLM prompt detector on a binary set, and an NLI detector whose langpairs a set lacks, report the same
    figures as a run would, without loading their models (both name models that do not exist)."""
    pair = EvalSet("pairs", "pair", "translation", rows=[{"id": "a", "langpair": "en-fr", "source": "s",
                                                          "hyp1": "h", "hyp2": "g", "type": "date", "label": "hyp2"}])
    binary = EvalSet("binary", "binary", "shroom", rows=[{"id": "b", "langpair": "en", "source": "s", "hyp": "h",
                                                          "type": "natural", "label": 1}])
    specs = {"llm": {"kind": "llm_prompt", "prompt": "general"},
             "nli-sv": {"kind": "nli", "model": "no/such-model", "langpairs": ["sv"]}}
    shards = plan(specs, {"pairs": pair, "binary": binary}, seed=13, shard_rows=None)
    idle = {shard.key: shard.idle for shard in shards}
    assert idle == {"llm.pairs.0": None, "llm.binary.0": {"skipped": "gives no per-hypothesis score"},
                    "nli-sv.pairs.0": {"examples": 0}, "nli-sv.binary.0": {"examples": 0}}
    no_backend = {"backend": "no-such-backend"}
    assert [run_shard(s, no_backend) for s in shards if s.idle] == [([], idle[s.key], {}) for s in shards if s.idle]
    with pytest.raises(ValueError, match="unknown model backend 'no-such-backend'"):
        run_shard(shards[0], no_backend)  # the one shard with work builds its client
