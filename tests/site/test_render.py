"""The static report site (tasks/site/collect.py, render.py): pages built from a small project tree in the
pipeline's schemas, and three pages rendered in headless Chromium (Debian `chromium`; .ci/run installs it),
screenshots kept under the test's temporary folder."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tasks.schemas import CHARP_PREDICTION, DETECTOR_OUTPUT, DIALOGUE_TURN, HALLUCIGEN_DETECTION, HALLUCIGEN_GENERATION
from tasks.site import collect
from tasks.site.render import render_site


def _write(rows: list[dict], schema: pa.Schema, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist([{f.name: r.get(f.name) for f in schema} for r in rows], schema), path)


EXAMPLES = [
    {"id": "t1", "scenario": "translation", "langpair": "fr-en", "split": "test", "type": "number",
     "source": "Il est né en 1990.", "hyp_good": "He was born in 1990.", "hyp_bad": "He was born in 1991.",
     "edit_detail": "1990 -> 1991"},
    {"id": "t2", "scenario": "translation", "langpair": "fr-en", "split": "test", "type": "negation",
     "source": "Elle est venue.", "hyp_good": "She came.", "hyp_bad": "She did not come.", "edit_detail": "not"},
    {"id": "t3", "scenario": "translation", "langpair": "de-en", "split": "trial", "type": "number",
     "source": "Er hat 3 <Katzen>.", "hyp_good": "He has 3 <cats>.", "hyp_bad": "He has 4 <cats>.",
     "edit_detail": "3 -> 4"},
]


@pytest.fixture
def project(tmp_path) -> Path:
    """A project tree with one HalluciGen folder, one dialogue dataset, detector scores and a CHARP grid."""
    root = tmp_path / "repo"
    folder = root / "data/hallucigen/translation"
    for split in ("trial", "test"):
        rows = [e for e in EXAMPLES if e["split"] == split]
        _write(rows, HALLUCIGEN_GENERATION, folder / f"{split}.generation.parquet")
        _write([{**e, "hyp1": e["hyp_bad"], "hyp2": e["hyp_good"], "label": "hyp1"} for e in rows],
               HALLUCIGEN_DETECTION, folder / f"{split}.detection.parquet")
    (root / "metrics/dialogue").mkdir(parents=True)
    (root / "metrics/hallucigen_translation.json").write_text(json.dumps({"examples": {
        "test/fr-en/negation": 1, "test/fr-en/number": 1, "trial/de-en/number": 1},
        "review": {"overall": {"n": 3, "valid": 2, "share": 0.6667, "ci95": [0.21, 0.94]},
                   "by_type": {"number": {"n": 2, "valid": 2, "share": 1.0, "ci95": [0.34, 1.0]}},
                   "by_langpair": {}},
        "artifact_probe": {"classifiers": {"ngram": {
            "overall": {"n": 3, "accuracy": 0.6667, "ci": [0.0, 1.0]},
            "by_type_langpair": {"number/fr-en": {"n": 1, "accuracy": 0.75, "ci": [0.0, 1.0]}}}}}}))
    (root / "metrics/dialogue/dstc11.json").write_text(json.dumps({
        "splits": {"test": {"turns": 2}}, "variants": ["h-full", "h-0"],
        "files": {"dstc11-track5/val/labels.json": {"read": 3, "kept": 2, "rejected_by_reason": {"not_grounded": 1}}}}))
    gold = {"t1": "hyp1", "t2": "hyp1"}
    outputs = [{"eval_set": "hallucigen-translation-test", "id": i, "langpair": "fr-en", "type": t, "detector": det,
                "gold": gold[i], "prediction": pred, "answer": None}
               for det, preds in (("rules", {"t1": "hyp1", "t2": "hyp2"}), ("llm", {"t1": "hyp2", "t2": None}))
               for (i, pred), t in zip(preds.items(), ("number", "negation"))]
    _write(outputs, DETECTOR_OUTPUT, root / "data/detections/hallucigen-translation-test.parquet")
    whole = {"rules": {"n": 2, "accuracy": 0.5, "f1": 0.3333, "ci": {"accuracy": [0.0, 1.0]}},
             "llm": {"n": 2, "accuracy": 0.0, "f1": 0.0, "no_answer": 1}}
    (root / "data/reports").mkdir(parents=True)
    (root / "data/reports/results.json").write_text(json.dumps({
        "thresholds": {}, "binary": {}, "detection": {"hallucigen-translation-test": {
            det: {"all": m} for det, m in whole.items()}}}))
    turns = [{"id": "d1", "split": "test", "dialogue_id": "x", "history": [{"speaker": "seeker", "text": "Any pool?"}],
              "knowledge": "Hotel A: has a pool.", "response": "Yes, it has a pool."}]
    _write(turns, DIALOGUE_TURN, root / "data/dialogue/dstc11/test/h-full.parquet")
    _write([{"id": "d1", "system": "smollm2", "train_h": "full", "eval_h": "full", "prediction": "No pool."}],
           CHARP_PREDICTION, root / "data/charp/predictions/smollm2/train-h-full.eval-h-full.parquet")
    (root / "data/charp/reports").mkdir(parents=True)
    (root / "data/charp/reports/results.json").write_text(json.dumps({"cells": {
        "smollm2.train-h-full.eval-h-full": {"n": 1, "bleu": 3.2, "bertscore_gold": 0.41, "bertscore_knowledge": 0.3,
                                             "critic": 1.0},
        "gold.train-h-none.eval-h-full": {"n": 1, "bleu": None, "bertscore_gold": None, "bertscore_knowledge": 0.8,
                                          "critic": 0.0}}}))
    return root


def build(root: Path, out: Path) -> list[str]:
    content = {"datasets": collect.datasets(root), "types": collect.examples_by_type(root, 10),
               "detectors": collect.detector_pages(root, 50), "charp": collect.charp(root, "dstc11", "test", 3)}
    return render_site(content, {}, out)


def test_site_pages_and_their_content(project, tmp_path):
    out = tmp_path / "site"
    pages = build(project, out)
    assert pages == ["charp.html", "detectors/hallucigen-translation-test.html", "index.html",
                     "types/translation-negation.html", "types/translation-number.html"]
    index = (out / "index.html").read_text()
    # the type x direction matrix: examples of every split, the probe's accuracy as the cell's colour
    assert ('<tr><td>number</td><td class="num">1</td><td class="num" style="background: rgb(255,128,128)" '
            'title="probe accuracy 0.750 (n=1)">1 <span class="acc">0.750</span></td></tr>') in index
    assert '<tr><td>negation</td><td class="num">0</td><td class="num">1</td></tr>' in index
    assert '<tr><td>ngram</td><td class="num">3</td><td class="num">0.667</td><td>0.0 – 1.0</td></tr>' in index
    assert '<td>overall</td><td class="num">3</td><td class="num">2</td><td class="num">0.667</td>' in index
    number = (out / "types/translation-number.html").read_text()
    assert "He has <ins>4</ins> &lt;cats&gt;." in number and "<del>1990.</del>" in number
    det = (out / "detectors/hallucigen-translation-test.html").read_text()
    assert '0.500 <span class="ci">[0.000, 1.000]</span>' in det
    assert det.count('<tr class="error"') == 3  # rules: t2; llm: t1 and t2 (no answer)
    cell = r'<td class="num">(\d)</td>'
    cm = re.findall(r"<tr><th>hyp1</th>" + cell * 3, det)
    assert cm == [("0", "1", "1"), ("1", "1", "0")]  # llm: hyp2, none; rules: hyp1, hyp2
    charp = (out / "charp.html").read_text()
    assert "Yes, it has a pool." in charp and "No pool." in charp and "Hotel A: has a pool." in charp


def test_site_is_byte_identical_when_rebuilt(project, tmp_path):
    build(project, tmp_path / "a")
    build(project, tmp_path / "b")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files and all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)


def chromium(*args: str) -> str:
    binary = shutil.which("chromium")
    if binary is None:
        pytest.fail("chromium not found: apt-get install -y chromium (CI: .ci/run installs it)")
    proc = subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--hide-scrollbars", "--window-size=1280,1000", *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_three_pages_in_headless_chromium(project, tmp_path):
    out = tmp_path / "site"
    build(project, out)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    index = chromium("--dump-dom", (out / "index.html").as_uri())
    assert 'href="types/translation-number.html"' in index
    assert 'href="detectors/hallucigen-translation-test.html"' in index
    types = chromium("--dump-dom", (out / "types/translation-number.html").as_uri())
    assert types.count('<tr class="example">') == 2 and "<ins>1991.</ins>" in types
    det_url = (out / "detectors/hallucigen-translation-test.html").as_uri()
    all_errors = chromium("--dump-dom", det_url)
    assert "3 of 3 errors shown" in all_errors  # written by the page's script
    negation = chromium("--dump-dom", det_url + "#type=negation")
    assert "2 of 3 errors shown" in negation
    assert len(re.findall(r'<tr class="error" data-type="number" hidden="">', negation)) == 1
    for name, url in (("index", (out / "index.html").as_uri()), ("type", (out / "types/translation-number.html")
                                                                 .as_uri()), ("detector", det_url)):
        chromium(f"--screenshot={shots / f'{name}.png'}", url)
        assert (shots / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
