"""Lint: check every condition of a request against a dataset's :class:`~dinecheck.requests.catalog.Catalog` before it
is evaluated, so that a typo cannot silently make a condition false for every restaurant (or, under ``NOT``, true).

Errors (the request cannot mean what its author wants): an attribute path no restaurant has (with "did you mean"), a
business field no restaurant has, a review field no review has, an hours path that is not ``["hours", <day>]`` with a
day the data uses, an hours window that is not ``H:M-H:M`` (hours 0–24, minutes 0–59).
Warnings (legal, but probably a mistake): an expected value never seen for that attribute (``true``/``false``/
``neutral``/``not_true`` by the value-match rule, ``contains``/``not_contains`` by substring), a friend name that is
neither a reviewer nor in the friend graph (with case-insensitive suggestions), a pattern that matches no review at all.

Linting never changes evaluation: it only reports. Pure functions; the review-text check reads the dataset's reviews.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import regex

from dinecheck.dataset import Dataset
from dinecheck.requests.catalog import DAYS, Catalog
from dinecheck.requests.decode import text_form, value_matches
from dinecheck.requests.evidence import REGEX_TIMEOUT_S, parse_window
from dinecheck.requests.schema import (
    REGEX_FLAGS,
    Condition,
    ItemMetaEvidence,
    ItemMetaHoursEvidence,
    Request,
    ReviewMetaEvidence,
    ReviewTextEvidence,
    conditions,
)

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class LintIssue:
    """One finding: the request, the JSON pointer of the offending value, error or warning, and why."""

    request_id: str
    pointer: str
    severity: Severity
    message: str

    @property
    def location(self) -> str:
        return f"request {self.request_id} {self.pointer}"

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


def did_you_mean(word: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates equal to ``word`` ignoring case when there are any, else the closest spellings
    (case-insensitive, similarity ≥ 0.75), at most ``n``."""
    cands = sorted(set(candidates))
    low = word.lower()
    same = [c for c in cands if c.lower() == low and c != word]
    if same:
        return same[:n]
    by_low: dict[str, list[str]] = {}
    for c in cands:
        by_low.setdefault(c.lower(), []).append(c)
    close = [c for m in difflib.get_close_matches(low, list(by_low), n=n, cutoff=0.75) for c in by_low[m]]
    return [c for c in close if c != word][:n]


def _suggest(word: str, candidates: Iterable[str]) -> str:
    got = did_you_mean(word, candidates)
    return f" (did you mean {' or '.join(repr(g) for g in got)}?)" if got else ""


def _seen(values: Sequence[Any], limit: int = 6) -> str:
    shown = [v if isinstance(v, str) else repr(v) for v in values[:limit]]
    more = f", … {len(values) - limit} more" if len(values) > limit else ""
    return f"seen: {', '.join(shown)}{more}" if shown else "no restaurant has a value"


class _PatternProbe:
    """Whether a pattern matches at least one review of the dataset (memoised per pattern; bounded searches)."""

    def __init__(self, dataset: Dataset | None, timeout_s: float) -> None:
        self.dataset = dataset
        self.timeout_s = timeout_s
        self.memo: dict[str, bool | None] = {}

    def matches_some(self, pattern: str) -> bool | None:
        """True/False, or None when the answer is unknown (a search ran over budget: evaluation will report it)."""
        if pattern in self.memo:
            return self.memo[pattern]
        compiled = regex.compile(pattern, REGEX_FLAGS)
        found: bool | None = False
        texts = (rv.text for revs in self.dataset.reviews.values() for rv in revs) if self.dataset is not None else ()
        for text in texts:  # lazily, one restaurant at a time: most patterns match early, and nothing is held whole
            try:
                if compiled.search(text, timeout=self.timeout_s):
                    found = True
                    break
            except TimeoutError:
                found = None
                break
        self.memo[pattern] = found
        return found


class Linter:
    """Lints requests against one dataset: build once, call :meth:`lint` per request."""

    def __init__(self, catalog: Catalog, dataset: Dataset | None = None, *,
                 regex_timeout_s: float = REGEX_TIMEOUT_S) -> None:
        self.catalog = catalog
        self._probe = _PatternProbe(dataset, regex_timeout_s)
        self._attr_keys = [a.key for a in catalog.attributes]
        self._days = set(DAYS) | {h.day for h in catalog.hours}

    def lint(self, request: Request) -> list[LintIssue]:
        """Every finding for one request, in document order."""
        out: list[LintIssue] = []
        for ptr, cond in conditions(request.structure):
            for sev, sub, msg in self._condition(cond):
                out.append(LintIssue(request.id, f"{ptr}/evidence{sub}", sev, msg))
        return out

    def lint_all(self, requests: Iterable[Request]) -> list[LintIssue]:
        return [issue for r in requests for issue in self.lint(r)]

    # -- per evidence kind -------------------------------------------------------------------------------------------
    def _condition(self, cond: Condition) -> list[tuple[Severity, str, str]]:
        ev = cond.evidence
        if isinstance(ev, ItemMetaEvidence):
            return self._item_meta(ev)
        if isinstance(ev, ItemMetaHoursEvidence):
            return self._hours(ev)
        if isinstance(ev, ReviewTextEvidence):
            return self._review_text(ev)
        return self._review_meta(ev)

    def _item_meta(self, ev: ItemMetaEvidence) -> list[tuple[Severity, str, str]]:
        path = list(ev.path)
        if path[0] != "attributes":
            if not self.catalog.has_field(path[0]):
                names = [f.name for f in self.catalog.fields]
                return [("error", "/path/0", f"no restaurant has a field {path[0]!r}{_suggest(path[0], names)}")]
            return []
        if len(path) == 1:
            return []
        info = self.catalog.attribute(path)
        if info is None:
            key = ".".join(path[1:])
            return [("error", "/path", f"unknown attribute path {'.'.join(path)}: no restaurant has it"
                     f"{_suggest(key, self._attr_keys)}")]
        out: list[tuple[Severity, str, str]] = []
        values = [v.value for v in info.values]
        for name in ("true", "false", "neutral", "not_true"):
            expected = getattr(ev, name)
            if expected is not None and not any(value_matches(v, expected) for v in values):
                out.append(("warning", f"/{name}", f"value {expected!r} never occurs for {'.'.join(path)} "
                                                   f"({_seen([v.text for v in info.values])})"))
        for name in ("contains", "not_contains"):
            expected = getattr(ev, name)
            if expected is not None and not any(expected.lower() in text_form(v).lower() for v in values):
                out.append(("warning", f"/{name}", f"no value of {'.'.join(path)} contains {expected!r} "
                                                   f"({_seen([v.text for v in info.values])})"))
        return out

    def _hours(self, ev: ItemMetaHoursEvidence) -> list[tuple[Severity, str, str]]:
        out: list[tuple[Severity, str, str]] = []
        path = list(ev.path)
        if path[0] != "hours" or len(path) != 2:
            out.append(("error", "/path", f"an hours path is ['hours', <day>], got {path!r}"))
        elif path[1] not in self._days:
            out.append(("error", "/path/1", f"unknown day {path[1]!r}{_suggest(path[1], self._days)}; "
                                            f"days are {', '.join(DAYS)}"))
        if parse_window(ev.true) is None:
            out.append(("error", "/true", f"malformed hours window {ev.true!r}: expected H:M-H:M with hours 0-24 "
                                          "and minutes 0-59, e.g. 9:0-11:0"))
        return out

    def _review_field(self, path: Sequence[str], sub: str) -> list[tuple[Severity, str, str]]:
        if self.catalog.n_reviews == 0 or self.catalog.review_field(path) is not None:
            return []
        keys = [f.key for f in self.catalog.review_fields]
        key = ".".join(path)
        return [("error", sub, f"unknown review field {key}: no review has it{_suggest(key, keys)}")]

    def _review_text(self, ev: ReviewTextEvidence) -> list[tuple[Severity, str, str]]:
        out: list[tuple[Severity, str, str]] = []
        if ev.weight_by is not None:
            out += self._review_field(ev.weight_by.field, "/weight_by/field")
        if ev.social_filter is not None:
            people = self.catalog.people
            for i, name in enumerate(ev.social_filter.friends):
                if name not in people:
                    out.append(("warning", f"/social_filter/friends/{i}",
                                f"unknown friend {name!r}: not a reviewer and not in the friend graph "
                                f"(names are case-sensitive){_suggest(name, people)}"))
        if self.catalog.n_reviews and self._probe.matches_some(ev.pattern) is False:
            out.append(("warning", "/pattern", f"pattern {ev.pattern!r} matches no review in the dataset"))
        return out

    def _review_meta(self, ev: ReviewMetaEvidence) -> list[tuple[Severity, str, str]]:
        return self._review_field(ev.path, "/path")


def needs_review_catalog(requests: Iterable[Request]) -> bool:
    """Whether linting these requests needs the review part of the catalog (review fields, reviewers): only for
    review-metadata conditions, credibility weights and social filters."""
    for req in requests:
        for _, cond in conditions(req.structure):
            ev = cond.evidence
            if isinstance(ev, ReviewMetaEvidence) or (
                isinstance(ev, ReviewTextEvidence) and (ev.weight_by is not None or ev.social_filter is not None)
            ):
                return True
    return False


def errors(issues: Iterable[LintIssue]) -> list[LintIssue]:
    return [i for i in issues if i.severity == "error"]


def warnings(issues: Iterable[LintIssue]) -> list[LintIssue]:
    return [i for i in issues if i.severity == "warning"]
