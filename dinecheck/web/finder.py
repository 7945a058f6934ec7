"""Search for the web layer: a thin adapter over :func:`dinecheck.search.search` (request match ⋈ allergy evidence),
returning ``dinecheck search --json``'s objects plus what a result card shows (address, stars, hours in words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dinecheck.requests import Engine, Request
from dinecheck.search import EvidenceSource
from dinecheck.search import search as core_search


def search(engine: Engine, evidence: EvidenceSource, request: Request | None, allergens: Sequence[str], *,
           limit: int, near: bool = False) -> list[dict[str, Any]]:
    """Ranked results as the ``search --json`` lines (``business_id, name, rank, request_value, conditions,
    allergy``) — the contract, nothing added."""
    return [r.to_json() for r in core_search(engine.dataset, request=request, allergens=allergens, evidence=evidence,
                                             near=near, limit=limit, engine=engine)]


def cards(engine: Engine, evidence: EvidenceSource, request: Request | None, allergens: Sequence[str], *,
          limit: int) -> list[dict[str, Any]]:
    """The same ranking for the *find a place* page: each contract object with ``address, stars, hours,
    categories``."""
    out = []
    for r in core_search(engine.dataset, request=request, allergens=allergens, evidence=evidence, limit=limit,
                         engine=engine):
        out.append({**r.to_json(), "address": r.address, "stars": r.stars, "hours": r.hours,
                    "categories": r.categories})
    return out
