"""Shared pieces of the PAWS-X tests: the fixture with bad rows and a file with non-UTF-8 rows."""

import shutil
from pathlib import Path

from tests.paths import FIXTURES

FIXTURE = FIXTURES / "pawsx_bad"


def _pawsx_with_non_utf8(tmp_path: Path) -> Path:
    """The bad-rows fixture plus English and French rows whose bytes are Latin-1, not UTF-8, between good rows."""
    root = tmp_path / "pawsx"
    shutil.copytree(FIXTURE, root)
    en, fr, de = (root / "x-final" / lang / "dev_2k.tsv" for lang in ("en", "fr", "de"))
    en.write_bytes(en.read_bytes() + b"9\tThe caf\xe9 opened in 1990 .\tIn 1990 the caf\xe9 opened .\t1\n"
                   b"10\tThe girls sing in the choir .\tIn the choir , the girls sing .\t1\n")
    fr.write_bytes(fr.read_bytes()
                   + b"10\tLes filles chantent dans le ch\x9cur.\tDans le ch\x9cur chantent les filles.\t1\n"
                   b"11\tIl pleut.\tIl pleut encore.\t1\n")
    de.write_bytes(de.read_bytes() + "10\tDie Mädchen singen im Chor.\tIm Chor singen die Mädchen.\t1\n".encode())
    return root
