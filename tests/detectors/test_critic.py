"""tasks/detectors/critic.py: BEGIN pairs for the critic, split by knowledge passage."""
from __future__ import annotations

import pytest

from tasks.errors import PipelineError


def test_critic_pairs_split_by_knowledge_passage(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tasks.detectors.critic import begin_pairs, critic_split

    folder = tmp_path / "dialogue/begin/dev"
    folder.mkdir(parents=True)
    rows = [{"id": f"b:{i}", "knowledge": f"passage {i % 5}", "response": f"reply {i}", "faithful": i % 3 != 0}
            for i in range(30)]
    pq.write_table(pa.Table.from_pylist(rows), folder / "h-0.parquet")
    pairs = begin_pairs(tmp_path, "dev", 20, 13)
    assert len(pairs) == 20 and {p["label"] for p in pairs} == {0, 1}
    assert all(p["label"] == int(not r["faithful"]) for p in pairs for r in rows if r["id"] == p["id"])
    train, held = critic_split(pairs, 0.4, 13)
    assert len({p["origin"] for p in held}) == 2 and not {p["origin"] for p in train} & {p["origin"] for p in held}
    with pytest.raises(PipelineError, match="dialogue@begin"):
        begin_pairs(tmp_path, "test", None, 13)
