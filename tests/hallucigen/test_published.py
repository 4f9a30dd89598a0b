"""tasks/hallucigen/published.py: the published files in the detection schema."""

from tasks.hallucigen.published import ingest_published


def test_published_files_in_the_detection_schema(mirror):
    rows, tallies = ingest_published(mirror / "hallucigen", "translation", ["en-fr", "fr-en", "en-de", "de-en"])
    trial = [r for r in rows if r["split"] == "trial"]
    test = [r for r in rows if r["split"] == "test"]
    assert trial and all(r["label"] in ("hyp1", "hyp2") and r["type"] for r in trial)
    assert test and all(r["label"] is None for r in test)
    for t in tallies.values():
        assert t["kept"] + t["rejected"] == t["read"]
    pg, _ = ingest_published(mirror / "hallucigen", "paraphrase", ["en", "sv"])
    assert len({r["source"] for r in pg if r["split"] == "test" and r["langpair"] == "en"}) == 119
