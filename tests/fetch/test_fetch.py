"""tasks/fetch/fetch.py: mirror copies verified by sha256, clear errors for tampered or missing files, and
upstream downloads (plain files and archive members) over real HTTP from a local server, pinned in the lock."""
from __future__ import annotations

import hashlib
import http.server
import io
import shutil
import tarfile
import threading

import pytest

from tasks.errors import (
    ChecksumError,
    MissingFileError,
    PipelineError,
    SourceUnavailable,
)
from tasks.fetch.fetch import MIRROR_ENV, fetch_source, resolve_mirror
from tasks.fetch.registry import (
    Source,
    SourceFile,
    load_registry,
    read_lock,
    write_lock,
)


@pytest.fixture(autouse=True)
def download_cache(tmp_path, monkeypatch):
    """Keep upstream downloads of these tests out of the user's cache."""
    monkeypatch.setattr("tasks.fetch.download.CACHE_DIR", tmp_path / "download-cache")
    return tmp_path / "download-cache"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _source(files, base="http://127.0.0.1:9/", mirror="toy") -> Source:
    return Source(name="toy", title="toy", licence="none", mirror=mirror,
                  upstream={"kind": "url", "base": base}, files=tuple(files))


@pytest.fixture
def toy_mirror(tmp_path):
    (tmp_path / "mirror" / "toy" / "sub").mkdir(parents=True)
    (tmp_path / "mirror" / "toy" / "sub" / "a.tsv").write_bytes(b"id\tx\n1\thello\n")
    return tmp_path / "mirror"


@pytest.fixture
def http_root(tmp_path):
    """A real HTTP server on 127.0.0.1 serving a folder; yields (folder, base URL)."""
    root = tmp_path / "www"
    root.mkdir()
    handler = lambda *a, **kw: http.server.SimpleHTTPRequestHandler(*a, directory=str(root), **kw)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_mirror_file_is_copied_and_verified(toy_mirror, tmp_path):
    data = (toy_mirror / "toy" / "sub" / "a.tsv").read_bytes()
    entry = fetch_source(_source([SourceFile("sub/a.tsv", "a.tsv", _sha(data))]), toy_mirror, tmp_path / "out", {})
    assert (tmp_path / "out" / "toy" / "sub" / "a.tsv").read_bytes() == data
    assert entry["files"] == [{"path": "sub/a.tsv", "sha256": _sha(data), "bytes": len(data)}]


def test_tampered_mirror_file_fails_with_checksum_error(toy_mirror, tmp_path):
    good = _sha((toy_mirror / "toy" / "sub" / "a.tsv").read_bytes())
    (toy_mirror / "toy" / "sub" / "a.tsv").write_bytes(b"id\tx\n1\thellO\n")
    with pytest.raises(ChecksumError, match=r"source 'toy': file 'sub/a.tsv' from mirror .* expected " + good):
        fetch_source(_source([SourceFile("sub/a.tsv", "a.tsv", good)]), toy_mirror, tmp_path / "out", {})


def test_missing_mirror_file_fails_clearly(toy_mirror, tmp_path):
    with pytest.raises(MissingFileError, match=r"source 'toy': file 'sub/b.tsv' is missing from the mirror"):
        fetch_source(_source([SourceFile("sub/b.tsv", "b.tsv", "0" * 64)]), toy_mirror, tmp_path / "out", {})


def test_real_mirror_tampered_copy_fails(mirror, tmp_path):
    """A copy of the real PAWS-X mirror folder with one byte changed fails against the registry hash."""
    source = load_registry()["pawsx"]
    copy = tmp_path / "mirror"
    shutil.copytree(mirror / "pawsx", copy / "pawsx")
    target = copy / "pawsx" / "x-final" / "en" / "dev_2k.tsv"
    data = bytearray(target.read_bytes())
    data[100] ^= 1
    target.write_bytes(bytes(data))
    with pytest.raises(ChecksumError, match="source 'pawsx': file 'x-final/en/dev_2k.tsv'"):
        fetch_source(source, copy, tmp_path / "out", {})


def test_upstream_file_and_archive_member_over_http(http_root, tmp_path):
    root, base = http_root
    payload = b'{"a": 1}\n'
    (root / "plain.json").write_bytes(payload)
    member = b"id\tsentence1\n1\tx\n"
    with tarfile.open(root / "bundle.tar.gz", "w:gz") as tf:
        info = tarfile.TarInfo("x-final/en/dev.tsv")
        info.size = len(member)
        tf.addfile(info, io.BytesIO(member))
    source = _source([SourceFile("plain.json", "plain.json", _sha(payload)),
                      SourceFile("en/dev.tsv", "bundle.tar.gz", _sha(member), member="en/dev.tsv")], base=base)
    fetch_source(source, None, tmp_path / "out", {})
    assert (tmp_path / "out" / "toy" / "plain.json").read_bytes() == payload
    assert (tmp_path / "out" / "toy" / "en" / "dev.tsv").read_bytes() == member


def test_unpinned_file_is_locked_on_first_fetch_and_verified_after(http_root, tmp_path, download_cache):
    root, base = http_root
    (root / "data.json").write_bytes(b"[1, 2]\n")
    source = _source([SourceFile("data.json", "data.json", None)], base=base)
    lock: dict = {}
    fetch_source(source, None, tmp_path / "out1", lock)
    assert lock == {("toy", "data.json"): _sha(b"[1, 2]\n")}
    write_lock(lock, tmp_path / "lock.tsv")
    assert read_lock(tmp_path / "lock.tsv") == lock
    (root / "data.json").write_bytes(b"[1, 3]\n")  # upstream changed under the same name
    shutil.rmtree(download_cache)
    with pytest.raises(ChecksumError, match=r"\(lock file\)"):
        fetch_source(source, None, tmp_path / "out2", read_lock(tmp_path / "lock.tsv"))


def test_upstream_404_and_unreachable(http_root, tmp_path):
    _, base = http_root
    with pytest.raises(MissingFileError, match="404"):
        fetch_source(_source([SourceFile("nope.json", "nope-404.json", None)], base=base), None, tmp_path / "o", {})
    with pytest.raises(SourceUnavailable, match=r"unreachable .*remove 'toy' there"):
        fetch_source(_source([SourceFile("x.json", "x.json", None)], base="http://127.0.0.1:9/"), None,
                     tmp_path / "o", {})


def test_mirror_resolution(monkeypatch, tmp_path):
    monkeypatch.delenv(MIRROR_ENV, raising=False)
    assert resolve_mirror(None) is None
    assert resolve_mirror(str(tmp_path)) == tmp_path.resolve()
    monkeypatch.setenv(MIRROR_ENV, str(tmp_path / "env"))
    with pytest.raises(PipelineError, match=r"from \$HALLUCI_RAW_MIRROR"):
        resolve_mirror(str(tmp_path))
