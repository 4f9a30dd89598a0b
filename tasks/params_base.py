"""The building blocks of the params.yaml schema (tasks/params_schema.py): the value types shared by sections,
`Strict` and `Section`, and the model-client block that several sections hold."""
from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

DialogueDataset = Literal["dstc11", "begin", "faithdial", "charp", "charp_offline"]
HistoryLength = Union[Literal["full"], Annotated[int, Field(ge=0)]]
PositiveInt = Annotated[int, Field(ge=1)]
Count = Annotated[int, Field(ge=0)]
Share = Annotated[float, Field(ge=0, le=1)]
Seconds = Union[Annotated[int, Field(gt=0)], Annotated[float, Field(gt=0)]]
Rate = Annotated[float, Field(gt=0)]


class Strict(BaseModel):
    """Unknown keys are errors; values are read-only."""
    model_config = ConfigDict(extra="forbid", frozen=True)


class Section(Strict):
    """A whole top-level section of params.yaml."""
    KEY: ClassVar[str]

    @classmethod
    def params_keys(cls, **args: str) -> list[str]:
        return [cls.KEY]


class LocalModel(Strict):
    model: str
    max_new_tokens: PositiveInt
    batch_size: PositiveInt
    int8: bool = False


class OpenAIModel(Strict):
    base_url: str
    model: str
    api_key_env: str | None
    timeout_s: Seconds
    retries: Count
    max_tokens: PositiveInt = 256


class Decoding(Strict):
    """tasks/models/decoding.py: temperature 0 is greedy; top_k, top_p null: no such filter."""
    temperature: Annotated[float, Field(ge=0)] = 0.0
    top_k: PositiveInt | None = None
    top_p: Annotated[float, Field(gt=0, le=1)] | None = None
    frequency_penalty: Annotated[float, Field(ge=-2, le=2)] = 0.0
    seed: int = 13


class ModelClient(Strict):
    backend: Literal["local", "openai"]
    local: LocalModel
    openai: OpenAIModel
    decoding: Decoding = Decoding()
    answers: Literal["logprob", "text"] = "logprob"  # logprob: a local model scores allowed answers
