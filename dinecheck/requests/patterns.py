"""Safety of ``review_text`` patterns: a static check for catastrophic backtracking, and the regex work budget.

Patterns come from untrusted requests and run on every review, so two guards bound their cost:

* :func:`backtracking_risk` inspects the *parsed* pattern (Python's ``re`` parser, before anything runs) and names the
  constructs whose worst case is exponential in a backtracking engine: a quantifier that repeats something which is
  itself quantified (``(a+)+``, ``(\\w+\\s?)*``), and a quantifier over alternatives that can start with the same
  character (``(a|aa)+``, ``(x|\\w)*``). Requests holding one are rejected when they are loaded. The check is
  deliberately conservative; a rejected pattern can always be rewritten (``a+`` for ``(a|aa)+``). Patterns that only
  the ``regex`` module can parse (``\\p{…}``, version-1 syntax) are not analysed: the budget below bounds them.
* :class:`RegexBudget` bounds the *total* time of regular-expression searches: per request and per run (a whole
  ``requests validate``), on top of the per-search timeout. Polynomial patterns such as ``.*a.*b`` pass the static
  check but cannot run for hours: the first search that would pass a budget stops the run with an error naming the
  request and the pattern.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

try:  # Python 3.11+: the parser behind re.compile
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older layouts
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

REGEX_REQUEST_BUDGET_S = 5.0
"""Total regular-expression search time one request may use (summed over every review and restaurant)."""
REGEX_RUN_BUDGET_S = 60.0
"""Total regular-expression search time of one run (every request of a ``requests validate``)."""

_ALL: frozenset[int] | None = None  # "any character" as a first-character set
_CATEGORY_CHARS = {
    _c.CATEGORY_DIGIT: frozenset(range(ord("0"), ord("9") + 1)),
    _c.CATEGORY_SPACE: frozenset(ord(ch) for ch in " \t\n\r\f\v"),
}
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)


def backtracking_risk(pattern: str) -> str | None:
    """Why ``pattern`` can take exponential time in a backtracking engine, or None when no such construct is seen."""
    try:
        parsed = _p.parse(pattern, re.IGNORECASE)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None  # regex-module-only syntax: not analysed here (the run budget still bounds it)
    try:
        return _risk(list(parsed), inside_repeat=None)
    except RecursionError:
        return "it is nested too deeply to analyse"


def _risk(items: list[tuple[Any, Any]], inside_repeat: str | None) -> str | None:
    """The first risky construct in ``items``; ``inside_repeat`` is the enclosing variable quantifier, if any."""
    for op, av in items:
        if op in _REPEATS or op == getattr(_c, "POSSESSIVE_REPEAT", None):
            lo, hi, body = av
            varies = hi != lo and op in _REPEATS
            if varies and hi > 1 and inside_repeat is not None:
                return f"nested quantifiers: a quantified part repeats inside another quantifier ({inside_repeat})"
            if varies and (hi == _c.MAXREPEAT or hi > 1):
                alts = _overlapping_alternatives(list(body))
                if alts is not None:
                    return f"a quantifier repeats alternatives that can start with the same character ({alts})"
            found = _risk(list(body), _quantifier(lo, hi) if varies and hi > 1 else inside_repeat)
            if found:
                return found
        elif op == _c.SUBPATTERN:
            found = _risk(list(av[-1]), inside_repeat)
            if found:
                return found
        elif op == _c.BRANCH:
            for alt in av[1]:
                found = _risk(list(alt), inside_repeat)
                if found:
                    return found
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            found = _risk(list(av[1]), inside_repeat)
            if found:
                return found
        elif op == getattr(_c, "ATOMIC_GROUP", None):
            continue  # atomic: no backtracking into it
    return None


def _quantifier(lo: int, hi: int) -> str:
    """``{lo,hi}`` written as the pattern would (``*``, ``+``, ``{2,}``, ``{1,9}``)."""
    if hi == _c.MAXREPEAT:
        return {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
    return "?" if (lo, hi) == (0, 1) else f"{{{lo},{hi}}}"


def _overlapping_alternatives(items: list[tuple[Any, Any]]) -> str | None:
    """The first pair of alternatives of a BRANCH (directly in ``items`` or its groups) whose first characters overlap."""
    for op, av in items:
        if op == _c.SUBPATTERN:
            got = _overlapping_alternatives(list(av[-1]))
            if got:
                return got
        elif op == _c.BRANCH:
            alts = av[1]
            firsts = [_first(list(a)) for a in alts]
            for i in range(len(alts)):
                for j in range(i + 1, len(alts)):
                    if _overlap(firsts[i], firsts[j]):
                        return f"alternatives {i + 1} and {j + 1}"
    return None


def _overlap(a: frozenset[int] | None, b: frozenset[int] | None) -> bool:
    if a is None or b is None:
        return True
    return bool(a & b)


def _fold(chars: set[int]) -> set[int]:
    out = set(chars)
    for ch in chars:
        s = chr(ch)
        out.update(ord(x) for x in (s.lower(), s.upper()) if len(x) == 1)
    return out


def _first(items: list[tuple[Any, Any]]) -> frozenset[int] | None:
    """Characters a match of ``items`` can start with (None: any character); includes what follows nullable parts."""
    chars: set[int] = set()
    for op, av in items:
        got, nullable = _first_of(op, av)
        if got is None:
            return None
        chars |= got
        if not nullable:
            return frozenset(_fold(chars))
    return None  # the whole sequence can match empty: anything may follow


def _first_of(op: Any, av: Any) -> tuple[frozenset[int] | None, bool]:
    if op == _c.LITERAL:
        return frozenset({av}), False
    if op == _c.IN:
        chars: set[int] = set()
        for kind, val in av:
            if kind == _c.LITERAL:
                chars.add(val)
            elif kind == _c.RANGE and val[1] - val[0] < 4096:
                chars.update(range(val[0], val[1] + 1))
            elif kind == _c.CATEGORY and val in _CATEGORY_CHARS:
                chars |= _CATEGORY_CHARS[val]
            else:  # negation, \w, wide ranges: treat as any character
                return _ALL, False
        return frozenset(chars), False
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return frozenset(), True
    if op == _c.SUBPATTERN:
        got = _first(list(av[-1]))
        return got, got is None or _nullable(list(av[-1]))
    if op in _REPEATS or op == getattr(_c, "POSSESSIVE_REPEAT", None):
        lo, _hi, body = av
        got = _first(list(body))
        return got, lo == 0 or _nullable(list(body))
    if op == _c.BRANCH:
        acc: set[int] = set()
        nullable = False
        for alt in av[1]:
            got = _first(list(alt))
            if got is None:
                return None, True
            acc |= got
            nullable = nullable or _nullable(list(alt))
        return frozenset(acc), nullable
    return _ALL, False  # ANY, NOT_LITERAL, back-references, …


def _nullable(items: list[tuple[Any, Any]]) -> bool:
    return all(_first_of(op, av)[1] for op, av in items)


class RegexBudgetExceeded(Exception):
    """Internal: a search ran over its timeout or a budget; the engine turns it into an EvaluationError."""

    def __init__(self, pattern: str, review_id: str, why: str) -> None:
        super().__init__(pattern, review_id, why)
        self.pattern, self.review_id, self.why = pattern, review_id, why


@dataclass
class RegexBudget:
    """Regular-expression search time: per search (``search_s``), per request and per run; charged as searches run."""

    search_s: float
    request_s: float = REGEX_REQUEST_BUDGET_S
    run_s: float = REGEX_RUN_BUDGET_S
    account: str = "-"
    spent_run: float = 0.0
    spent: dict[str, float] = field(default_factory=dict)

    def search(self, compiled: Any, text: str, pattern: str, review_id: str) -> bool:
        """One timed search charged to the current account; RegexBudgetExceeded when a limit is reached."""
        spent_request = self.spent.get(self.account, 0.0)
        left_request = self.request_s - spent_request
        left_run = self.run_s - self.spent_run
        limit = min(self.search_s, left_request, left_run)
        if limit <= 0:
            raise RegexBudgetExceeded(pattern, review_id, self._why(left_request, left_run))
        start = time.perf_counter()
        try:
            hit = compiled.search(text, timeout=limit) is not None
        except TimeoutError:
            raise RegexBudgetExceeded(pattern, review_id, self._why(left_request, left_run)) from None
        finally:
            took = time.perf_counter() - start
            self.spent[self.account] = spent_request + took
            self.spent_run += took
        return hit

    def _why(self, left_request: float, left_run: float) -> str:
        if left_run <= min(self.search_s, left_request):
            return f"the run's regex budget of {self.run_s:g} s is used up"
        if left_request <= self.search_s:
            return f"the request's regex budget of {self.request_s:g} s is used up"
        return f"one search ran longer than {self.search_s:g} s"
