"""tasks/detectors/hypothesis_only.py: the source-blind (hypothesis-only) detector and its surprisals, in
any batch and in bfloat16."""



def test_source_blind_detector_never_reads_the_source():
    from tasks.detectors.registry import build_detector

    det = build_detector("blind", {"kind": "fluency", "batch_size": 2})
    hyps = ["The cat sat on the mat.", "The cat sat on the mat mat green the."]
    assert det.scores(["x", "y"], hyps) == det.scores(["a source that says something else", ""], hyps)
    assert det.decide(["s"], [hyps[0]], [hyps[1]]) == ["hyp2"]
    assert det.decide(["s"], [hyps[1]], [hyps[0]]) == ["hyp1"]


def test_a_surprisal_is_the_same_in_any_batch():
    """A short text batched with a long one is left-padded: no pad position may count. The check once scored the
    padding's guess of the first token too ('The museum opened in 1902.' 6.22 nats beside a long text, 4.53
    alone), which made a hypothesis's score depend on its batch."""
    from tasks.detectors.hypothesis_only import continuation_nll, surprisal

    short, long = "The museum opened in 1902.", "The museum opened in 1902 and was rebuilt after the war by the city."
    alone = surprisal([short], batch_size=1)[0]
    assert abs(surprisal([short, long], batch_size=2)[0] - alone) < 1e-4
    assert abs(surprisal([long, short, "It was.", short + " It closed."], batch_size=4)[1] - alone) < 1e-4
    gaye = continuation_nll([("A biography of Marvin", " Gaye")], batch_size=1)[0]
    assert abs(continuation_nll([("A biography of Marvin", " Gaye"), (long, " Gaye")])[0] - gaye) < 1e-4
    assert gaye + 5 < continuation_nll([("A biography of Bob", " Gaye")])[0]


def test_source_blind_check_in_bfloat16_tracks_float32():
    """The bfloat16 run of the check (params: source_blind.dtype) really runs in bfloat16, and its surprisals
    stay within 0.1 nats of float32, keeping the contrast between a fluent and a garbled hypothesis."""
    from tasks.detectors.hypothesis_only import surprisal
    from tasks.models.local import load_causal_lm

    texts = ["The museum opened in 1902 and was rebuilt after the war.", "Museum the 1902 in opened war rebuilt."]
    full, half = surprisal(texts, batch_size=2), surprisal(texts, batch_size=2, dtype="bfloat16")
    assert str(load_causal_lm("smollm2", dtype="bfloat16")[1].dtype) == "torch.bfloat16"
    assert full != half and max(abs(a - b) for a, b in zip(full, half)) < 0.1
    assert half[0] + 1 < half[1]
