"""The schema of params.yaml: one pydantic model per section, and the stage views built from them.

A flow takes its params as Prefect flow parameters typed with a `Section` (a whole section, e.g. `Detect`)
or a `StageView` (chosen keys, e.g. `CharpGenerate`); each knows the params.yaml keys it is built from
(`params_keys`), which the stage-deps test compares with the stage's `params` in dvc.yaml. `load_stage_params`
validates the sections a flow reads and fails with one line naming the key and the problem.
"""
from __future__ import annotations

import inspect
from functools import reduce
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Union, get_type_hints

from pydantic import AfterValidator, BaseModel, Field, ValidationError, create_model, model_validator

from tasks.errors import ParamsError
from tasks.params import PARAMS_FILE, load_params
from tasks.params_base import (
    Count,
    DialogueDataset,
    HistoryLength,
    ModelClient,
    PositiveInt,
    Rate,
    Seconds,
    Section,
    Share,
    Strict,
)
from tasks.params_charp import Charp
from tasks.params_rules import UNIQUE, SpacyModel, begin_labels, sums_to_one

HallucinationType = Literal["addition", "named-entity", "number", "conversion", "date", "gender", "pronoun", "antonym",
                            "tense", "negation", "natural"]
Direction = Literal["en-fr", "fr-en", "en-de", "de-en"]
PawsxSplit = Literal["dev", "test"]
DetectorKind = Literal["nli", "llm_prompt", "similarity", "consistency", "cross_encoder", "learned", "fluency",
                       "vote"]
EvalSetName = Literal["hallucigen-translation-test", "hallucigen-translation-trial", "hallucigen-paraphrase-test",
                      "hallucigen-paraphrase-trial", "published-translation-trial", "published-paraphrase-trial",
                      "cross-model", "shroom-trial", "shroom-val", "begin-dev"]


class Sizes(Strict):
    trial: PositiveInt
    test: PositiveInt


class Fetch(Section):
    KEY = "fetch"
    mirror: str | None
    sources: Annotated[list[str], UNIQUE] = Field(min_length=1)
    timeout_s: Seconds


class PawsxEdits(Section):
    KEY = "pawsx_edits"
    seed: int
    splits: Annotated[list[PawsxSplit], UNIQUE] = Field(min_length=1)
    source_langs: Annotated[list[Literal["fr", "de"]], UNIQUE] = Field(min_length=1)
    types: Annotated[list[Literal["tense", "negation"]], UNIQUE] = Field(min_length=1)
    lexical_negation_share: Share
    spacy_model: SpacyModel
    batch_size: PositiveInt
    n_process: PositiveInt


class Dstc11Options(Strict):
    split_fractions: Annotated[dict[str, Share], AfterValidator(sums_to_one)] = Field(min_length=1)


class BeginOptions(Strict):
    faithful: Annotated[dict[Literal["2022", "2021"], list[str]], AfterValidator(begin_labels)]


class FaithdialOptions(Strict):
    splits: Annotated[list[Literal["train", "valid", "test"]], UNIQUE] = Field(min_length=1)


class CharpFiles(Strict):
    files: dict[str, str]


class CharpOfflineOptions(Strict):
    examples: str  # JSON lines under curation/; review: the judged sheet (null: none)
    review: str | None
    max_knowledge_words: PositiveInt


class Dialogue(Section):
    KEY = "dialogue"
    datasets: Annotated[list[DialogueDataset], UNIQUE] = Field(min_length=1)
    seed: int
    truncation: Annotated[list[HistoryLength], UNIQUE] = Field(min_length=1)
    dstc11: Dstc11Options
    begin: BeginOptions
    faithdial: FaithdialOptions
    charp: CharpFiles
    charp_offline: CharpOfflineOptions


class SourceBlind(Strict):
    enabled: bool
    model: str
    batch_size: PositiveInt
    dtype: Literal["float32", "bfloat16"] = "float32"
    target_f1: Share


class ProbeCeilings(Strict):
    overall: Share
    per_type: Share
    per_type_override: dict[HallucinationType, Share] = {}
    min_examples: Count
    floor: Share
    classifiers: Annotated[list[Literal["ngram", "encoder", "longer", "less_shared"]], UNIQUE] = Field(min_length=1)


class ArtifactProbe(Strict):
    enabled: bool
    encoder: str | None
    folds: Annotated[int, Field(ge=2)]
    resamples: PositiveInt
    ceilings: ProbeCeilings
    on_exceed: Literal["fail", "warn"]


class ReviewSheet(Strict):
    sheet: str
    key: str


class HallucigenSelection(Section):
    """What both HalluciGen sections share: selection, the artifact checks and the review files."""
    balance_tolerance: Count
    type_distribution: Literal["uniform", "paper"] = "uniform"
    max_type_share: Annotated[float, Field(ge=1)] | None
    max_near_copy_share: Share
    max_same_edit: PositiveInt | None = None
    max_side_lead: PositiveInt | None = None
    source_blind: SourceBlind
    artifact_probe: ArtifactProbe
    review_sheets: list[ReviewSheet]
    published_review: str | None = None
    rejected_examples: str | None = None


class HallucigenTranslation(HallucigenSelection):
    KEY = "hallucigen_translation"
    seed: int
    directions: Annotated[list[Direction], UNIQUE] = Field(min_length=1)
    types: Annotated[list[HallucinationType], UNIQUE] = Field(min_length=1)
    pawsx_splits: Annotated[list[PawsxSplit], UNIQUE] = Field(min_length=1)
    pool_per_direction: PositiveInt
    entity_encoder: str
    name_lm: str | None = None
    min_pair_similarity: dict[Literal["fr", "de"], Share]
    confirm_encoder: str | None = None
    min_confirm_pair_similarity: dict[Literal["fr", "de"], Share] = {}
    min_pivot_margin: dict[Literal["fr", "de"], Annotated[float, Field(ge=-1, le=1)]] = {}
    source: Literal["perturbation", "aces"]
    sizes: Sizes


class HallucigenParaphrase(HallucigenSelection):
    KEY = "hallucigen_paraphrase"
    seed: int
    languages: Annotated[list[Literal["en", "sv"]], UNIQUE] = Field(min_length=1)
    types: Annotated[list[HallucinationType], UNIQUE] = Field(min_length=1)
    shroom_files: Annotated[list[str], UNIQUE] = Field(min_length=1)
    min_source_chars: Count
    pool_size: PositiveInt
    min_similarity: Share
    max_added_content: Share
    max_dropped_content: Share
    max_added_content_sv: Share
    encoder: str
    encoder_sv: str
    entity_encoder: str
    name_lm: str | None = None
    min_encoder_similarity: dict[Literal["en", "sv"], Share]
    confirm_encoder: str | None = None
    min_confirm_similarity: Share = 0.0
    sweparaphrase_files: Annotated[list[str], UNIQUE] = Field(min_length=1)
    sizes: dict[Literal["en", "sv"], Sizes]


class Generator(Strict):
    """One generation system (overview §3): the directions and languages it generates for (None: every one),
    and its chat client."""
    settings: Annotated[list[Direction | Literal["en", "sv"]], UNIQUE] | None = None
    client: ModelClient


class HallucigenLlm(Section):
    KEY = "hallucigen_llm"
    enabled: bool
    sources_per_setting: PositiveInt | None  # None: every test source
    translation_prompts: Annotated[list[Literal["general", "mentions"]], UNIQUE] = Field(min_length=1)
    # the systems that run, by name (in the example ids: 'llm:<name>:<prompt>:<source row id>')
    generators: Annotated[list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")]], UNIQUE] = Field(
        min_length=1)
    systems: dict[str, Generator]

    @model_validator(mode="after")
    def _generators_are_systems(self):
        unknown = [g for g in self.generators if g not in self.systems]
        if unknown:
            raise ValueError(f"generators: unknown system {unknown[0]!r} (known: {sorted(self.systems)})")
        return self


class LearnedHead(Strict):
    encoder: str
    int8: bool = False  # a transformers encoder quantised dynamically on CPU (training and detection alike)
    c: Annotated[float, Field(gt=0)]


class DialogueCritic(Strict):
    data: Literal["dstc11", "begin"]
    split: Literal["train", "dev"]
    c: Annotated[list[Annotated[float, Field(gt=0)]], UNIQUE] = Field(min_length=1)
    max_turns: PositiveInt | None
    valid_fraction: Annotated[float, Field(gt=0, lt=1)]
    held_out_begin_turns: PositiveInt | None

    @model_validator(mode="after")
    def _split_of_data(self) -> DialogueCritic:
        if self.split != (wanted := {"dstc11": "train", "begin": "dev"}[self.data]):  # BEGIN test is never read
            raise ValueError(f"a critic on {self.data} trains on its {wanted!r} split, not {self.split!r}")
        return self


class TrainDetector(Section):
    KEY = "train_detector"
    seed: int
    base_model: str
    directions: Annotated[list[Direction], UNIQUE] = Field(min_length=1)
    types: Annotated[list[HallucinationType], UNIQUE] = Field(min_length=1)
    items_per_direction: PositiveInt
    learned: LearnedHead
    critic: DialogueCritic
    cross_encoder_items_per_direction: PositiveInt
    epochs: PositiveInt
    learning_rate: Rate
    batch_size: PositiveInt
    max_length: PositiveInt
    valid_fraction: Annotated[float, Field(gt=0, lt=1)]


class DetectorSpec(Strict):
    kind: DetectorKind
    model: str | None = None
    prompt: Literal["general", "meaning", "support"] | None = None
    members: list[str] | None = None
    batch_size: PositiveInt | None = None
    max_length: PositiveInt | None = None
    int8: bool | None = None
    dtype: Literal["float32", "bfloat16"] | None = None
    langpairs: list[str] | None = None
    max_per_langpair: PositiveInt | None = None
    enabled: bool = True
    off_because: str | None = None  # why it is off (enabled: false): a line of the score card

    @model_validator(mode="after")
    def _needs(self) -> DetectorSpec:
        needed = {"nli": "model", "similarity": "model", "cross_encoder": "model", "learned": "model",
                  "llm_prompt": "prompt", "vote": "members"}.get(self.kind)
        if needed and getattr(self, needed) is None:
            raise ValueError(f"a {self.kind} detector needs '{needed}'")
        return self


class Detect(Section):
    KEY = "detect"
    seed: int
    gpu_concurrency: PositiveInt
    eval_sets: Annotated[list[EvalSetName], UNIQUE] = Field(min_length=1)
    detectors: dict[str, DetectorSpec] = Field(min_length=1)
    llm: ModelClient
    shard_rows: PositiveInt | None = None  # rows per detect shard (tasks/detectors/shards.py); None: whole sets


class Cluster(Section):
    """Where stages fan out (tasks/runners.py); no stage's DVC param: outputs are the same on every runner."""
    KEY = "cluster"
    dask_scheduler: str | None = None


class Bootstrap(Strict):
    resamples: PositiveInt
    seed: int


class Ensemble(Strict):
    enabled: bool
    members: Annotated[list[str], UNIQUE] = Field(min_length=1)
    split_set: EvalSetName
    tuning_fraction: Annotated[float, Field(gt=0, lt=1)]
    c: Rate
    seed: int


class Score(Section):
    KEY = "score"
    threshold_tuning_set: EvalSetName
    bootstrap: Bootstrap
    ensemble: Ensemble
    generation_proxy: str
    generation_sets: dict[str, str]


class Nightly(Section):
    KEY = "nightly"
    cron: str
    timezone: str
    targets: Annotated[list[str], UNIQUE] = Field(min_length=1)
    max_drop: Annotated[float, Field(ge=0)]
    history: str


class Site(Section):
    KEY = "site"
    examples_per_type: Annotated[int, Field(ge=1)]
    errors_per_detector: Annotated[int, Field(ge=1)]
    predictions_per_cell: Annotated[int, Field(ge=1)]


SECTIONS: dict[str, type[Section]] = {m.KEY: m for m in (Fetch, PawsxEdits, Dialogue, HallucigenTranslation,
                                                          HallucigenParaphrase, HallucigenLlm, TrainDetector, Detect,
                                                          Score, Nightly, Charp, Site, Cluster)}


class StageView(Strict):
    """Some keys of params.yaml, one per field (KEYS: field -> dotted key; "{name}" is a flow argument)."""
    KEYS: ClassVar[dict[str, str]]

    @classmethod
    def params_keys(cls, **args: str) -> list[str]:
        return [key.format(**args) for key in cls.KEYS.values()]


def view(name: str, keys: dict[str, str], **types: Any) -> type[StageView]:
    """A StageView named ``name`` whose fields read ``keys``; a field's type is the schema's at that key,
    unless given in ``types`` (needed for keys that depend on a flow argument)."""
    fields = {}
    for field, key in keys.items():
        if field in types:
            fields[field] = (types[field], ...)
            continue
        section, *path = key.split(".")
        model: Any = SECTIONS[section]
        for part in path[:-1]:
            model = model.model_fields[part].annotation
        fields[field] = (model.model_fields[path[-1]].annotation, ...)
    return create_model(name, __base__=StageView, __module__=__name__, KEYS=(ClassVar[dict[str, str]], keys), **fields)


GpuLimit = view("GpuLimit", {"gpu_concurrency": "detect.gpu_concurrency"})
DetectorSpecs = view("DetectorSpecs", {"detectors": "detect.detectors"})
DialogueBuild = view("DialogueBuild", {"seed": "dialogue.seed", "truncation": "dialogue.truncation",
                                       "options": "dialogue.{dataset}"},
                     options=Union[Dstc11Options, BeginOptions, FaithdialOptions, CharpFiles,
                                                   CharpOfflineOptions])
CharpTrain = view("CharpTrain", {k: f"charp.{k}" for k in ("dataset", "seed", "splits", "subsets", "systems",
                                                           "training")})
CharpGenerate = view("CharpGenerate", {k: f"charp.{k}" for k in ("dataset", "eval_dataset", "seed", "splits",
                                                                 "subsets", "systems", "generation", "fewshot",
                                                                 "client")})
SiteCharp = view("SiteCharp", {"eval_dataset": "charp.eval_dataset", "splits": "charp.splits"})

ParamsModel = type[Section] | type[StageView]


def _where(loc: tuple, data: Any) -> str:
    """The dotted key of an error location, leaving out pydantic's union-member labels."""
    out = ""
    for part in loc:
        if isinstance(part, int) and isinstance(data, list) and part < len(data):
            out, data = f"{out}[{part}]", data[part]
        elif isinstance(data, dict) and part in data:
            out, data = f"{out}.{part}", data[part]
        elif isinstance(data, dict):
            return f"{out}.{part}"
    return out


def _problem(err: dict) -> str:
    ctx = err.get("ctx", {})
    bound = {"greater_than_equal": ">=", "greater_than": ">", "less_than_equal": "<=", "less_than": "<"}
    if err["type"] in bound:
        return f"must be {bound[err['type']]} {next(iter(ctx.values()))}"
    if err["type"] == "literal_error":
        return f"must be one of {ctx['expected']}"
    if err["type"] == "missing":
        return "missing"
    if err["type"] == "extra_forbidden":
        return "unknown key"
    return str(ctx["error"]) if err["type"] == "value_error" else err["msg"][0].lower() + err["msg"][1:]


def _one_line(errors: list[dict], data: Any) -> str:
    """The first error's key and problem; a union's alternatives at that key joined with "or"."""
    where = _where(errors[0]["loc"], data)
    here = [e for e in errors if _where(e["loc"], data) == where]
    problems = " or ".join(dict.fromkeys(_problem(e) for e in here))
    got = "" if errors[0]["type"] in ("missing", "extra_forbidden", "value_error") else f" (got {errors[0]['input']!r})"
    more = len(errors) - len(here)
    return f"{where}: {problems}{got}" + (f" (and {more} more)" if more else "")


def validate_section(raw: dict, section: str, file: Path = PARAMS_FILE) -> Section:
    """The validated section of the params mapping ``raw``; ParamsError: one line naming the key."""
    if section not in raw:
        raise ParamsError(f"{file.name}: {section}: missing section")
    try:
        return SECTIONS[section].model_validate(raw[section])
    except ValidationError as exc:
        raise ParamsError(f"{file.name}: {section}{_one_line(exc.errors(), raw[section])}") from None


def load_stage_params(model: ParamsModel, args: dict[str, str] | None = None, file: Path = PARAMS_FILE):
    """``model`` built from params.yaml, after validating every section it reads."""
    raw = load_params(path=file)
    if issubclass(model, Section):
        return validate_section(raw, model.KEY, file)
    values = {}
    for field, key in model.KEYS.items():
        section, *path = key.format(**(args or {})).split(".")
        validated = validate_section(raw, section, file)
        try:
            values[field] = reduce(lambda obj, part: obj[part] if isinstance(obj, dict) else getattr(obj, part),
                                   path, validated)
        except (KeyError, AttributeError):
            raise ParamsError(f"{file.name}: {key.format(**(args or {}))}: missing") from None
    return model.model_validate(values)


def as_dict(params: BaseModel) -> dict:
    """The params as params.yaml spells them (keys in schema order, defaults the file leaves out left out)."""
    return params.model_dump(exclude_unset=True)


def params_parameters(flow: Any) -> dict[str, ParamsModel]:
    """The flow's parameters typed with a Section or StageView, by name."""
    hints = get_type_hints(getattr(flow, "fn", flow))
    return {name: hint for name, hint in hints.items()
            if isinstance(hint, type) and issubclass(hint, (Section, StageView))}


def flow_arguments(flow: Any, *args: str) -> dict[str, str]:
    """The flow's command-line arguments by parameter name (its parameters that are not params and have no
    default; a parameter with a default, such as detect's ``root``, is left to it)."""
    fn = getattr(flow, "fn", flow)
    names = [n for n, p in inspect.signature(fn).parameters.items()
             if n not in params_parameters(flow) and p.default is inspect.Parameter.empty]
    if len(args) != len(names):
        raise ParamsError(f"{fn.__name__} takes {len(names)} argument(s) ({', '.join(names) or 'none'}), "
                          f"got {len(args)}")
    return dict(zip(names, args))


def flow_keys(flow: Any, *args: str) -> list[str]:
    """The params.yaml keys a flow run with ``args`` is built from."""
    arguments = flow_arguments(flow, *args)
    keys = (key for model in params_parameters(flow).values() for key in model.params_keys(**arguments))
    return list(dict.fromkeys(keys))


def flow_params(flow: Any, *args: str, file: Path = PARAMS_FILE) -> dict[str, Any]:
    """The flow's call arguments: ``args`` by name, and each params parameter loaded and validated."""
    arguments = flow_arguments(flow, *args)
    return {**arguments, **{name: load_stage_params(model, arguments, file)
                            for name, model in params_parameters(flow).items()}}
