"""Offline stays offline: with HF_HUB_OFFLINE=1 and the offline profile, fetching its sources from the mirror
and loading every model it uses sends no request to the Hub endpoint, here a recording local server."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.hub_server import HubRepos, hub_server
from tests.paths import ROOT


def test_offline_profile_sends_no_hub_request(mirror, tmp_path):
    hub = HubRepos()
    with hub_server(hub) as url:
        env = {**os.environ, "HF_ENDPOINT": url, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf-home"),
               "HF_HUB_DISABLE_TELEMETRY": "1"}
        proc = subprocess.run([sys.executable, "-m", "tests.paper_probe", "offline", str(tmp_path / "raw"),
                               str(mirror)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["fetched"] == {"pawsx": 6, "shroom": 9, "sweparaphrase": 4, "turku-paraphrase-sv": 3,
                                 "hallucigen": 18, "begin": 10, "begin-2021": 2, "dstc11-track5": 5}
    assert result["bertscore"] == 1.0
    assert len(result["smollm2"]) == 1
    assert hub.requests == []
