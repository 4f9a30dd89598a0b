"""What the local Hub serves for the paper profile: data files in the upstream layouts and field names
(ACES, FaithDial, CHARP) and tiny random-weight models with the paper models' architectures, each with a
word-level tokenizer trained offline with `tokenizers`. Seeded: the same call gives the same bytes."""
from __future__ import annotations

import json
from pathlib import Path

from tasks.hallucigen.aces import PHENOMENA
from tests.hub_server import HubRepos

# Paper-profile Hub ids (params.yaml + profiles/paper.yaml) -> the tiny architecture that stands in for each.
BGE_M3 = "MoritzLaurer/bge-m3-zeroshot-v2.0"
SCANDI = "alexandrainst/scandi-nli-large"
XLMR_BASE = "FacebookAI/xlm-roberta-base"
FLAN_T5 = "google/flan-t5-base"
GODEL = "microsoft/GODEL-v1_1-base-seq2seq"
LLAMA = "meta-llama/Llama-2-7b-chat-hf"
MIXTRAL = "mistralai/Mixtral-8x7B-Instruct-v0.1"
GPT_SW3 = "AI-Sweden-Models/gpt-sw3-6.7b-v2"  # a GPT-2 architecture; the tiny one reads the llama tokenizer
CRITIC = "McGill-NLP/roberta-large-faithcritic"
ROBERTA_LARGE = "roberta-large-mnli"  # BERTScore in the paper profile
ACES, FAITHDIAL, CHARP = "nikitam/ACES", "McGill-NLP/FaithDial", "huawei-noah/CHARP"

LLAMA2_CHAT_TEMPLATE = ("{% for m in messages %}{% if m['role'] == 'user' %}<s>[INST] {{ m['content'] }} [/INST]"
                        "{% else %} {{ m['content'] }} </s>{% endif %}{% endfor %}")

WORDS = ("the a an of to in and is was it he she they we you i not no yes what who where when how why "
         "paris france capital city river jazz music new orleans star first born year years dog dogs live "
         "about one two three four five ten twelve 1901 1800s late began called named cornetist labradors "
         "poodles hypoallergenic do like know tell me more sure great that this there their his her its "
         "le la les est une un et der die das ist ein und nicht är en ett och inte "
         "good bad true false hello hi thanks bot user knowledge response history").split()

DIRECTIONS = ["en-fr", "fr-en", "en-de", "de-en"]
SENTENCES = {
    "en": ("The museum opened in 1901 in Paris.", "The museum opened in 1910 in Lyon."),
    "fr": ("Le musée a ouvert en 1901 à Paris.", "Le musée a ouvert en 1910 à Lyon."),
    "de": ("Das Museum wurde 1901 in Paris eröffnet.", "Das Museum wurde 1910 in Lyon eröffnet."),
}


def aces_rows(per_phenomenon: int = 2) -> list[dict]:
    """challenge_set.jsonl rows: ``per_phenomenon`` rows for every phenomenon the mapping table names, in
    every HalluciGen direction, plus rows the build must reject (an unmapped phenomenon, another langpair)."""
    rows = []
    for phenomenon in sorted(PHENOMENA):
        for direction in DIRECTIONS:
            src_lang, tgt_lang = direction.split("-")
            for k in range(per_phenomenon):
                good, bad = SENTENCES[tgt_lang]
                tag = f" ({phenomenon} {k})"
                rows.append({"source": SENTENCES[src_lang][0] + tag, "good-translation": good + tag,
                             "incorrect-translation": bad + tag, "reference": good + tag,
                             "phenomena": phenomenon, "langpair": direction})
    rows.append({"source": "Ein Satz.", "good-translation": "A sentence.", "incorrect-translation": "No sentence.",
                 "reference": "A sentence.", "phenomena": "lexical-overlap", "langpair": "de-en"})
    rows.append({"source": "一句话。", "good-translation": "A sentence.", "incorrect-translation": "Two sentences.",
                 "reference": "A sentence.", "phenomena": "hallucination-number-level-1", "langpair": "zh-en"})
    return rows


def faithdial_split(split: str, dialogues: int) -> list[dict]:
    """FaithDial data/<split>.json: dialogues of utterances with history, knowledge, response, BEGIN, VRM."""
    out = []
    for d in range(dialogues):
        history, utterances = [], []
        for t in range(3):
            question = f"Do you know fact {t} of topic {d} in {split}?"
            history = history + [question]
            knowledge = f"Topic {d} in {split} has fact {t}: it was born in {1900 + d + t}."
            response = f"Yes, topic {d} fact {t} was born in {1900 + d + t}."
            utterances.append({"history": list(history), "knowledge": knowledge, "response": response,
                               "original_response": None, "BEGIN": ["Fully attributable"], "VRM": ["Disclosure"]})
            history = history + [response]
        out.append({"utterances": utterances})
    return out


def charp_rows(valid: list[dict], hard: bool) -> list[dict]:
    """CHARP probes joined on row_idx to FaithDial valid turns (the turns in file order)."""
    turns = [u for d in valid for u in d["utterances"]]
    rows = []
    for row_idx in range(0, len(turns), 2):
        t = turns[row_idx]
        question = t["history"][-1] + (" Who exactly?" if hard else "")
        rows.append({"row_idx": row_idx, "history": t["history"][:-1] + [question], "knowledge": t["knowledge"],
                     "response": t["response"]})
    return rows


def data_repos(hub: HubRepos) -> None:
    """ACES, FaithDial and CHARP as dataset repos at the paths sources.yaml names."""
    hub.add("dataset", ACES, {"data/challenge_set.jsonl": _jsonl(aces_rows())})
    splits = {s: faithdial_split(s, n) for s, n in (("train", 6), ("valid", 4), ("test", 2))}
    hub.add("dataset", FAITHDIAL, {f"data/{s}.json": _json(rows) for s, rows in splits.items()})
    hub.add("dataset", CHARP, {"data/echarp.json": _json(charp_rows(splits["valid"], False)),
                               "data/hcharp.json": _json(charp_rows(splits["valid"], True))})


def _json(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, indent=1).encode()


def _jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


def word_tokenizer(specials: list[str], template: tuple[str, str] | None, **named):
    """A lower-cased word-level tokenizer (specials first, then WORDS) as a PreTrainedTokenizerFast; template:
    (single, pair) post-processing with the specials, ``named``: which special is bos/eos/pad/unk/..."""
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    vocab = {tok: i for i, tok in enumerate(specials + [w for w in dict.fromkeys(WORDS) if w not in specials])}
    tok = Tokenizer(WordLevel(vocab, unk_token=named["unk_token"]))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace()])
    if template:
        tok.post_processor = processors.TemplateProcessing(
            single=template[0], pair=template[1], special_tokens=[(s, vocab[s]) for s in specials])
    return PreTrainedTokenizerFast(tokenizer_object=tok, model_max_length=512, **named)


def _bert_tokenizer():
    return word_tokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
                          ("[CLS] $A:0 [SEP]:0", "[CLS] $A:0 [SEP]:0 $B:1 [SEP]:1"), pad_token="[PAD]",
                          unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


def _roberta_tokenizer():
    return word_tokenizer(["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
                          ("<s> $A </s>", "<s> $A </s> </s> $B </s>"), bos_token="<s>", eos_token="</s>",
                          pad_token="<pad>", unk_token="<unk>", cls_token="<s>", sep_token="</s>", mask_token="<mask>")


def _t5_tokenizer():
    return word_tokenizer(["<pad>", "</s>", "<unk>"], ("$A </s>", "$A </s> $B </s>"), pad_token="<pad>",
                          eos_token="</s>", unk_token="<unk>")


def _llama_tokenizer():
    tok = word_tokenizer(["<unk>", "<s>", "</s>", "[INST]", "[/INST]"], ("<s> $A", "<s> $A $B"),
                         unk_token="<unk>", bos_token="<s>", eos_token="</s>")
    tok.chat_template = LLAMA2_CHAT_TEMPLATE
    return tok


def _save(folder: Path, model, tokenizer, pickle_only: bool = False) -> Path:
    import torch

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(folder)
    if pickle_only:  # the FaithDial critic ships pytorch_model.bin only
        model.config.save_pretrained(folder)
        torch.save(model.state_dict(), folder / "pytorch_model.bin")
    else:
        model.save_pretrained(folder)
    return folder


def build_models(root: Path) -> dict[str, Path]:
    """Tiny random-weight models (seeded) in ``root``, by the paper's Hub id."""
    import torch
    from transformers import (
        AutoModelForCausalLM,
        AutoModelForSeq2SeqLM,
        AutoModelForSequenceClassification,
        BertConfig,
        GPT2Config,
        LlamaConfig,
        MixtralConfig,
        RobertaConfig,
        T5Config,
        XLMRobertaConfig,
    )

    small = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 max_position_embeddings=520)
    bert, roberta, t5, llama = _bert_tokenizer(), _roberta_tokenizer(), _t5_tokenizer(), _llama_tokenizer()
    rob_ids = dict(vocab_size=len(roberta), pad_token_id=1, bos_token_id=0, eos_token_id=2)
    two_way = dict(id2label={0: "entailment", 1: "not_entailment"}, label2id={"entailment": 0, "not_entailment": 1})
    three_way = dict(id2label={0: "entailment", 1: "neutral", 2: "contradiction"},
                     label2id={"entailment": 0, "neutral": 1, "contradiction": 2})
    specs = {
        BGE_M3: (lambda: AutoModelForSequenceClassification.from_config(
            XLMRobertaConfig(**small, **rob_ids, **two_way)), roberta, False),
        SCANDI: (lambda: AutoModelForSequenceClassification.from_config(
            BertConfig(**small, vocab_size=len(bert), **three_way)), bert, False),
        XLMR_BASE: (lambda: AutoModelForSequenceClassification.from_config(
            XLMRobertaConfig(**small, **rob_ids)), roberta, False),
        CRITIC: (lambda: AutoModelForSequenceClassification.from_config(
            RobertaConfig(**small, **rob_ids, id2label={0: "faithful", 1: "hallucination"},
                          label2id={"faithful": 0, "hallucination": 1})), roberta, True),
        # BERTScore reads layer 19 of roberta-large-mnli: a tiny encoder with its 24 layers.
        ROBERTA_LARGE: (lambda: AutoModelForSequenceClassification.from_config(
            RobertaConfig(**{**small, "num_hidden_layers": 24, "hidden_size": 16, "intermediate_size": 32},
                          **rob_ids)).roberta, roberta, False),
        LLAMA: (lambda: AutoModelForCausalLM.from_config(LlamaConfig(
            hidden_size=32, num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2,
            intermediate_size=64, vocab_size=len(llama), bos_token_id=1, eos_token_id=2,
            max_position_embeddings=1024)), llama, False),
        MIXTRAL: (lambda: AutoModelForCausalLM.from_config(MixtralConfig(
            hidden_size=32, num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2, intermediate_size=64,
            num_local_experts=2, num_experts_per_tok=1, vocab_size=len(llama), bos_token_id=1, eos_token_id=2,
            max_position_embeddings=1024)), llama, False),
        GPT_SW3: (lambda: AutoModelForCausalLM.from_config(GPT2Config(
            n_embd=32, n_layer=2, n_head=2, n_positions=1024, vocab_size=len(llama), bos_token_id=1,
            eos_token_id=2)), llama, False),
    }
    for name in (FLAN_T5, GODEL):
        specs[name] = (lambda: AutoModelForSeq2SeqLM.from_config(T5Config(
            vocab_size=len(t5), d_model=32, d_kv=16, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=2,
            feed_forward_proj="gated-gelu", pad_token_id=0, eos_token_id=1, decoder_start_token_id=0)), t5, False)
    out = {}
    for k, (name, (make, tokenizer, pickle_only)) in enumerate(sorted(specs.items())):
        torch.manual_seed(k)
        out[name] = _save(root / name.replace("/", "--"), make(), tokenizer, pickle_only)
    return out


def model_repos(hub: HubRepos, root: Path) -> None:
    for name, folder in build_models(root).items():
        hub.add_folder("model", name, folder)


def paper_hub(models_dir: Path) -> HubRepos:
    """Every repo the paper profile reads from the Hub: its data sets and its models (built in models_dir)."""
    hub = HubRepos()
    data_repos(hub)
    model_repos(hub, models_dir)
    return hub
