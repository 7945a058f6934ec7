"""Fixtures for request-engine tests: in-memory datasets and requests built from plain dicts."""

from __future__ import annotations

from typing import Any

import pytest

from dinecheck.dataset import Dataset, Restaurant, SocialGraph
from dinecheck.dataset.loader import review_from_obj
from dinecheck.requests import Engine, parse_request


def build_dataset(restaurants: list[dict[str, Any]], reviews: list[dict[str, Any]] = (),
                  graph: dict[str, list[str]] | None = None) -> Dataset:
    rs = tuple(
        Restaurant(business_id=r["business_id"], name=r.get("name", r["business_id"]), index=i,
                   categories=r.get("categories"), attributes=r.get("attributes") or {}, hours=r.get("hours") or {},
                   raw=r)
        for i, r in enumerate(restaurants)
    )
    revs: dict[str, list] = {r.business_id: [] for r in rs}
    for i, rv in enumerate(reviews):
        obj = {"review_id": f"rv{i}", **rv}
        revs[obj["business_id"]].append(review_from_obj(obj, f"test:{i}"))
    return Dataset(restaurants=rs, reviews={k: tuple(v) for k, v in revs.items()}, social=SocialGraph(graph or {}))


def one_condition(evidence: dict[str, Any], rid: str = "T1") -> Any:
    return parse_request({"id": rid, "structure": {"op": "AND", "args": [{"aspect": "c", "evidence": evidence}]}})


def outcome(ds: Dataset, evidence: dict[str, Any], business_id: str | None = None):
    """The outcome of one condition for one restaurant (the first when not named)."""
    req = one_condition(evidence)
    r = ds.restaurant(business_id) if business_id else ds.restaurants[0]
    tree = Engine(ds).explain(req, r)
    return tree.children[0].outcome


@pytest.fixture
def build():
    return build_dataset


@pytest.fixture
def evaluate_one():
    return outcome
