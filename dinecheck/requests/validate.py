"""Validation of a request set against a dataset: the status of every request (evidence_semantics.md §1).

``ok`` when exactly the gold restaurant matches; ``no_match`` when nothing matches; ``multi_match`` when two or more
match including the gold; ``gold_not_match`` when others match but not the gold. A request without a gold id (a new
request being written) is ``unique`` when exactly one restaurant matches, ``multi_match`` when several do, ``no_match``
when none does; it is never ``ok`` or ``gold_not_match``. Each result also carries warnings: shorthand that disagrees with the structure, a gold id not in the dataset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dinecheck.errors import DataError
from dinecheck.requests import shorthand
from dinecheck.requests.evaluate import Engine
from dinecheck.requests.schema import Request

STATUSES = ("ok", "no_match", "multi_match", "gold_not_match")
"""Statuses of requests with a gold restaurant."""
NO_GOLD_STATUSES = ("unique", "no_match", "multi_match")
"""Statuses of requests without a gold restaurant."""
ALL_STATUSES = ("ok", "unique", "no_match", "multi_match", "gold_not_match")
SUCCESS_STATUSES = frozenset({"ok", "unique"})
"""Statuses that count as success (``validate`` exits 0 when every request has one)."""


def status_of(matches: Sequence[str], gold: str | None) -> str:
    """The validation status for the matching ids and the gold id (None: no gold given)."""
    if not matches:
        return "no_match"
    if gold is None:
        return "unique" if len(matches) == 1 else "multi_match"
    if gold is not None and gold in matches:
        return "ok" if len(matches) == 1 else "multi_match"
    return "gold_not_match"


@dataclass(frozen=True)
class RequestValidation:
    """The outcome of validating one request."""

    request_id: str
    group: str | None
    status: str
    matches: tuple[str, ...]
    gold_restaurant: str | None
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Exactly the fields of the CLI contract."""
        return {"request_id": self.request_id, "group": self.group, "status": self.status,
                "matches": list(self.matches), "gold_restaurant": self.gold_restaurant}


def validate_requests(engine: Engine, requests: Sequence[Request],
                      groundtruth: Mapping[str, str] | None = None) -> list[RequestValidation]:
    """Validate every request; with ``groundtruth`` the gold comes from it (every request must be listed)."""
    ids = {r.business_id for r in engine.dataset.restaurants}
    matched = engine.match_all(requests)
    out = []
    for req in requests:
        if groundtruth is not None:
            if req.id not in groundtruth:
                raise DataError(f"the groundtruth has no entry for request {req.id}", "--groundtruth")
            gold: str | None = groundtruth[req.id]
        else:
            gold = req.gold_restaurant
        matches = tuple(r.business_id for r in matched[req.id])
        warnings: list[str] = []
        if req.shorthand is not None:
            warnings += [f"shorthand: {w}" for w in shorthand.compare(req.shorthand, req.structure)]
        if gold is not None and gold not in ids:
            warnings.append(f"gold restaurant {gold} is not in the dataset")
        out.append(RequestValidation(req.id, req.group, status_of(matches, gold), matches, gold, tuple(warnings)))
    return out


def summary_by_group(results: Sequence[RequestValidation]) -> dict[str, Counter[str]]:
    """Status counts per group (in order of first appearance)."""
    groups: dict[str, Counter[str]] = {}
    for r in results:
        groups.setdefault(r.group or "-", Counter())[r.status] += 1
    return groups
