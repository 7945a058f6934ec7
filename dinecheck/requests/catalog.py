"""The catalog of a dataset: what a request can ask about, with counts (what request writers, the lint and the web app
read instead of ``restaurants.jsonl``).

:func:`build_catalog` is a pure function from a loaded :class:`~dinecheck.dataset.Dataset` to a :class:`Catalog`:

* every attribute path (``attributes → WiFi``, and inside decoded dicts ``attributes → Ambience → hipster``) with its
  decoded values (evidence_semantics.md §2) and how many restaurants have each, plus a plain-words label;
* other top-level business fields (``stars``, ``categories``, …) with how many restaurants have them;
* categories (the comma-separated ``categories`` text) with counts;
* opening-hours coverage per day: restaurants open that day, earliest opening, latest closing, malformed windows;
* review-metadata fields (``stars``, ``useful``, ``user → review_count``, ``user → elite``, ``date``, …) with ranges;
* reviewers (the social identity the social filter uses) with review counts, and the friend graph's size.

Values are decoded exactly as evaluation decodes them, so "never seen" in the catalog means "never true" there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dinecheck.dataset import Dataset
from dinecheck.requests.decode import MISSING, decode_value
from dinecheck.requests.evidence import parse_window
from dinecheck.requests.labels import attribute_label, words

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MAX_ATTRIBUTE_DEPTH = 4
"""Deepest attribute path listed (``attributes`` → key → sub-key → …); deeper dicts are listed as values."""
_IDENTITY_REVIEW_KEYS = frozenset({"review_id", "business_id", "text", "name", "user_id", "friends"})


def jsonable(value: Any) -> Any:
    """A decoded value in JSON form: lists/tuples/sets as lists, dicts with text keys, anything exotic as its repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=repr)
    return repr(value)


def value_kind(values: Iterable[Any]) -> str:
    """``boolean`` / ``number`` / ``text`` / ``dict`` / ``list`` when every value is of that kind, else ``mixed``."""
    kinds = set()
    for v in values:
        if isinstance(v, bool):
            kinds.add("boolean")
        elif isinstance(v, (int, float)):
            kinds.add("number")
        elif isinstance(v, str):
            kinds.add("text")
        elif isinstance(v, Mapping):
            kinds.add("dict")
        elif isinstance(v, (list, tuple, set, frozenset)):
            kinds.add("list")
        else:
            kinds.add("other")
    if not kinds:
        return "none"
    return kinds.pop() if len(kinds) == 1 else "mixed"


@dataclass(frozen=True)
class ValueCount:
    """One decoded value of an attribute and the number of restaurants that have it."""

    value: Any
    count: int

    @property
    def text(self) -> str:
        """Display form: strings as they are, everything else in Python's rendering (``True``, ``{'a': 1}``)."""
        return self.value if isinstance(self.value, str) else repr(self.value)

    def to_json(self) -> dict[str, Any]:
        return {"value": jsonable(self.value), "text": self.text, "count": self.count}


@dataclass(frozen=True)
class AttributeInfo:
    """One attribute path: ``key`` is dotted below ``attributes`` (``Ambience.hipster``), ``path`` the evidence path
    (``("attributes", "Ambience", "hipster")``). ``values`` are most frequent first; ``n_present`` restaurants have a
    value (not absent, not ``"None"``), ``n_missing`` do not. ``children`` are the sub-keys of a dict attribute."""

    key: str
    path: tuple[str, ...]
    label: str
    kind: str
    values: tuple[ValueCount, ...]
    n_present: int
    n_missing: int
    children: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "path": list(self.path), "label": self.label, "kind": self.kind,
                "n_present": self.n_present, "n_missing": self.n_missing,
                "values": [v.to_json() for v in self.values], "children": list(self.children)}


@dataclass(frozen=True)
class NameCount:
    """A name and a count: a top-level business field and how many restaurants have it (non-null), or a category and
    how many restaurants list it."""

    name: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "count": self.count}


FieldCount = NameCount
CategoryCount = NameCount


def _hm(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60}"


@dataclass(frozen=True)
class HoursCoverage:
    """Opening hours of one day: restaurants with a well-formed window, without one, with a malformed one; the earliest
    opening and latest closing (minutes since midnight; a closing past midnight is above 1440)."""

    day: str
    n_open: int
    n_missing: int
    n_malformed: int
    earliest_open: int | None
    latest_close: int | None

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day, "n_open": self.n_open, "n_missing": self.n_missing, "n_malformed": self.n_malformed,
                "earliest_open": None if self.earliest_open is None else _hm(self.earliest_open),
                "latest_close": None if self.latest_close is None else _hm(self.latest_close % 1440),
                "earliest_open_minutes": self.earliest_open, "latest_close_minutes": self.latest_close}


@dataclass(frozen=True)
class ReviewField:
    """A review-metadata field usable as ``review_meta.path`` / ``weight_by.field``. ``kind``: ``number`` (range of
    values), ``list`` (range of the number of non-empty, non-``"None"`` entries, as credibility counts them) or
    ``date`` (earliest and latest text)."""

    key: str
    path: tuple[str, ...]
    label: str
    kind: str
    n_present: int
    min: float | str | None
    max: float | str | None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "path": list(self.path), "label": self.label, "kind": self.kind,
                "n_present": self.n_present, "min": self.min, "max": self.max}


@dataclass(frozen=True)
class ReviewerCount:
    """A reviewer (the identity the social filter compares: user id for imported data, else the name), the number of
    reviews written, and the number of friends in the friend graph."""

    name: str
    n_reviews: int
    n_friends: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "n_reviews": self.n_reviews, "n_friends": self.n_friends}


@dataclass(frozen=True)
class Catalog:
    """Everything a request can refer to in one dataset, with counts. Build it with :func:`build_catalog`."""

    source: str | None
    n_restaurants: int
    n_reviews: int
    attributes: tuple[AttributeInfo, ...]
    fields: tuple[FieldCount, ...]
    categories: tuple[CategoryCount, ...]
    hours: tuple[HoursCoverage, ...]
    review_fields: tuple[ReviewField, ...]
    reviewers: tuple[ReviewerCount, ...]
    friend_graph_people: int
    friend_graph_edges: int
    _by_path: dict[tuple[str, ...], AttributeInfo] = field(init=False, repr=False, compare=False, hash=False)
    _review_by_path: dict[tuple[str, ...], ReviewField] = field(init=False, repr=False, compare=False, hash=False)
    _people: frozenset[str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_path", {a.path: a for a in self.attributes})
        object.__setattr__(self, "_review_by_path", {f.path: f for f in self.review_fields})
        object.__setattr__(self, "_people", frozenset(r.name for r in self.reviewers))

    def attribute(self, path: Sequence[str] | str) -> AttributeInfo | None:
        """The attribute at an evidence path (``["attributes", "WiFi"]``) or dotted key (``"Ambience.hipster"``)."""
        if isinstance(path, str):
            path = ("attributes", *path.split("."))
        return self._by_path.get(tuple(path))

    def review_field(self, path: Sequence[str]) -> ReviewField | None:
        """The review-metadata field at a path (``["user", "fans"]``)."""
        return self._review_by_path.get(tuple(path))

    def has_field(self, name: str) -> bool:
        """Whether some restaurant has this top-level business field."""
        return any(f.name == name for f in self.fields)

    def knows_person(self, name: str) -> bool:
        """Whether ``name`` is a reviewer or a person in the friend graph."""
        return name in self._people

    @property
    def people(self) -> frozenset[str]:
        """Every reviewer identity and every person of the friend graph."""
        return self._people

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "n_restaurants": self.n_restaurants,
            "n_reviews": self.n_reviews,
            "attributes": [a.to_json() for a in self.attributes],
            "fields": [f.to_json() for f in self.fields],
            "categories": [c.to_json() for c in self.categories],
            "hours": [h.to_json() for h in self.hours],
            "review_fields": [f.to_json() for f in self.review_fields],
            "reviewers": [r.to_json() for r in self.reviewers],
            "friend_graph": {"people": self.friend_graph_people, "edges": self.friend_graph_edges},
        }


class _ValueTally:
    """Counts of decoded values at one path (values may be unhashable: keyed by type and rendering)."""

    __slots__ = ("counts", "first", "present")

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self.first: dict[tuple[str, str], Any] = {}
        self.present = 0

    def add(self, value: Any) -> None:
        key = (type(value).__name__, repr(value))
        self.counts[key] += 1
        self.first.setdefault(key, value)
        self.present += 1


def _walk_attributes(attrs: Mapping[str, Any], prefix: tuple[str, ...], tallies: dict[tuple[str, ...], _ValueTally],
                     children: dict[tuple[str, ...], set[str]]) -> None:
    for key, raw in attrs.items():
        path = (*prefix, str(key))
        tallies.setdefault(path, _ValueTally())
        value = decode_value(raw)
        if value is MISSING:
            continue
        tallies[path].add(value)
        if isinstance(value, Mapping) and len(path) < MAX_ATTRIBUTE_DEPTH:
            children.setdefault(path, set()).update(str(k) for k in value)
            _walk_attributes(value, path, tallies, children)


def _attributes(ds: Dataset) -> tuple[AttributeInfo, ...]:
    tallies: dict[tuple[str, ...], _ValueTally] = {}
    children: dict[tuple[str, ...], set[str]] = {}
    for r in ds.restaurants:
        _walk_attributes(r.attributes, ("attributes",), tallies, children)
    n = len(ds.restaurants)
    out = []
    for path in sorted(tallies):
        t = tallies[path]
        values = sorted((ValueCount(t.first[k], c) for k, c in t.counts.items()), key=lambda v: (-v.count, v.text))
        out.append(AttributeInfo(
            key=".".join(path[1:]), path=path, label=attribute_label(path),
            kind=value_kind(v.value for v in values), values=tuple(values),
            n_present=t.present, n_missing=n - t.present, children=tuple(sorted(children.get(path, ()))),
        ))
    return tuple(out)


def _fields(ds: Dataset) -> tuple[FieldCount, ...]:
    counts: Counter[str] = Counter()
    for r in ds.restaurants:
        counts.update(k for k, v in r.raw.items() if v is not None)
    return tuple(FieldCount(k, counts[k]) for k in sorted(counts))


def _categories(ds: Dataset) -> tuple[CategoryCount, ...]:
    counts: Counter[str] = Counter()
    for r in ds.restaurants:
        if r.categories:
            counts.update({c.strip() for c in r.categories.split(",") if c.strip()})
    return tuple(CategoryCount(k, c) for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _hours(ds: Dataset) -> tuple[HoursCoverage, ...]:
    days = list(DAYS) + sorted({str(d) for r in ds.restaurants for d in r.hours} - set(DAYS))
    out = []
    for day in days:
        n_open = n_missing = n_bad = 0
        opens: list[int] = []
        closes: list[int] = []
        for r in ds.restaurants:
            raw = r.hours.get(day)
            value = decode_value(raw) if raw is not None else MISSING
            if value is MISSING or value == "":
                n_missing += 1
                continue
            window = parse_window(value)
            if window is None:
                n_bad += 1
                continue
            n_open += 1
            opens.append(window[0])
            closes.append(window[1])
        out.append(HoursCoverage(day, n_open, n_missing, n_bad, min(opens) if opens else None,
                                 max(closes) if closes else None))
    return tuple(out)


def _entries(value: list[Any] | tuple[Any, ...]) -> int:
    return sum(1 for x in value if x not in ("", None, "None"))


class _Range:
    """Count, smallest and largest value of one review field, kept as the reviews stream by (no list of values)."""

    __slots__ = ("n", "lo", "hi")

    def __init__(self, first: Any) -> None:
        self.n, self.lo, self.hi = 1, first, first

    def add(self, v: Any) -> None:
        self.n += 1
        if v < self.lo:
            self.lo = v
        elif v > self.hi:
            self.hi = v


def _review_fields(ds: Dataset) -> tuple[ReviewField, ...]:
    ranges: dict[tuple[str, tuple[str, ...]], _Range] = {}  # (kind, path) -> count and range

    def note(kind: str, path: tuple[str, ...], v: Any) -> None:
        got = ranges.get((kind, path))
        if got is None:
            ranges[(kind, path)] = _Range(v)
        else:
            got.add(v)

    def visit(obj: Mapping[str, Any], prefix: tuple[str, ...]) -> None:
        for key, v in obj.items():
            path = (*prefix, str(key))
            if key in _IDENTITY_REVIEW_KEYS or v is None:
                continue
            if isinstance(v, bool):
                continue
            if isinstance(v, (int, float)):
                note("number", path, float(v))
            elif isinstance(v, list):
                note("list", path, _entries(v))
            elif isinstance(v, str) and key == "date":
                note("date", path, v)
            elif isinstance(v, Mapping) and not prefix:
                visit(v, path)

    for revs in ds.reviews.values():  # one restaurant at a time: a streamed dataset is never held whole
        for rv in revs:
            visit(rv.raw, ())
    out: list[ReviewField] = []
    for (kind, path), r in ranges.items():
        lo, hi = r.lo, r.hi
        if kind == "number":
            lo, hi = (int(lo) if lo.is_integer() else lo), (int(hi) if hi.is_integer() else hi)
        out.append(ReviewField(".".join(path), path, _review_label(path), kind, r.n, lo, hi))
    return tuple(sorted(out, key=lambda f: f.path))


_REVIEW_LABELS = MappingProxyType({
    ("stars",): "Review stars",
    ("useful",): "Votes: useful",
    ("funny",): "Votes: funny",
    ("cool",): "Votes: cool",
    ("date",): "Review date",
    ("user", "review_count"): "Reviewer's number of reviews",
    ("user", "fans"): "Reviewer's fans",
    ("user", "elite"): "Reviewer's elite years",
    ("user", "average_stars"): "Reviewer's average stars",
})


def _review_label(path: tuple[str, ...]) -> str:
    known = _REVIEW_LABELS.get(path)
    if known:
        return known
    text = " ".join(words(p) for p in path if p != "user")
    return ("Reviewer's " + text) if path[0] == "user" else text[:1].upper() + text[1:]


def _reviewers(ds: Dataset) -> tuple[ReviewerCount, ...]:
    counts: Counter[str] = Counter()
    for revs in ds.reviews.values():
        for rv in revs:
            who = rv.user.social_id
            if who:
                counts[who] += 1
    graph = ds.social.as_dict()
    names = set(counts) | set(graph)
    return tuple(ReviewerCount(n, counts.get(n, 0), len(graph.get(n, ()))) for n in sorted(names))


def build_catalog(ds: Dataset, *, reviews: bool = True) -> Catalog:
    """The catalog of a loaded dataset (pure: reads the dataset, changes nothing). ``reviews=False`` leaves out what
    only a pass over every review (and the friend graph) gives — review fields and reviewers — for a lint of requests
    that do not refer to them: on a streamed dataset that pass costs as much as the evaluation."""
    if not reviews:
        return Catalog(source=ds.source, n_restaurants=len(ds.restaurants), n_reviews=ds.n_reviews,
                       attributes=_attributes(ds), fields=_fields(ds), categories=_categories(ds), hours=_hours(ds),
                       review_fields=(), reviewers=(), friend_graph_people=0, friend_graph_edges=0)
    graph = ds.social.as_dict()
    return Catalog(
        source=ds.source,
        n_restaurants=len(ds.restaurants),
        n_reviews=ds.n_reviews,
        attributes=_attributes(ds),
        fields=_fields(ds),
        categories=_categories(ds),
        hours=_hours(ds),
        review_fields=_review_fields(ds),
        reviewers=_reviewers(ds),
        friend_graph_people=len(graph),
        friend_graph_edges=sum(len(v) for v in graph.values()) // 2,
    )
