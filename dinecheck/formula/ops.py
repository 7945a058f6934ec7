"""The compute ops of a Formula Seed, one builder per op, and the ``where`` condition compiler.

Each ``build_<op>(step, filters)`` turns a validated step model into a function ``run(frame, explain) -> Outcome``
that reads earlier values from ``frame.values``; ``explain=True`` also records which reviews contributed.

Semantics (pinned down here, documented in docs/formula.md):

* aggregates (``count``, ``sum``, ``max``, ``min``) range over the restaurant's *extracted* reviews — the filtered
  reviews whose extraction succeeded — in dataset order; ``count`` without ``where`` counts them all; ``sum`` of
  nothing is ``0``; ``max``/``min`` of nothing is ``default`` and an error when there is no default;
* ``where``: every key must hold; a literal means equality (``==`` between different kinds is false), an operator
  object holds several operators that must all hold, ``in`` is equality with any list item; ordering a missing
  (null) value is an error, never a silent false; ``$F: true`` requires filter ``F``, ``$F: false`` its negation;
* ``lookup``: ``exact`` looks the source up as a key; ``substring_first`` returns the value of the first table key
  (in table order) found in the source; ``substring_max`` the highest value among all keys found; a list source is
  searched item by item (a key matches when it matches any item); a null source or no match gives ``default``, and
  no match without a default is an error. Matching is case-sensitive;
* ``case``: the first rule whose ``when`` holds gives ``then``; ``else`` gives its value; with a ``source`` each
  ``when`` is a comparison suffix (``"< 4.0"`` means ``SOURCE < 4.0``); no matching rule is an error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from dinecheck.formula import expr as E
from dinecheck.formula.expr import Fault
from dinecheck.formula.schema import (
    CaseStep,
    ConstStep,
    CountStep,
    DefineFilterStep,
    ElseRule,
    ExprStep,
    LookupStep,
    MaxStep,
    MinStep,
    OperatorCondition,
    SumStep,
)


@dataclass(slots=True)
class ReviewRecord:
    """One extracted review as the compute stage sees it: ``meta`` (review fields + ``year``) and ``extraction``."""

    review_id: str
    meta: dict[str, Any]
    extraction: dict[str, Any]


@dataclass(slots=True)
class Frame:
    """The state of one restaurant's evaluation."""

    values: dict[str, Any]
    context: dict[str, Any]
    reviews: list[ReviewRecord]


@dataclass(slots=True)
class Outcome:
    """A step's value and, when explained, the reviews that contributed and op-specific detail."""

    value: Any
    reviews: list[str] | None = None
    detail: dict[str, Any] | None = None


Predicate = Callable[[dict[str, Any], ReviewRecord, dict[str, Any]], bool]
StepFn = Callable[[Frame, bool], Outcome]

_ORDER = {">=": E._ge, ">": E._gt, "<=": E._le, "<": E._lt}


def _key_getter(key: str) -> Callable[[ReviewRecord, dict[str, Any]], Any]:
    ns, _, name = key.partition(".")
    if ns == "extraction":
        return lambda r, c: r.extraction.get(name)
    if ns == "meta":
        return lambda r, c: r.meta.get(name)
    return lambda r, c: c.get(name)


def _condition(key: str, cond: Any) -> Predicate:
    get = _key_getter(key)
    if not isinstance(cond, OperatorCondition):
        lit = cond
        return lambda v, r, c: E._eq(get(r, c), lit)
    tests: list[Callable[[Any], bool]] = []
    for sym, operand in cond.operators():
        if sym == "in":
            items = tuple(operand)
            tests.append(partial(_in, items=items))
        elif sym == "!=":
            tests.append(partial(_differs, lit=operand))
        else:
            fn = _ORDER[sym]

            def ordered(x: Any, lit: Any = operand, fn: Callable[[Any, Any], bool] = fn, sym: str = sym) -> bool:
                try:
                    return fn(x, lit)
                except Fault as f:
                    raise Fault(f"where {key} {sym} {lit!r}: {f.reason}") from None

            tests.append(ordered)
    if len(tests) == 1:
        (t,) = tests
        return lambda v, r, c: t(get(r, c))
    return lambda v, r, c: all(t(get(r, c)) for t in tests)


def _in(x: Any, items: tuple[Any, ...]) -> bool:
    return any(E._eq(x, it) for it in items)


def _differs(x: Any, lit: Any) -> bool:
    return not E._eq(x, lit)


def _negated(f: Predicate) -> Predicate:
    return lambda v, r, c: not f(v, r, c)


def compile_where(where: dict[str, Any] | None, filters: dict[str, Predicate], *, bare: bool = False) -> Predicate | None:
    """One predicate for a ``where`` (or a ``define_filter``'s bare-name map); None when it is empty."""
    if not where:
        return None
    preds: list[Predicate] = []
    for key, cond in where.items():
        if key.startswith("$"):
            f = filters[key[1:]]
            preds.append(f if cond else _negated(f))
        else:
            preds.append(_condition(f"extraction.{key}" if bare else key, cond))
    if len(preds) == 1:
        return preds[0]
    if len(preds) == 2:
        p0, p1 = preds
        return lambda v, r, c: p0(v, r, c) and p1(v, r, c)
    return lambda v, r, c: all(p(v, r, c) for p in preds)


def _in_review(f: Fault, review: ReviewRecord) -> Fault:
    return Fault(f"review {review.review_id}: {f.reason}")


def _matching(pred: Predicate | None, frame: Frame) -> list[ReviewRecord]:
    """The frame's reviews for which ``pred`` holds (all of them when there is no predicate)."""
    if pred is None:
        return frame.reviews
    v, c = frame.values, frame.context
    out = []
    for r in frame.reviews:
        try:
            if pred(v, r, c):
                out.append(r)
        except Fault as f:
            raise _in_review(f, r) from None
    return out


# ---------------------------------------------------------------------------------------------------------- ops


def build_define_filter(step: DefineFilterStep, filters: dict[str, Predicate]) -> tuple[StepFn, Predicate]:
    pred = compile_where(step.extraction, filters, bare=True)
    assert pred is not None  # define_filter has at least one condition (schema)

    def run(frame: Frame, explain: bool) -> Outcome:
        if not explain:
            return Outcome(None)
        return Outcome(None, [r.review_id for r in _matching(pred, frame)])

    return run, pred


def build_count(step: CountStep, filters: dict[str, Predicate]) -> StepFn:
    pred = compile_where(step.where, filters)

    def run(frame: Frame, explain: bool) -> Outcome:
        hits = _matching(pred, frame)
        return Outcome(len(hits), [r.review_id for r in hits] if explain else None)

    return run


def build_sum(step: SumStep, filters: dict[str, Predicate]) -> StepFn:
    pred = compile_where(step.where, filters)
    term = E.compile_node(E.parse(step.expr))

    def run(frame: Frame, explain: bool) -> Outcome:
        v, c = frame.values, frame.context
        total: Any = 0
        terms: dict[str, Any] = {}
        for r in _matching(pred, frame):
            try:
                x = term(v, r, c)
                total = E._add(total, x)
            except Fault as f:
                raise _in_review(f, r) from None
            if explain:
                terms[r.review_id] = x
        return Outcome(total, list(terms) if explain else None, {"terms": terms} if explain else None)

    return run


def _build_extreme(step: MaxStep | MinStep, filters: dict[str, Predicate], pick: Callable[..., Any]) -> StepFn:
    pred = compile_where(step.where, filters)
    term = E.compile_node(E.parse(step.field))
    default = step.default
    op = step.op

    def run(frame: Frame, explain: bool) -> Outcome:
        v, c = frame.values, frame.context
        vals: list[tuple[Any, str]] = []
        for r in _matching(pred, frame):
            try:
                x = E._num(term(v, r, c), op)
            except Fault as f:
                raise _in_review(f, r) from None
            vals.append((x, r.review_id))
        if not vals:
            if default is None:
                raise Fault(f"no review matched and the {op} step has no 'default'")
            return Outcome(default, [] if explain else None, {"default": True} if explain else None)
        best = pick(x for x, _ in vals)
        if not explain:
            return Outcome(best)
        return Outcome(best, [rid for _, rid in vals], {"values": {rid: x for x, rid in vals}, "at": [rid for x, rid in vals if x == best]})

    return run


def build_max(step: MaxStep, filters: dict[str, Predicate]) -> StepFn:
    return _build_extreme(step, filters, max)


def build_min(step: MinStep, filters: dict[str, Predicate]) -> StepFn:
    return _build_extreme(step, filters, min)


def _source_getter(source: str) -> E.Compiled:
    node = E.parse(source)
    return E.compile_node(node)


def build_lookup(step: LookupStep, filters: dict[str, Predicate]) -> StepFn:
    get = _source_getter(step.source)
    table = dict(step.table)
    keys = list(table)
    mode = step.match
    default = step.default

    def hits_in(src: Any) -> list[str]:
        if src is None:
            return []
        items = src if isinstance(src, list) else [src]
        for it in items:
            if not isinstance(it, str):
                raise Fault(f"lookup source {step.source} must be a string or a list of strings, got {E.kind(it)} {it!r}"[:300])
        if mode == "exact":
            return [k for k in keys if k in items] if isinstance(src, list) else ([src] if src in table else [])
        return [k for k in keys if any(k in it for it in items)]

    def run(frame: Frame, explain: bool) -> Outcome:
        src = get(frame.values, None, frame.context)
        hits = hits_in(src)
        if not hits:
            if default is None:
                raise Fault(f"no table key matches {str(src)[:200]!r} and the lookup has no 'default'")
            return Outcome(default, None, {"matched": [], "default": True} if explain else None)
        if mode == "substring_max":
            try:
                value = max((table[k] for k in hits), key=_num_key)
            except Fault as f:
                raise Fault(f"substring_max needs numeric table values: {f.reason}") from None
        else:
            value = table[hits[0]]
        return Outcome(value, None, {"matched": hits} if explain else None)

    return run


def _num_key(x: Any) -> Any:
    return E._num(x, "substring_max")


def build_expr(step: ExprStep, filters: dict[str, Predicate]) -> StepFn:
    node = E.parse(step.expr)
    fn = E.compile_node(node)
    inputs = sorted({n.dotted for n in E.names(node)})

    def run(frame: Frame, explain: bool) -> Outcome:
        value = fn(frame.values, None, frame.context)
        if not explain:
            return Outcome(value)
        return Outcome(value, None, {"inputs": {k: _read(k, frame) for k in inputs}})

    return run


def _read(dotted: str, frame: Frame) -> Any:
    ns, dot, name = dotted.partition(".")
    return frame.context.get(name) if dot else frame.values.get(dotted)


def build_const(step: ConstStep, filters: dict[str, Predicate]) -> StepFn:
    value = step.value
    return lambda frame, explain: Outcome(value)


def build_case(step: CaseStep, filters: dict[str, Predicate]) -> StepFn:
    source = E.parse(step.source) if step.source is not None else None
    rules: list[tuple[E.Compiled | None, Any, str]] = []
    for rule in step.rules:
        if isinstance(rule, ElseRule):
            rules.append((None, rule.else_, "else"))
        else:
            node = E.parse_comparison_suffix(rule.when, source) if source is not None else E.parse(rule.when)
            rules.append((E.compile_node(node), rule.then, rule.when))

    def run(frame: Frame, explain: bool) -> Outcome:
        v, c = frame.values, frame.context
        for i, (cond, then, text) in enumerate(rules):
            if cond is None or E._bool(cond(v, None, c), "a 'when'"):
                return Outcome(then, None, {"rule": i, "when": text} if explain else None)
        raise Fault("no rule matched and the case has no 'else'")

    return run


BUILDERS: dict[str, Callable[..., Any]] = {
    "define_filter": build_define_filter,
    "count": build_count,
    "sum": build_sum,
    "max": build_max,
    "min": build_min,
    "lookup": build_lookup,
    "expr": build_expr,
    "const": build_const,
    "case": build_case,
}
