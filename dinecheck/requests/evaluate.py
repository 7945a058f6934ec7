"""Evaluate a request tree over a dataset: per-node three-valued values, evidence and explanations.

:class:`Engine` is built once per dataset. It keeps one evaluator per distinct evidence (requests share conditions),
caches every (condition, restaurant) outcome, and computes a match with short-circuiting (cheap attribute conditions
first; Kleene AND/OR do not depend on child order). :meth:`Engine.explain` evaluates every node and returns a
:class:`NodeResult` tree with the outcome of each condition (evidence_semantics.md §7).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dinecheck import logic
from dinecheck.dataset import Dataset, Restaurant
from dinecheck.errors import EvaluationError
from dinecheck.requests.evidence import REGEX_TIMEOUT_S, ConditionOutcome, ReviewIndex, make_evaluator
from dinecheck.requests.patterns import REGEX_REQUEST_BUDGET_S, REGEX_RUN_BUDGET_S, RegexBudget, RegexBudgetExceeded
from dinecheck.requests.schema import Condition, OperatorNode, Request


@dataclass(frozen=True)
class NodeResult:
    """One evaluated node: its JSON pointer, value, and either its operator + children or its condition outcome."""

    pointer: str
    value: int
    op: str | None = None
    aspect: str | None = None
    description: str | None = None
    outcome: ConditionOutcome | None = None
    children: tuple["NodeResult", ...] = ()

    def leaves(self) -> list["NodeResult"]:
        out: list[NodeResult] = []
        stack = [self]
        while stack:
            cur = stack.pop()
            if cur.outcome is not None:
                out.append(cur)
            stack.extend(reversed(cur.children))
        return out

    def leaves_holding(self) -> int:
        """How many leaf conditions pull towards a match: +1 under an even number of NOTs, -1 under an odd number."""
        count = 0
        stack: list[tuple[NodeResult, int]] = [(self, 1)]
        while stack:
            cur, sign = stack.pop()
            if cur.outcome is not None:
                count += cur.value * sign == 1
                continue
            child_sign = -sign if cur.op == "NOT" else sign
            stack.extend((c, child_sign) for c in cur.children)
        return count

    def to_dict(self) -> dict[str, Any]:
        if self.op is not None:
            return {"pointer": self.pointer, "op": self.op, "value": self.value,
                    "args": [c.to_dict() for c in self.children]}
        assert self.outcome is not None
        return {"pointer": self.pointer, "aspect": self.aspect, "value": self.value, "condition": self.description,
                "rule": self.outcome.rule, "evidence": self.outcome.evidence}


@dataclass(frozen=True)
class RankedRestaurant:
    """A restaurant with its root value and how many leaf conditions hold (for ``match --all``); a leaf under NOT
    holds when it is -1."""

    restaurant: Restaurant
    value: int
    leaves_true: int
    n_leaves: int
    tree: NodeResult = field(repr=False)


@dataclass(frozen=True)
class _Leaf:
    key: str
    pointer: str
    aspect: str
    cost: int


@dataclass(frozen=True)
class _Op:
    op: str
    args: tuple["_Leaf | _Op", ...]
    cost: int


def evidence_key(cond: Condition) -> str:
    """Canonical text of a condition's evidence: equal evidence is evaluated once per restaurant."""
    return json.dumps(cond.evidence.model_dump(mode="json"), sort_keys=True)


class Engine:
    """Evaluates requests over one dataset, sharing work across requests."""

    def __init__(
        self,
        dataset: Dataset,
        *,
        regex_timeout_s: float = REGEX_TIMEOUT_S,
        regex_request_budget_s: float = REGEX_REQUEST_BUDGET_S,
        regex_run_budget_s: float = REGEX_RUN_BUDGET_S,
    ) -> None:
        self.dataset = dataset
        self.index = ReviewIndex(dataset, RegexBudget(regex_timeout_s, regex_request_budget_s, regex_run_budget_s))
        self._evaluators: dict[str, Any] = {}
        self._outcomes: dict[tuple[str, int], ConditionOutcome] = {}

    # -- conditions ------------------------------------------------------------------------------------------------
    def _evaluator(self, key: str, cond: Condition) -> Any:
        ev = self._evaluators.get(key)
        if ev is None:
            ev = make_evaluator(cond.evidence)
            self._evaluators[key] = ev
        return ev

    def _evaluate_leaf(self, key: str, request_id: str, pointer: str, aspect: str, r: Restaurant) -> ConditionOutcome:
        self.index.budget.account = request_id  # regex work is charged to the request that first needs it
        try:
            return self._evaluators[key].evaluate(r, self.index)
        except RegexBudgetExceeded as exc:
            raise EvaluationError(
                f"pattern {exc.pattern!r} stopped on review {exc.review_id} of restaurant {r.business_id}: {exc.why}; "
                "use a simpler pattern",
                f"request {request_id} {pointer} ({aspect})",
            ) from None

    def _outcome(self, key: str, request_id: str, pointer: str, aspect: str, r: Restaurant) -> ConditionOutcome:
        """A condition's full outcome for explanations (cached per condition and restaurant)."""
        got = self._outcomes.get((key, r.index))
        if got is None:
            got = self._evaluate_leaf(key, request_id, pointer, aspect, r)
            self._outcomes[(key, r.index)] = got
        return got

    def _plan(self, node: OperatorNode | Condition, pointer: str) -> _Op | _Leaf:
        if isinstance(node, Condition):
            key = evidence_key(node)
            ev = self._evaluator(key, node)
            return _Leaf(key, pointer, node.aspect, ev.cost)
        args = [self._plan(a, f"{pointer}/args/{i}") for i, a in enumerate(node.args)]
        args.sort(key=lambda a: a.cost)
        return _Op(node.op, tuple(args), max(a.cost for a in args))

    # -- values ----------------------------------------------------------------------------------------------------
    def _value(self, plan: _Op | _Leaf, request_id: str, r: Restaurant, memo: dict[str, int]) -> int:
        if isinstance(plan, _Leaf):
            v = memo.get(plan.key)
            if v is None:
                v = self._evaluate_leaf(plan.key, request_id, plan.pointer, plan.aspect, r).value
                memo[plan.key] = v
            return v
        if plan.op == "NOT":
            return logic.not_(self._value(plan.args[0], request_id, r, memo))
        stop = logic.FALSE if plan.op == "AND" else logic.TRUE
        saw_unknown = False
        for a in plan.args:
            v = self._value(a, request_id, r, memo)
            if v == stop:
                return stop
            if v == logic.UNKNOWN:
                saw_unknown = True
        return logic.UNKNOWN if saw_unknown else -stop

    def value(self, request: Request, restaurant: Restaurant) -> int:
        """The root value of ``request`` for one restaurant (+1 means it matches)."""
        return self._value(self._plan(request.structure, "/structure"), request.id, restaurant, {})

    def matches(self, request: Request) -> list[Restaurant]:
        """Restaurants whose root value is exactly +1, in dataset order."""
        return self.match_all([request])[request.id]

    def match_all(self, requests: Sequence[Request]) -> dict[str, list[Restaurant]]:
        """For every request id, the restaurants whose root value is exactly +1, in dataset order.

        Restaurant-major: each restaurant is evaluated against every request, with one value per distinct condition
        shared by all requests, and then its caches are dropped, so memory stays bounded and time grows linearly with
        the number of restaurants.
        """
        plans = [(q, self._plan(q.structure, "/structure")) for q in requests]
        out: dict[str, list[Restaurant]] = {q.id: [] for q in requests}
        for r in self.dataset.restaurants:
            memo: dict[str, int] = {}
            for q, plan in plans:
                if self._value(plan, q.id, r, memo) == logic.TRUE:
                    out[q.id].append(r)
            self.index.forget(r)
        return out

    # -- explanations ----------------------------------------------------------------------------------------------
    def explain(self, request: Request, restaurant: Restaurant) -> NodeResult:
        """Evaluate every node (no short-circuit) and return the tree with each condition's evidence."""
        return self._explain(request.structure, "/structure", request.id, restaurant)

    def _explain(self, node: OperatorNode | Condition, pointer: str, rid: str, r: Restaurant) -> NodeResult:
        if isinstance(node, Condition):
            key = evidence_key(node)
            ev = self._evaluator(key, node)
            out = self._outcome(key, rid, pointer, node.aspect, r)
            return NodeResult(pointer, out.value, aspect=node.aspect, description=ev.describe(), outcome=out)
        kids = tuple(self._explain(a, f"{pointer}/args/{i}", rid, r) for i, a in enumerate(node.args))
        values = [k.value for k in kids]
        if node.op == "AND":
            v = logic.and_(values)
        elif node.op == "OR":
            v = logic.or_(values)
        else:
            v = logic.not_(values[0])
        return NodeResult(pointer, v, op=node.op, children=kids)

    def rank(self, request: Request) -> list[RankedRestaurant]:
        """Every restaurant, best first: by root value, then by the number of leaf conditions that hold, then order."""
        out = []
        for r in self.dataset.restaurants:
            tree = self.explain(request, r)
            out.append(RankedRestaurant(r, tree.value, tree.leaves_holding(), len(tree.leaves()), tree))
        out.sort(key=lambda x: (-x.value, -x.leaves_true, x.restaurant.index))
        return out
