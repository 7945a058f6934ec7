"""Reviews of a JSONL ``reviews.jsonl`` read one restaurant at a time, through a byte-offset index.

:func:`index_reviews` reads the file once, checks every line exactly as the in-memory loader does (bad lines, duplicate
review ids, reviews of unknown restaurants) and keeps, per restaurant, only the byte offsets of its lines (an
``array('q')``), plus the reviewers' friend lists for the social graph. :class:`JsonlReviews` then serves
``business_id -> reviews`` by seeking to those offsets; only the restaurant asked for last is kept decoded.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from dinecheck.dataset.loader import MAX_LINE_BYTES, iter_jsonl_offsets, review_from_obj
from dinecheck.dataset.models import Restaurant, Review
from dinecheck.errors import DataError


class JsonlReviews(Mapping[str, tuple[Review, ...]]):
    """``business_id -> reviews`` read on demand from ``reviews.jsonl`` at indexed byte offsets."""

    def __init__(self, path: Path, offsets: dict[str, array]) -> None:
        self._path = path
        self._offsets = offsets
        self._last: tuple[str, tuple[Review, ...]] | None = None
        self.total = sum(len(v) for v in offsets.values())

    def __getitem__(self, business_id: str) -> tuple[Review, ...]:
        offs = self._offsets[business_id]
        if self._last is not None and self._last[0] == business_id:
            return self._last[1]
        out = []
        with self._path.open("rb") as fh:
            for off in offs:
                fh.seek(off)
                raw = fh.readline(MAX_LINE_BYTES + 1)
                loc = f"{self._path}:@{off}"
                try:
                    obj = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    raise DataError("the file changed since it was indexed (invalid JSON)", loc) from None
                out.append(review_from_obj(obj, loc))
        got = tuple(out)
        self._last = (business_id, got)
        return got

    def __iter__(self) -> Iterator[str]:
        return iter(self._offsets)

    def __len__(self) -> int:
        return len(self._offsets)

    def count(self, business_id: str) -> int:
        """How many reviews a restaurant has, without reading them."""
        offs = self._offsets.get(business_id)
        return len(offs) if offs is not None else 0


def index_reviews(path: Path, restaurants: list[Restaurant],
                  problem: Callable[[DataError], None]) -> tuple[JsonlReviews, dict[str, set[str]]]:
    """One checked pass over ``path``: per-restaurant line offsets and every reviewer's friend list."""
    offsets: dict[str, array] = {r.business_id: array("q") for r in restaurants}
    seen: dict[str, int] = {}
    friends: dict[str, set[str]] = {}
    for lineno, start, obj in iter_jsonl_offsets(path):
        if isinstance(obj, DataError):
            problem(obj)
            continue
        loc = f"{path}:{lineno}"
        try:
            rv = review_from_obj(obj, loc)
        except DataError as err:
            problem(err)
            continue
        if rv.review_id in seen:
            problem(DataError(f"duplicate review_id {rv.review_id!r} (first at line {seen[rv.review_id]})", loc))
            continue
        target = offsets.get(rv.business_id)
        if target is None:
            problem(DataError(f"review of unknown restaurant {rv.business_id!r}", loc))
            continue
        seen[rv.review_id] = lineno
        target.append(start)
        who = rv.user.social_id
        if who and rv.user.friends:
            friends.setdefault(who, set()).update(rv.user.friends)
    return JsonlReviews(path, offsets), friends
