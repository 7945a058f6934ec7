"""One small evaluator per evidence kind, each with ``evaluate()`` (→ a :class:`ConditionOutcome`) and ``describe()``.

The rules are exactly those of evidence_semantics.md §3–§6; every outcome names the rule that decided it and carries
the evidence a user needs to see *why* (§7). Review-text searches go through :class:`ReviewIndex`, which compiles each
distinct pattern once, caches the matching reviews per (pattern, restaurant) and charges every search to a
:class:`~dinecheck.requests.patterns.RegexBudget` (per search, per request, per run: patterns come from untrusted
requests).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Protocol

import regex

from dinecheck.dataset import Dataset, Restaurant, Review
from dinecheck.requests.decode import MISSING, describe_value, resolve_path, text_form, value_matches
from dinecheck.requests.patterns import RegexBudget
from dinecheck.requests.schema import (
    REGEX_FLAGS,
    ItemMetaEvidence,
    ItemMetaHoursEvidence,
    ReviewMetaEvidence,
    ReviewTextEvidence,
)

REGEX_TIMEOUT_S = 0.25
"""Budget of one regular-expression search over one review text; exceeding it is an EvaluationError."""

_LITERAL = re.compile(r"[A-Za-z0-9 ]+(?:\|[A-Za-z0-9 ]+)*")


@dataclass(frozen=True)
class ConditionOutcome:
    """The value of one condition for one restaurant, the rule that decided it, and JSON-able evidence."""

    value: int
    rule: str
    evidence: dict[str, Any] = field(default_factory=dict)


class ReviewIndex:
    """Per-dataset caches for review evidence: compiled patterns, matching reviews, credibility values, circles."""

    def __init__(self, dataset: Dataset, budget: RegexBudget | None = None) -> None:
        self.dataset = dataset
        self.budget = budget if budget is not None else RegexBudget(REGEX_TIMEOUT_S)
        self._compiled: dict[str, Any] = {}
        self._matches: dict[str, dict[str, tuple[int, ...]]] = {}  # business_id -> pattern -> hits
        self._ascii: dict[str, tuple[str, list[int], tuple[bool, ...]]] = {}
        self._weights: dict[str, dict[tuple[str, ...], tuple[float, ...]]] = {}  # business_id -> field -> values
        self._circles: dict[tuple[tuple[str, ...], int], frozenset[str]] = {}
        self._authors: dict[str, dict[str, list[int]]] = {}

    def reviews(self, restaurant: Restaurant) -> tuple[Review, ...]:
        return self.dataset.reviews_of(restaurant.business_id)

    def forget(self, restaurant: Restaurant) -> None:
        """Drop the caches of one restaurant (the engine calls this when it is done with it: bounded memory)."""
        bid = restaurant.business_id
        for cache in (self._matches, self._ascii, self._weights, self._authors):
            cache.pop(bid, None)

    def _joined(self, bid: str, revs: tuple[Review, ...]) -> tuple[str, list[int], tuple[bool, ...]]:
        """The lower-cased ASCII review texts joined by NUL, the start offset of each, and which reviews are ASCII."""
        got = self._ascii.get(bid)
        if got is None:
            is_ascii = tuple(rv.text.isascii() for rv in revs)
            parts, starts, pos = [], [], 0
            for rv, ok in zip(revs, is_ascii):
                low = rv.text.lower() if ok else ""
                starts.append(pos)
                parts.append(low)
                pos += len(low) + 1
            got = ("\0".join(parts), starts, is_ascii)
            self._ascii[bid] = got
        return got

    def matching(self, pattern: str, restaurant: Restaurant) -> tuple[int, ...]:
        """Indices (into the restaurant's reviews) of reviews whose text the pattern matches (case-insensitive search).

        A pattern made only of ASCII letters, digits, spaces and ``|`` is a set of literals: on ASCII text a
        case-insensitive regex search is then exactly a substring test on the lower-cased text, done here with
        ``str.find`` over all of the restaurant's ASCII reviews joined by NUL (which no literal contains). Any other
        pattern, and any non-ASCII review, goes through the ``regex`` module with a per-search timeout.
        """
        per = self._matches.setdefault(restaurant.business_id, {})
        got = per.get(pattern)
        if got is not None:
            return got
        revs = self.reviews(restaurant)
        hits: set[int] = set()
        if _LITERAL.fullmatch(pattern):
            joined, starts, is_ascii = self._joined(restaurant.business_id, revs)
            for lit in set(pattern.lower().split("|")):
                if not lit:
                    continue
                pos = joined.find(lit)
                while pos >= 0:
                    i = bisect_right(starts, pos) - 1
                    hits.add(i)
                    nxt = starts[i + 1] if i + 1 < len(starts) else len(joined)
                    pos = joined.find(lit, nxt)
            todo = [i for i, ok in enumerate(is_ascii) if not ok]
        else:
            todo = list(range(len(revs)))
        if todo:
            compiled = self.compile(pattern)
            for i in todo:
                if self.budget.search(compiled, revs[i].text, pattern, revs[i].review_id):
                    hits.add(i)
        got = tuple(sorted(hits))
        per[pattern] = got
        return got

    def matching_among(self, pattern: str, restaurant: Restaurant, candidates: list[int]) -> tuple[int, ...]:
        """Like :meth:`matching`, restricted to the review indices ``candidates`` (searches only those, unless the
        full answer is already cached)."""
        got = self._matches.get(restaurant.business_id, {}).get(pattern)
        if got is not None:
            keep = set(candidates)
            return tuple(i for i in got if i in keep)
        revs = self.reviews(restaurant)
        literals = [lit for lit in set(pattern.lower().split("|")) if lit] if _LITERAL.fullmatch(pattern) else None
        out = []
        for i in candidates:
            text = revs[i].text
            if literals is not None and text.isascii():
                low = text.lower()
                hit = any(lit in low for lit in literals)
            else:
                hit = self.budget.search(self.compile(pattern), text, pattern, revs[i].review_id)
            if hit:
                out.append(i)
        return tuple(out)

    def compile(self, pattern: str) -> Any:
        cp = self._compiled.get(pattern)
        if cp is None:
            cp = regex.compile(pattern, REGEX_FLAGS)
            self._compiled[pattern] = cp
        return cp

    def weights(self, path: tuple[str, ...], restaurant: Restaurant) -> tuple[float, ...]:
        """The credibility value of every review (see :func:`credibility_value`)."""
        per = self._weights.setdefault(restaurant.business_id, {})
        got = per.get(path)
        if got is None:
            got = tuple(credibility_value(rv, path) for rv in self.reviews(restaurant))
            per[path] = got
        return got

    def by_author(self, restaurant: Restaurant) -> dict[str, list[int]]:
        """Review indices of the restaurant grouped by author identity (``ReviewUser.social_id``)."""
        got = self._authors.get(restaurant.business_id)
        if got is None:
            got = {}
            for i, rv in enumerate(self.reviews(restaurant)):
                who = rv.user.social_id
                if who is not None:
                    got.setdefault(who, []).append(i)
            self._authors[restaurant.business_id] = got
        return got

    def circle(self, friends: tuple[str, ...], hops: int) -> frozenset[str]:
        key = (friends, hops)
        got = self._circles.get(key)
        if got is None:
            got = self.dataset.social.circle(friends, hops)
            self._circles[key] = got
        return got


def _count_entries(value: list[Any]) -> int:
    return sum(1 for e in value if e not in (None, "", "None"))


def credibility_value(review: Review, path: tuple[str, ...]) -> float:
    """The value at ``weight_by.field`` for one review: numbers as they are, a list counts its non-empty, non-"None"
    entries (``["user", "elite"]``, duplicates count), anything else (missing, text, booleans) is 0."""
    if path == ("user", "elite"):
        return float(_count_entries(list(review.user.elite)))
    v = resolve_path(review.raw, path)
    if isinstance(v, list):
        return float(_count_entries(v))
    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
        return float(v)
    return 0.0


_SCALARS = (str, int, float, bool, type(None))


def source_key(obj: Any, path: tuple[str, ...]) -> tuple[Any, ...] | None:
    """What the value at ``path`` is decoded from: ``(depth, type, scalar)`` for the first non-dict value met along
    the path, ``(depth, "absent")`` for a missing key; None when that value is not a hashable scalar."""
    cur = obj
    for depth, key in enumerate(path):
        if not isinstance(cur, dict):
            return (depth, "not-a-dict", type(cur).__name__) if isinstance(cur, _SCALARS) else None
        if key not in cur:
            return (depth, "absent")
        cur = cur[key]
        if isinstance(cur, dict):
            continue
        return (depth, type(cur).__name__, cur) if isinstance(cur, _SCALARS) else None
    return None


class EvidenceEvaluator(Protocol):
    """What every evidence evaluator offers."""

    def evaluate(self, restaurant: Restaurant, index: ReviewIndex) -> ConditionOutcome: ...

    def describe(self) -> str: ...


class ItemMetaEvaluator:
    """evidence_semantics.md §3: the first applicable rule decides."""

    cost = 0

    def __init__(self, ev: ItemMetaEvidence) -> None:
        self.ev = ev
        self.path = tuple(ev.path)
        self._memo: dict[tuple[Any, ...], ConditionOutcome] = {}

    def describe(self) -> str:
        ev, p = self.ev, ".".join(self.ev.path)
        for key, text in (
            ("not_true", "is not"),
            ("not_contains", "does not contain"),
            ("contains", "contains"),
            ("true", "is"),
            ("false", "is not"),
        ):
            val = getattr(ev, key)
            if val is not None:
                return f"attribute {p} {text} {val!r}"
        return f"attribute {p} is true"

    def evaluate(self, restaurant: Restaurant, index: ReviewIndex | None = None) -> ConditionOutcome:
        # The outcome depends only on the first non-dict value met along the path (a Yelp string, usually shared by
        # many restaurants), so outcomes are memoised by that value.
        src = source_key(restaurant.raw, self.path)
        if src is None:
            return self._from_value(resolve_path(restaurant.raw, self.path))
        got = self._memo.get(src)
        if got is None:
            got = self._from_value(resolve_path(restaurant.raw, self.path))
            self._memo[src] = got
        return got

    def _from_value(self, value: Any) -> ConditionOutcome:
        ev = self.ev
        shown = describe_value(value)
        base = {"path": list(self.path), "value": shown}
        if ev.not_true is not None:
            if value is MISSING:
                return ConditionOutcome(1, "not_true: value missing", base)
            hit = value_matches(value, ev.not_true)
            return ConditionOutcome(-1 if hit else 1, f"not_true: value {'matches' if hit else 'differs from'} "
                                    f"{ev.not_true!r}", base)
        if ev.not_contains is not None:
            if value is MISSING:
                return ConditionOutcome(1, "not_contains: value missing", base)
            hit = ev.not_contains.lower() in text_form(value).lower()
            return ConditionOutcome(-1 if hit else 1, f"not_contains: {ev.not_contains!r} "
                                    f"{'found' if hit else 'not found'}", base)
        if value is MISSING:
            return ConditionOutcome(ev.missing, "value missing → the evidence's 'missing'", base)
        if ev.contains is not None:
            hit = ev.contains.lower() in text_form(value).lower()
            return ConditionOutcome(1 if hit else -1, f"contains: {ev.contains!r} {'found' if hit else 'not found'}",
                                    base)
        if isinstance(value, dict) and value and all(isinstance(v, bool) for v in value.values()):
            hit = any(value.values())
            return ConditionOutcome(1 if hit else -1, f"boolean dict: {'some' if hit else 'no'} value is true", base)
        given = [k for k in ("true", "false", "neutral") if getattr(ev, k) is not None]
        if not given:
            v = 1 if value is True else -1 if value is False else 0
            return ConditionOutcome(v, "no expected value: truthiness of the value", base)
        if given == ["false"]:
            hit = value_matches(value, ev.false)
            return ConditionOutcome(-1 if hit else 1, f"false: value {'matches' if hit else 'differs from'} "
                                    f"{ev.false!r}", base)
        if given == ["true"]:
            hit = value_matches(value, ev.true)
            return ConditionOutcome(1 if hit else -1, f"true: value {'matches' if hit else 'differs from'} "
                                    f"{ev.true!r}", base)
        if ev.true is not None and value_matches(value, ev.true):
            return ConditionOutcome(1, f"true: value matches {ev.true!r}", base)
        if ev.false is not None and value_matches(value, ev.false):
            return ConditionOutcome(-1, f"false: value matches {ev.false!r}", base)
        return ConditionOutcome(0, "several expected values: none of true/false matches", base)


_WINDOW = re.compile(r"\s*(\d{1,2}):(\d{1,2})\s*-\s*(\d{1,2}):(\d{1,2})\s*")


def parse_window(text: Any) -> tuple[int, int] | None:
    """``"H:M-H:M"`` → (start, end) in minutes, end + 24 h when it is earlier than start; None when malformed."""
    if not isinstance(text, str):
        return None
    m = _WINDOW.fullmatch(text)
    if not m:
        return None
    h1, m1, h2, m2 = (int(g) for g in m.groups())
    if h1 > 24 or h2 > 24 or m1 > 59 or m2 > 59:
        return None
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if end < start:
        end += 24 * 60
    return start, end


class HoursEvaluator:
    """evidence_semantics.md §4: the restaurant's window for the day must cover the required window."""

    cost = 0

    def __init__(self, ev: ItemMetaHoursEvidence) -> None:
        self.ev = ev
        self.path = tuple(ev.path)

    def describe(self) -> str:
        return f"open {self.ev.true} ({'.'.join(self.ev.path)})"

    def evaluate(self, restaurant: Restaurant, index: ReviewIndex | None = None) -> ConditionOutcome:
        ev = self.ev
        value = resolve_path(restaurant.raw, self.path)
        base: dict[str, Any] = {"path": list(self.path), "open": describe_value(value), "required": ev.true}
        if value is MISSING or value == "":
            return ConditionOutcome(ev.missing, "hours missing → the evidence's 'missing'", base)
        have, need = parse_window(value), parse_window(ev.true)
        if have is None or need is None:
            which = "restaurant's" if have is None else "required"
            return ConditionOutcome(-1, f"the {which} window is not H:M-H:M", base)
        base["open_minutes"], base["required_minutes"] = list(have), list(need)
        ok = have[0] <= need[0] and have[1] >= need[1]
        return ConditionOutcome(1 if ok else -1, "window covers the required hours" if ok else
                                "window does not cover the required hours", base)


class ReviewTextEvaluator:
    """evidence_semantics.md §5: plain, credibility-weighted (``weight_by``) or social (``social_filter``) search."""

    cost = 2

    def __init__(self, ev: ReviewTextEvidence) -> None:
        self.ev = ev
        self.pattern = ev.pattern

    def describe(self) -> str:
        ev = self.ev
        if ev.social_filter is not None:
            sf = ev.social_filter
            return (f"at least {ev.social_min_matches} review(s) mentioning /{ev.pattern}/ by "
                    f"{', '.join(sf.friends)} ({sf.hops}-hop circle)")
        if ev.weight_by is not None:
            return (f"at least {ev.min_credible} review(s) mentioning /{ev.pattern}/ by reviewers at or above the "
                    f"{ev.percentile:g}th percentile of {'.'.join(ev.weight_by.field)}")
        return f"some review mentions /{ev.pattern}/"

    def evaluate(self, restaurant: Restaurant, index: ReviewIndex) -> ConditionOutcome:
        ev = self.ev
        revs = index.reviews(restaurant)
        if not revs:
            return ConditionOutcome(0, "no reviews", {"pattern": ev.pattern, "n_reviews": 0})
        if ev.social_filter is not None:
            return self._social(revs, index, restaurant)
        hits = index.matching(ev.pattern, restaurant)
        if ev.weight_by is not None:
            return self._credible(revs, hits, index, restaurant)
        ids = [revs[i].review_id for i in hits]
        return ConditionOutcome(1 if hits else -1, f"{len(hits)} of {len(revs)} reviews match",
                                {"pattern": ev.pattern, "n_reviews": len(revs), "matching_reviews": ids})

    def _credible(self, revs: tuple[Review, ...], hits: tuple[int, ...], index: ReviewIndex,
                  restaurant: Restaurant) -> ConditionOutcome:
        ev = self.ev
        assert ev.weight_by is not None
        field_path = tuple(ev.weight_by.field)
        weights = index.weights(field_path, restaurant)
        nonzero = sorted(w for w in weights if w != 0)
        n, need = len(nonzero), ev.min_credible
        info: dict[str, Any] = {"pattern": ev.pattern, "field": list(field_path), "n_reviews": len(revs),
                                "n_nonzero": n, "percentile": ev.percentile, "min_credible_matches": need,
                                "matching_reviews": [revs[i].review_id for i in hits]}
        if n < need:
            return ConditionOutcome(-1, f"only {n} review(s) have a non-zero {'.'.join(field_path)} "
                                    f"(fewer than {need})", info)
        threshold = nonzero[min(math.floor(n * ev.percentile / 100), n - 1)]
        credible = [i for i in hits if weights[i] >= threshold]
        info["threshold"] = threshold
        info["credible_matching_reviews"] = [revs[i].review_id for i in credible]
        ok = len(credible) >= need
        return ConditionOutcome(1 if ok else -1, f"{len(credible)} credible matching review(s) "
                                f"(threshold {threshold:g}, need {need})", info)

    def _social(self, revs: tuple[Review, ...], index: ReviewIndex, restaurant: Restaurant) -> ConditionOutcome:
        ev = self.ev
        sf = ev.social_filter
        assert sf is not None
        circle = index.circle(tuple(sf.friends), sf.hops)
        authors = index.by_author(restaurant)
        by_circle = sorted(i for name in circle if name in authors for i in authors[name])  # only these are searched
        hits = index.matching_among(ev.pattern, restaurant, by_circle) if by_circle else ()
        qualifying = [revs[i].review_id for i in hits]
        need = ev.social_min_matches
        ok = len(qualifying) >= need
        return ConditionOutcome(1 if ok else -1, f"{len(qualifying)} matching review(s) by the circle (need {need})",
                                {"pattern": ev.pattern, "circle": sorted(circle), "hops": sf.hops,
                                 "n_reviews": len(revs), "qualifying_reviews": qualifying})


def _meta_passes(value: Any, ev: ReviewMetaEvidence) -> bool:
    if ev.op == "not_empty":
        if isinstance(value, list):
            return _count_entries(value) > 0
        return value is not MISSING and value is not None and value != "" and value != 0 and value != {} \
            and value is not False
    if value is MISSING or isinstance(value, bool):
        return False
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return False
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return False
    assert ev.value is not None
    return value >= ev.value if ev.op == "gte" else value <= ev.value


class ReviewMetaEvaluator:
    """evidence_semantics.md §6: a per-review metadata test aggregated with any / all / count."""

    cost = 1

    def __init__(self, ev: ReviewMetaEvidence) -> None:
        self.ev = ev
        self.path = tuple(ev.path)

    def describe(self) -> str:
        ev = self.ev
        test = "is not empty" if ev.op == "not_empty" else f"{'≥' if ev.op == 'gte' else '≤'} {ev.value:g}"
        agg = {"any": "some review", "all": "every review", "count": f"at least {ev.count} reviews"}[ev.agg]
        stars = f" (reviews with ≥ {ev.min_stars:g} stars)" if ev.min_stars is not None else ""
        return f"{agg}{stars}: {'.'.join(ev.path)} {test}"

    def evaluate(self, restaurant: Restaurant, index: ReviewIndex) -> ConditionOutcome:
        ev = self.ev
        revs = index.reviews(restaurant)
        if not revs:
            return ConditionOutcome(ev.missing, "no reviews → the evidence's 'missing'", {"n_reviews": 0})
        kept = revs if ev.min_stars is None else tuple(
            rv for rv in revs if rv.stars is not None and rv.stars >= ev.min_stars)
        passing = [rv.review_id for rv in kept if _meta_passes(resolve_path(rv.raw, self.path), ev)]
        if ev.agg == "any":
            ok = len(passing) >= 1
        elif ev.agg == "all":
            ok = bool(kept) and len(passing) == len(kept)
        else:
            ok = len(passing) >= ev.count
        return ConditionOutcome(1 if ok else -1, f"{len(passing)} of {len(kept)} reviews pass ({ev.agg})",
                                {"path": list(self.path), "n_reviews": len(revs), "n_considered": len(kept),
                                 "passing_reviews": passing})


def make_evaluator(ev: Any) -> ItemMetaEvaluator | HoursEvaluator | ReviewTextEvaluator | ReviewMetaEvaluator:
    """The evaluator object for one evidence model."""
    if isinstance(ev, ItemMetaEvidence):
        return ItemMetaEvaluator(ev)
    if isinstance(ev, ItemMetaHoursEvidence):
        return HoursEvaluator(ev)
    if isinstance(ev, ReviewTextEvidence):
        return ReviewTextEvaluator(ev)
    if isinstance(ev, ReviewMetaEvidence):
        return ReviewMetaEvaluator(ev)
    raise TypeError(f"unknown evidence model {type(ev).__name__}")
