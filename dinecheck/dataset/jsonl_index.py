"""Reviews of a JSONL ``reviews.jsonl`` read one restaurant at a time, through a byte-offset index.

:func:`index_reviews` reads the file once, checks every line exactly as the in-memory loader does (bad lines, duplicate
review ids, reviews of unknown restaurants) and keeps, per restaurant, only the byte offsets of its lines (an
``array('q')``), plus the reviewers' friend lists for the social graph. :class:`JsonlReviews` then serves
``business_id -> reviews`` by seeking to those offsets; only the restaurant asked for last is kept decoded.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from pathlib import Path

from dinecheck.dataset.loader import MAX_LINE_BYTES, checked_reviews, review_from_obj
from dinecheck.dataset.models import LazyReviews, Restaurant, Review
from dinecheck.errors import DataError
from dinecheck.files import loads_json


class JsonlReviews(LazyReviews):
    """``business_id -> reviews`` read on demand from ``reviews.jsonl`` at indexed byte offsets."""

    def __init__(self, path: Path, offsets: dict[str, array]) -> None:
        super().__init__({k: len(v) for k, v in offsets.items()})
        self._path = path
        self._offsets = offsets

    def _read(self, business_id: str) -> tuple[Review, ...]:
        out = []
        with self._path.open("rb") as fh:
            for off in self._offsets[business_id]:
                fh.seek(off)
                raw = fh.readline(MAX_LINE_BYTES + 1)
                loc = f"{self._path}:@{off}"
                try:
                    obj = loads_json(raw)
                except (ValueError, UnicodeDecodeError):
                    raise DataError("the file changed since it was indexed (invalid JSON)", loc) from None
                out.append(review_from_obj(obj, loc))
        return tuple(out)


def index_reviews(path: Path, restaurants: list[Restaurant],
                  problem: Callable[[DataError], None]) -> tuple[JsonlReviews, dict[str, set[str]]]:
    """One checked pass over ``path``: per-restaurant line offsets and every reviewer's friend list."""
    offsets: dict[str, array] = {r.business_id: array("q") for r in restaurants}
    friends: dict[str, set[str]] = {}
    for start, rv in checked_reviews(path, offsets.keys(), problem):
        offsets[rv.business_id].append(start)
        who = rv.user.social_id
        if who and rv.user.friends:
            friends.setdefault(who, set()).update(rv.user.friends)
    return JsonlReviews(path, offsets), friends
