"""The schema of params.yaml's `charp` section: the CHARP grid, its systems, training, generation, metrics, judge,
human evaluation and history probe (one pydantic model per block)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from tasks.params_base import (
    Count,
    DialogueDataset,
    HistoryLength,
    ModelClient,
    PositiveInt,
    Rate,
    Section,
    Share,
    Strict,
)
from tasks.params_rules import UNIQUE


class CharpSplits(Strict):
    train: str
    valid: str
    eval: str


class CharpSubsets(Strict):
    train: PositiveInt | None
    valid: PositiveInt | None
    eval: PositiveInt | None


class CharpGrid(Strict):
    systems: Annotated[list[str], UNIQUE] = Field(min_length=1)
    train_h: Annotated[list[HistoryLength], UNIQUE] = Field(min_length=1)
    eval_h: Annotated[list[HistoryLength], UNIQUE] = Field(min_length=1)


class CharpSystem(Strict):
    model: str
    arch: Literal["causal", "seq2seq"]
    learning_rate: Rate | None = None
    lora: dict[str, Any] | None = None


class CharpTraining(Strict):
    seed: int
    epochs: PositiveInt
    batch_size: PositiveInt
    max_length: PositiveInt
    learning_rate: Rate
    patience: PositiveInt
    trainable_layers: PositiveInt | None = None
    schedule: Literal["linear", "cosine"] = "linear"
    gradient_accumulation: PositiveInt = 1


class CharpGeneration(Strict):
    beam_size: PositiveInt
    batch_size: PositiveInt
    max_length: PositiveInt
    max_new_tokens: PositiveInt
    shard_rows: PositiveInt | None = None
    int8: bool = False

    @model_validator(mode="after")
    def _whole_batches(self) -> CharpGeneration:
        if self.shard_rows is not None and self.shard_rows % self.batch_size:
            raise ValueError(f"shard_rows ({self.shard_rows}) must be a multiple of batch_size ({self.batch_size}): "
                             "a shard of whole batches gives the same predictions as one shard")
        return self


class CharpFewshot(Strict):
    examples: Count


class Critic(Strict):
    name: str
    model: str
    hallucinated_label: Count
    allow_pickle: bool


class CharpMetrics(Strict):
    bertscore_model: str
    bertscore_layers: PositiveInt
    critic: Critic


class CharpRubric(Strict):
    encoder: str
    aligned_cosine: Share
    aligned_recall: Share
    copy_recall: Share
    from_knowledge: Share
    extra_words: PositiveInt
    on_topic: Share


class CharpJudge(Strict):
    enabled: bool
    method: Literal["rubric", "llm"]
    client: ModelClient
    examples: str
    max_per_cell: PositiveInt | None
    retries: Count
    rubric: CharpRubric


class CharpProbe(Strict):
    """The history probe (CHARP §4-5): each system on both forms of every example of ``dataset``, history full."""
    dataset: DialogueDataset
    easy: str
    hard: str
    size: PositiveInt | None


class CharpHuman(Strict):
    per_cell: PositiveInt
    sheets: dict[str, str]


class Charp(Section):
    KEY = "charp"
    dataset: DialogueDataset
    eval_dataset: DialogueDataset
    seed: int
    splits: CharpSplits
    subsets: CharpSubsets
    grid: CharpGrid
    systems: dict[str, CharpSystem] = Field(min_length=1)
    training: CharpTraining
    generation: CharpGeneration
    fewshot: CharpFewshot
    client: ModelClient
    metrics: CharpMetrics
    judge: CharpJudge
    human: CharpHuman
    probe: CharpProbe

    @model_validator(mode="after")
    def _grid_systems_exist(self) -> Charp:
        unknown = [s for s in self.grid.systems if s not in self.systems]
        if unknown:
            raise ValueError(f"grid.systems {unknown} are not in systems ({sorted(self.systems)})")
        return self

    @model_validator(mode="after")
    def _judge_is_not_a_system(self) -> Charp:
        """An LLM judge does not grade its own output: judge.client names another model than charp.client."""
        if self.judge.method == "llm" and model_identity(self.judge.client) == model_identity(self.client):
            raise ValueError(f"judge.client names the few-shot system's model ({' '.join(model_identity(self.client))}"
                             "): the judge would grade its own output; name another model or endpoint")
        return self


def model_identity(client: ModelClient) -> tuple[str, ...]:
    """What makes two clients the same model: the backend, the model and, for an endpoint, its URL."""
    backend = getattr(client, client.backend)
    return (client.backend, backend.model) + ((backend.base_url.rstrip("/"),) if client.backend == "openai" else ())
