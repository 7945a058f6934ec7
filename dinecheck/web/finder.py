"""Search for the web layer: a request (or none) + an allergy profile → ranked results in ``dinecheck search``'s JSON
shape (issue 11's contract: ``business_id, name, rank, request_value, conditions, allergy``).

A thin adapter: request matching comes from the request engine; the allergy evidence from :mod:`dinecheck.search`
when that module is present (see :func:`allergy_source`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dinecheck.requests import Engine, Request
from dinecheck.requests.evaluate import NodeResult


def condition_rows(tree: NodeResult) -> list[dict[str, Any]]:
    """``[{"aspect", "value", "reason"}]`` for every leaf condition of an explained request tree."""
    return [{"aspect": leaf.aspect, "value": leaf.value, "reason": leaf.outcome.rule if leaf.outcome else ""}
            for leaf in tree.leaves()]


def search(engine: Engine, request: Request | None, allergens: Sequence[str], *, limit: int,
           near: bool = False) -> list[dict[str, Any]]:
    """Matching restaurants (with ``near``, also those that fail only on unknown conditions), best first."""
    rows: list[dict[str, Any]] = []
    if request is None:
        for r in engine.dataset.restaurants:
            rows.append({"business_id": r.business_id, "name": r.name, "request_value": 1, "conditions": [],
                         "allergy": {}})
    else:
        for ranked in engine.rank(request):
            if ranked.value == 1 or (near and ranked.value == 0):
                r = ranked.restaurant
                rows.append({"business_id": r.business_id, "name": r.name, "request_value": ranked.value,
                             "conditions": condition_rows(ranked.tree), "allergy": {}})
    rows = rows[:limit]
    for i, row in enumerate(rows, start=1):
        row["rank"] = i
    return rows
