"""`dvc repro` builds the static report site (end to end, on the shared built copy)."""
from __future__ import annotations

import pytest


@pytest.mark.slow
@pytest.mark.e2e
def test_dvc_repro_builds_the_site(built_repo):
    site = built_repo / "data/site"
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert {"index.html", "charp.html", "detectors/hallucigen-translation-test.html",
            "types/translation-number.html", "types/paraphrase-tense.html"} <= set(pages)
    index = (site / "index.html").read_text()
    assert all(f'href="{p}"' in index for p in pages if p != "index.html")
