"""Typed, immutable models of a restaurant dataset (Yelp business and review objects).

Each model keeps the typed fields the engines use plus ``raw``, the original JSON object, so that request evidence can
follow arbitrary paths (``["attributes", "Ambience"]``, ``["user", "review_count"]``) exactly as the data has them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ReviewUser:
    """The author of a review, as embedded in the review object.

    ``user_id`` is present in data imported from the Yelp Open Dataset (``dinecheck import yelp``); there ``friends``
    holds Yelp user ids, because display names are not unique. The benchmark data has names only.
    """

    name: str | None = None
    review_count: int | None = None
    fans: int | None = None
    elite: tuple[str, ...] = ()
    average_stars: float | None = None
    friends: tuple[str, ...] = ()
    user_id: str | None = None

    @property
    def social_id(self) -> str | None:
        """The identity the social filter uses: the Yelp ``user_id`` when the data has one, else ``name``."""
        return self.user_id if self.user_id else self.name


@dataclass(frozen=True, slots=True)
class Review:
    """One review of a restaurant."""

    review_id: str
    business_id: str
    text: str
    stars: float | None
    useful: int | None
    date: str | None
    user: ReviewUser
    raw: dict[str, Any] = field(repr=False, compare=False, hash=False)

    @property
    def year(self) -> int | None:
        """The year of ``date`` (``YYYY-…``), or None when there is no usable date."""
        if self.date and len(self.date) >= 4 and self.date[:4].isdigit():
            return int(self.date[:4])
        return None


@dataclass(frozen=True, slots=True)
class Restaurant:
    """One restaurant (a Yelp business object); ``index`` is its position in the dataset file."""

    business_id: str
    name: str
    index: int
    categories: str | None
    attributes: dict[str, Any]
    hours: dict[str, Any]
    raw: dict[str, Any] = field(repr=False, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Dataset:
    """Restaurants in file order, their reviews (in file order) and the reviewers' friend graph.

    ``reviews`` maps business_id → reviews: a dict when the dataset was loaded whole, or a lazy mapping that reads one
    restaurant's reviews on demand (:mod:`dinecheck.dataset.parquet`, :mod:`dinecheck.dataset.jsonl_index`); engines
    visit restaurants one at a time, so either works.
    """

    restaurants: tuple[Restaurant, ...]
    reviews: Mapping[str, tuple[Review, ...]]  # business_id -> reviews
    social: SocialGraph
    source: str | None = None

    _by_id: dict[str, Restaurant] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {r.business_id: r for r in self.restaurants})

    def reviews_of(self, business_id: str) -> tuple[Review, ...]:
        return self.reviews.get(business_id, ())

    def restaurant(self, business_id: str) -> Restaurant | None:
        """The restaurant with this id, or None (constant time)."""
        return self._by_id.get(business_id)

    @property
    def n_reviews(self) -> int:
        total = getattr(self.reviews, "total", None)  # lazy mappings know it without reading reviews
        return total if isinstance(total, int) else sum(len(v) for v in self.reviews.values())

    @property
    def streamed(self) -> bool:
        """True when reviews are read per restaurant on demand rather than held in memory."""
        return not isinstance(self.reviews, dict)


class LazyReviews(Mapping[str, tuple[Review, ...]]):
    """Base of the on-demand review mappings: ``business_id -> reviews`` read by :meth:`_read` from storage, the
    restaurant asked for last kept decoded (engines ask for the same restaurant many times in a row), and review
    counts known without reading (``count``, ``total``)."""

    def __init__(self, counts: dict[str, int]) -> None:
        self._counts = counts
        self.total = sum(counts.values())
        self._last: tuple[str, tuple[Review, ...]] | None = None

    def _read(self, business_id: str) -> tuple[Review, ...]:
        raise NotImplementedError

    def __getitem__(self, business_id: str) -> tuple[Review, ...]:
        if self._last is not None and self._last[0] == business_id:
            return self._last[1]
        if business_id not in self._counts:
            raise KeyError(business_id)
        got = self._read(business_id) if self._counts[business_id] else ()
        self._last = (business_id, got)
        return got

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def count(self, business_id: str) -> int:
        """How many reviews a restaurant has, without reading them."""
        return self._counts.get(business_id, 0)


from dinecheck.dataset.social import SocialGraph  # noqa: E402  (forward reference target)
