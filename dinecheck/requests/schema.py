"""Pydantic models of a benchmark request: operator nodes, condition nodes and every evidence kind.

Evidence is a discriminated union on ``kind`` (``item_meta``, ``item_meta_hours``, ``review_text``, ``review_meta``);
tree nodes are discriminated by the presence of an ``op`` key (evidence_semantics.md §1). Unknown keys are forbidden
everywhere. :func:`parse_request` turns a decoded JSON object into a :class:`Request` or raises
:class:`~dinecheck.errors.RequestError` naming the request id and the JSON pointer of the first problem; it checks the
nesting depth and node count *before* pydantic sees the object, so hostile input cannot exhaust the stack.
:func:`request_json_schema` exports the JSON Schema.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import regex
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError, field_validator, model_validator

from dinecheck.errors import RequestError
from dinecheck.requests.patterns import backtracking_risk

MAX_DEPTH = 64
"""Deepest allowed nesting of JSON containers in one request (the benchmark needs about 12)."""
MAX_NODES = 2_000
"""Most JSON containers + scalars allowed in one request."""
MAX_PATTERN_CHARS = 1_000
"""Longest allowed ``review_text`` pattern."""
REGEX_FLAGS = regex.IGNORECASE | regex.VERSION0

Scalar = Union[bool, int, float, str]
TV = Literal[-1, 0, 1]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Open(BaseModel):
    """The request's top level keeps keys the spec does not name (benchmark notes, difficulty labels): they do not
    take part in evaluation. The tree below stays strict: a misplaced evidence key must not be ignored silently."""

    model_config = ConfigDict(extra="allow", frozen=True)


def _check_path(v: list[str]) -> list[str]:
    if not v:
        raise ValueError("path must name at least one key")
    return v


class ItemMetaEvidence(_Strict):
    """A restaurant attribute read along ``path`` and tested per evidence_semantics.md §3."""

    kind: Literal["item_meta"]
    path: list[str]
    true: Scalar | None = None
    false: Scalar | None = None
    neutral: Scalar | None = None
    not_true: Scalar | None = None
    contains: str | None = None
    not_contains: str | None = None
    missing: TV = 0

    _path = field_validator("path")(_check_path)


class ItemMetaHoursEvidence(_Strict):
    """An opening-hours window: the restaurant's ``path`` (``["hours", "Monday"]``) must cover ``true``
    (``H:M-H:M``)."""

    kind: Literal["item_meta_hours"]
    path: list[str]
    true: str
    missing: TV = 0

    _path = field_validator("path")(_check_path)


class WeightBy(_Strict):
    """Credibility weighting: only reviews whose ``field`` value reaches the percentile threshold count."""

    field: list[str]
    credibility_percentile: float | None = Field(default=None, ge=0, le=100)
    min_credible_matches: int | None = Field(default=None, ge=1)

    _path = field_validator("field")(_check_path)


class SocialFilter(_Strict):
    """Only reviews written by the requester's friend circle (reviewer names) count."""

    friends: list[str] = Field(min_length=1)
    hops: int = Field(default=1, ge=1, le=3)
    min_matches: int | None = Field(default=None, ge=1)


class ReviewTextEvidence(_Strict):
    """A case-insensitive regular-expression search in review texts, optionally credibility- or socially-filtered."""

    kind: Literal["review_text"]
    pattern: str = Field(max_length=MAX_PATTERN_CHARS)
    weight_by: WeightBy | None = None
    social_filter: SocialFilter | None = None
    min_matches: int | None = Field(default=None, ge=1)
    credibility_percentile: float | None = Field(default=None, ge=0, le=100)
    min_credible_matches: int | None = Field(default=None, ge=1)

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            regex.compile(v, REGEX_FLAGS)
        except (regex.error, OverflowError, RecursionError, ValueError) as exc:
            raise ValueError(f"not a valid regular expression ({exc})") from None
        risk = backtracking_risk(v)
        if risk is not None:
            raise ValueError(f"the pattern can take exponential time on some texts: {risk}; rewrite it") from None
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "ReviewTextEvidence":
        if self.weight_by is not None and self.social_filter is not None:
            raise ValueError("weight_by and social_filter cannot be combined in one condition")
        credibility_given = self.credibility_percentile is not None or self.min_credible_matches is not None
        if credibility_given and self.weight_by is None:
            raise ValueError("credibility_percentile/min_credible_matches need weight_by")
        if self.min_matches is not None and self.social_filter is None:
            raise ValueError("min_matches needs social_filter")
        if self.weight_by is not None:
            for name in ("credibility_percentile", "min_credible_matches"):
                a, b = getattr(self, name), getattr(self.weight_by, name)
                if a is not None and b is not None and a != b:
                    raise ValueError(f"{name} is given twice with different values")
        if self.social_filter is not None:
            a, b = self.min_matches, self.social_filter.min_matches
            if a is not None and b is not None and a != b:
                raise ValueError("min_matches is given twice with different values")
        return self

    @property
    def percentile(self) -> float:
        wb = self.weight_by
        v = wb.credibility_percentile if wb and wb.credibility_percentile is not None else self.credibility_percentile
        return 50.0 if v is None else float(v)

    @property
    def min_credible(self) -> int:
        wb = self.weight_by
        v = wb.min_credible_matches if wb and wb.min_credible_matches is not None else self.min_credible_matches
        return 2 if v is None else v

    @property
    def social_min_matches(self) -> int:
        sf = self.social_filter
        v = sf.min_matches if sf and sf.min_matches is not None else self.min_matches
        return 1 if v is None else v


class ReviewMetaEvidence(_Strict):
    """A test on review metadata at ``path`` (``op``: not_empty | gte | lte with ``value``), aggregated by ``agg``."""

    kind: Literal["review_meta"]
    path: list[str]
    op: Literal["not_empty", "gte", "lte"] = "not_empty"
    value: float | None = None
    agg: Literal["any", "all", "count"] = "any"
    count: int = Field(default=1, ge=0)
    min_stars: float | None = None
    missing: TV = 0

    _path = field_validator("path")(_check_path)

    @model_validator(mode="after")
    def _value_given(self) -> "ReviewMetaEvidence":
        if self.op in ("gte", "lte") and self.value is None:
            raise ValueError(f"op {self.op!r} needs a numeric 'value'")
        return self


Evidence = Annotated[
    Union[ItemMetaEvidence, ItemMetaHoursEvidence, ReviewTextEvidence, ReviewMetaEvidence],
    Field(discriminator="kind"),
]
EVIDENCE_KINDS = ("item_meta", "item_meta_hours", "review_text", "review_meta")


class Condition(_Strict):
    """A leaf: a named aspect and the evidence that decides it."""

    aspect: str = Field(min_length=1, max_length=200)
    evidence: Evidence


def _node_tag(v: Any) -> str:
    if isinstance(v, dict):
        return "operator" if "op" in v else "condition"
    return "operator" if hasattr(v, "op") else "condition"


class OperatorNode(_Strict):
    """AND / OR over one or more children, or NOT over exactly one."""

    op: Literal["AND", "OR", "NOT"]
    args: list["Node"] = Field(min_length=1)

    @model_validator(mode="after")
    def _not_arity(self) -> "OperatorNode":
        if self.op == "NOT" and len(self.args) != 1:
            raise ValueError(f"NOT takes exactly one child, got {len(self.args)}")
        return self


Node = Annotated[
    Union[Annotated[OperatorNode, Tag("operator")], Annotated[Condition, Tag("condition")]],
    Discriminator(_node_tag),
]
OperatorNode.model_rebuild()


class Request(_Open):
    """One benchmark request (request_structure.md)."""

    id: str = Field(min_length=1, max_length=100)
    group: str | None = None
    scenario: str | None = None
    text: str | None = None
    shorthand: str | None = None
    structure: OperatorNode
    gold_restaurant: str | None = None


_NODE_TAGS = {"operator", "condition"}


def _pointer(loc: tuple[Any, ...]) -> str:
    """Turn a pydantic error location into a JSON pointer, dropping the union tags pydantic inserts."""
    parts: list[str] = []
    for i, item in enumerate(loc):
        prev = loc[i - 1] if i else None
        if isinstance(item, str):
            if item in _NODE_TAGS and (prev == "structure" or isinstance(prev, int)):
                continue
            if item in EVIDENCE_KINDS and prev == "evidence":
                continue
        parts.append(str(item).replace("~", "~0").replace("/", "~1"))
    return "/" + "/".join(parts)


def check_shape(obj: Any, where: str) -> None:
    """Reject JSON that nests deeper than MAX_DEPTH or has more than MAX_NODES values (iteratively, no recursion)."""
    stack: list[tuple[Any, int, str]] = [(obj, 1, "")]
    seen = 0
    while stack:
        cur, depth, ptr = stack.pop()
        seen += 1
        if seen > MAX_NODES:
            raise RequestError(f"the request has more than {MAX_NODES} JSON values", where)
        if isinstance(cur, (dict, list)):
            if depth > MAX_DEPTH:
                raise RequestError(f"nested deeper than {MAX_DEPTH} levels", f"{where} {ptr or '/'}")
            items = cur.items() if isinstance(cur, dict) else enumerate(cur)
            for k, v in items:
                stack.append((v, depth + 1, f"{ptr}/{k}"))


def parse_request(obj: Any, where: str = "request") -> Request:
    """Validate one decoded request object. ``where`` names the source (e.g. ``requests.jsonl:7``) for errors."""
    if not isinstance(obj, dict):
        raise RequestError(f"a request must be a JSON object, got {type(obj).__name__}", where)
    rid = obj.get("id")
    label = f"{where} request {rid}" if isinstance(rid, str) and rid else where
    check_shape(obj, label)
    root = obj.get("structure")
    if isinstance(root, dict) and "op" not in root:
        raise RequestError("the root of the structure must be an operator node (a node with 'op': AND, OR or NOT)",
                           f"{label} /structure")
    try:
        return Request.model_validate(obj)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        msg = err["msg"].removeprefix("Value error, ")
        raise RequestError(f"{msg}{more}", f"{label} {_pointer(tuple(err['loc']))}") from None
    except RecursionError:
        raise RequestError("the request is nested too deeply", label) from None


def request_json_schema() -> dict[str, Any]:
    """The JSON Schema of one request line."""
    return Request.model_json_schema()


def iter_nodes(node: OperatorNode | Condition, pointer: str = "/structure"):
    """Yield ``(pointer, node)`` for every node, parents first (iteratively)."""
    stack: list[tuple[str, OperatorNode | Condition]] = [(pointer, node)]
    while stack:
        ptr, cur = stack.pop()
        yield ptr, cur
        if isinstance(cur, OperatorNode):
            for i in range(len(cur.args) - 1, -1, -1):
                stack.append((f"{ptr}/args/{i}", cur.args[i]))


def conditions(node: OperatorNode | Condition, pointer: str = "/structure") -> list[tuple[str, Condition]]:
    """Every condition with its JSON pointer, in document order."""
    return [(p, n) for p, n in iter_nodes(node, pointer) if isinstance(n, Condition)]
