"""The extraction contract: field specs, review inputs, typed per-review results with a status, and the protocol.

This layer knows nothing of Formula Seeds: a seed's ``extract.fields`` *are* :class:`FieldSpec` objects, the formula
engine depends only on :class:`Extractor`, and the CLI picks the concrete extractor (replay, offline, llm).

A result's ``status`` is ``"ok"`` (``values`` holds one declared enum value per field), ``"invalid"`` (the extractor
answered but the answer could not be validated, even after repair) or ``"error"`` (no answer: missing replay record,
endpoint failure, budget exhausted). Only ``ok`` results carry values; nothing is ever defaulted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

Status = Literal["ok", "invalid", "error"]

FIELD_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"

#: Value names that mean "nothing of this field here" (compared case-insensitively).
NULL_VALUE_NAMES = frozenset({"none", "no", "null", "nothing", "not_mentioned", "absent", "n_a", "na"})
# a description saying the review does not talk about the field's subject: "No staff interaction about allergies",
# "Not mentioned", "The review does not discuss any dietary need …"
_NULL_DESCRIPTION = re.compile(
    r"^\W*(?:(?:no|none|not|nothing|neither|without)\b|(?:the\s+)?review\s+(?:does\s+not|doesn't)\s+"
    r"(?:discuss|mention|describe|say)\b)|\bnot\s+mentioned\b",
    re.IGNORECASE,
)


class FieldSpec(BaseModel):
    """One enum field to extract: its name and every allowed value with a description of what it means."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=FIELD_NAME_PATTERN)
    type: Literal["enum"] = "enum"
    values: dict[str, str] = Field(min_length=1, max_length=64)

    @field_validator("values")
    @classmethod
    def _values_are_short(cls, v: dict[str, str]) -> dict[str, str]:
        for key, desc in v.items():
            if not key or len(key) > 64:
                raise ValueError(f"enum value {key!r} must be 1–64 characters")
            if len(desc) > 2000:
                raise ValueError(f"description of {key!r} is longer than 2000 characters")
        return v

    @property
    def null_value(self) -> str | None:
        """The field's "nothing here" value — the one definition shared by the prompt, answer checking, the offline
        extractor and scoring: the first value named like ``none`` (:data:`NULL_VALUE_NAMES`), else the first whose
        description says the subject is absent ("No …", "Not mentioned", "The review does not discuss …")."""
        named = next((k for k in self.values if k.lower() in NULL_VALUE_NAMES), None)
        if named is not None:
            return named
        return next((k for k, d in self.values.items() if _NULL_DESCRIPTION.search(d)), None)

    def is_null(self, value: str) -> bool:
        """Whether ``value`` is this field's null value (it needs no evidence quote)."""
        return value == self.null_value


@dataclass(frozen=True, slots=True)
class ReviewInput:
    """What an extractor sees of one review: ids, text and metadata (stars, useful, date, …)."""

    business_id: str
    review_id: str
    text: str
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Evidence:
    """A verbatim quote supporting a non-``none`` value, whether it really occurs in the review, and (for rule-based
    extractors) the cue that fired."""

    quote: str
    verified: bool
    cue: str | None = None


@dataclass(frozen=True, slots=True)
class ExtractionResult:
    """The labels of one review. ``values`` is empty unless ``status == "ok"``; ``error`` says why otherwise."""

    business_id: str
    review_id: str
    status: Status
    values: dict[str, str] = field(default_factory=dict)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class ExtractionStats:
    """Accounting for one extractor run (summed over every ``extract`` call)."""

    reviews: int = 0
    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "reviews": self.reviews,
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "retries": self.retries,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "cost": round(self.cost, 6),
        }


@runtime_checkable
class Extractor(Protocol):
    """Labels reviews with the given enum fields. Must return exactly one result per input review, in input order."""

    name: str
    stats: ExtractionStats

    def extract(self, fields: Sequence[FieldSpec], reviews: Sequence[ReviewInput]) -> list[ExtractionResult]: ...

    def close(self) -> None: ...
