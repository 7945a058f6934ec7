"""Search for the web layer: a thin adapter over :func:`dinecheck.search.search` (request match ⋈ allergy evidence),
returning ``dinecheck search --json``'s objects, or those plus what a result card shows (address, stars, hours).
Answers are remembered per (request, profile, limit, near) in the state's result cache."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from dinecheck.requests import Request
from dinecheck.search import SearchResult
from dinecheck.search import search as core_search
from dinecheck.web.state import AppState


def _key(request: Request | None, allergens: Sequence[str], limit: int, near: bool) -> tuple[Any, ...]:
    structure = None if request is None else json.dumps(request.structure.model_dump(mode="json"), sort_keys=True)
    return ("search", structure, tuple(allergens), limit, near)


def ranked(st: AppState, request: Request | None, allergens: Sequence[str], *, limit: int,
           near: bool = False) -> list[SearchResult]:
    key = _key(request, allergens, limit, near)

    def compute() -> list[SearchResult]:
        with st.engine_locked() as engine:
            done = st.results.peek(key)  # another request may have computed it while this one waited
            if done is not None:
                return done
            return core_search(engine.dataset, request=request, allergens=allergens, evidence=st.evidence, near=near,
                               limit=limit, engine=engine)

    out: list[SearchResult] = st.results.get_or_compute(key, compute)
    return out


def search(st: AppState, request: Request | None, allergens: Sequence[str], *, limit: int,
           near: bool = False) -> list[dict[str, Any]]:
    """The ``search --json`` lines (``business_id, name, rank, request_value, conditions, allergy``), nothing added."""
    return [r.to_json() for r in ranked(st, request, allergens, limit=limit, near=near)]


def cards(st: AppState, request: Request | None, allergens: Sequence[str], *, limit: int) -> list[dict[str, Any]]:
    """The same ranking for the *find a place* page: each contract object with ``address, stars, hours,
    categories``."""
    return [{**r.to_json(), "address": r.address, "stars": r.stars, "hours": r.hours, "categories": r.categories}
            for r in ranked(st, request, allergens, limit=limit)]
