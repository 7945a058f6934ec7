"""Pydantic models of a Formula Seed (every section and every op) and the JSON Schema export.

The models check *shape* (which keys, which JSON types, size bounds); :mod:`dinecheck.formula.check` checks meaning
(names, order, enum values, expression syntax and types) and reports every problem with a JSON pointer. A seed's
``extract.fields`` items are :class:`dinecheck.extract.base.FieldSpec` objects. Every step may carry an optional
``description`` (free text shown in traces); any other unknown key is an error.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from dinecheck.extract.base import FieldSpec

STEP_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"
MAX_STEPS = 500
MAX_KEYWORDS = 2000
MAX_TEXT = 10_000  # an expression or a condition (same bound as the expression language)

Scalar = Union[StrictBool, StrictInt, StrictFloat, Annotated[StrictStr, Field(max_length=1000)]]
Number = Union[StrictInt, StrictFloat]
Expr = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
StepName = Annotated[StrictStr, Field(pattern=STEP_NAME_PATTERN)]
Description = Annotated[StrictStr, Field(max_length=2000)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OperatorCondition(_Model):
    """Several operators on one key; all must hold. ``in`` takes a list of literals."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    in_: list[Scalar] | None = Field(default=None, alias="in", max_length=1000)
    ge: Scalar | None = Field(default=None, alias=">=")
    gt: Scalar | None = Field(default=None, alias=">")
    le: Scalar | None = Field(default=None, alias="<=")
    lt: Scalar | None = Field(default=None, alias="<")
    ne: Scalar | None = Field(default=None, alias="!=")

    def operators(self) -> list[tuple[str, Any]]:
        """The operators that are present, as ``(symbol, operand)`` pairs in a fixed order."""
        out: list[tuple[str, Any]] = []
        for attr, sym in (("in_", "in"), ("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"), ("ne", "!=")):
            if attr in self.model_fields_set:
                out.append((sym, getattr(self, attr)))
        return out


Condition = Union[Scalar, OperatorCondition]
Where = Annotated[dict[Annotated[str, Field(max_length=200)], Condition], Field(max_length=100)]


class FilterSection(_Model):
    """Which reviews are relevant: lower-cased text contains any lower-cased keyword — as a substring (``match``
    ``"substring"``, the default) or as a whole word or phrase (``"word"``: "nut" does not match "donut")."""

    keywords: list[Annotated[StrictStr, Field(min_length=1, max_length=200)]] = Field(min_length=1, max_length=MAX_KEYWORDS)
    match: Literal["substring", "word"] = "substring"


class ExtractSection(_Model):
    """The enum fields to extract from each relevant review."""

    fields: list[FieldSpec] = Field(min_length=1, max_length=32)


class DefineFilterStep(_Model):
    name: StepName
    op: Literal["define_filter"]
    extraction: Annotated[dict[Annotated[str, Field(max_length=200)], Condition], Field(min_length=1, max_length=100)]
    description: Description | None = None


class CountStep(_Model):
    name: StepName
    op: Literal["count"]
    where: Where | None = None
    description: Description | None = None


class SumStep(_Model):
    name: StepName
    op: Literal["sum"]
    expr: Expr
    where: Where | None = None
    description: Description | None = None


class MaxStep(_Model):
    name: StepName
    op: Literal["max"]
    field: Expr
    where: Where | None = None
    default: Number | None = None
    description: Description | None = None


class MinStep(_Model):
    name: StepName
    op: Literal["min"]
    field: Expr
    where: Where | None = None
    default: Number | None = None
    description: Description | None = None


class LookupStep(_Model):
    name: StepName
    op: Literal["lookup"]
    source: Annotated[StrictStr, Field(max_length=200)]
    table: Annotated[dict[Annotated[str, Field(min_length=1, max_length=200)], Scalar], Field(min_length=1, max_length=1000)]
    match: Literal["exact", "substring_first", "substring_max"] = "exact"
    default: Scalar | None = None
    description: Description | None = None


class ExprStep(_Model):
    name: StepName
    op: Literal["expr"]
    expr: Expr
    description: Description | None = None


class ConstStep(_Model):
    name: StepName
    op: Literal["const"]
    value: Scalar
    description: Description | None = None


class WhenRule(_Model):
    when: Expr
    then: Scalar


class ElseRule(_Model):
    else_: Scalar = Field(alias="else")


class CaseStep(_Model):
    name: StepName
    op: Literal["case"]
    source: Annotated[StrictStr, Field(max_length=200)] | None = None
    rules: list[Union[WhenRule, ElseRule]] = Field(min_length=1, max_length=200)
    description: Description | None = None


Step = Annotated[
    Union[DefineFilterStep, CountStep, SumStep, MaxStep, MinStep, LookupStep, ExprStep, ConstStep, CaseStep],
    Field(discriminator="op"),
]
STEP_MODELS: dict[str, type[BaseModel]] = {
    "define_filter": DefineFilterStep,
    "count": CountStep,
    "sum": SumStep,
    "max": MaxStep,
    "min": MinStep,
    "lookup": LookupStep,
    "expr": ExprStep,
    "const": ConstStep,
    "case": CaseStep,
}
AGGREGATE_OPS = frozenset({"count", "sum", "max", "min"})


class Seed(_Model):
    """A complete Formula Seed: filter → extract → compute (ordered steps) → output."""

    task_name: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    filter: FilterSection
    extract: ExtractSection
    compute: list[Step] = Field(min_length=1, max_length=MAX_STEPS)
    output: list[Annotated[StrictStr, Field(max_length=200)]] = Field(min_length=1, max_length=MAX_STEPS)


def seed_json_schema() -> dict[str, Any]:
    """The JSON Schema of a seed (``dinecheck seed schema``)."""
    schema = Seed.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema.setdefault("title", "Formula Seed")
    return schema
