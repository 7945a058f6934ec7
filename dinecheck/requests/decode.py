"""Decoding of Yelp-encoded attribute values and the value-match rule (evidence_semantics.md §2).

Yelp stores attribute values as strings (``"True"``, ``"u'free'"``, ``"{'hipster': True}"``). This module turns them
into Python values, follows evidence ``path``s through decoded dicts, and compares a decoded value with an expected
value. Pure functions, no I/O.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

MISSING: Final = object()
"""Sentinel for "no value": an absent key, a ``"None"`` string, or a non-dict along the path."""

_LITERAL_MAX_CHARS = 100_000  # bound the work ast.literal_eval may do on untrusted text


def decode_value(value: Any) -> Any:
    """Decode one Yelp value: ``"True"``/``"False"`` → bool, ``"None"`` (any case) → MISSING, quoted → inner text,
    ``{…}``/``[…]`` → literal (text kept if it does not parse), anything else unchanged.

    Decoded strings are memoised (the same attribute strings recur across restaurants); callers must not mutate a
    decoded dict or list.
    """
    if not isinstance(value, str):
        return value
    if len(value) > _CACHE_MAX_CHARS:
        return _decode_str(value)
    return _decode_cached(value)


def _decode_str(value: str) -> Any:
    if value == "True":
        return True
    if value == "False":
        return False
    if value.lower() == "none":
        return MISSING
    s = value
    body = s[1:] if s[:1] in ("u", "U") and len(s) >= 3 and s[1] in "'\"" else s
    if len(body) >= 2 and body[0] in "'\"" and body[-1] == body[0]:
        return body[1:-1]
    if s[:1] in ("{", "[") and len(s) <= _LITERAL_MAX_CHARS:
        try:
            return ast.literal_eval(s)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return s
    return s


_CACHE_MAX_CHARS = 4096
_decode_cached = lru_cache(maxsize=65536)(_decode_str)


def resolve_path(obj: Any, path: Sequence[str]) -> Any:
    """Follow ``path`` through ``obj``, decoding every value read; MISSING when a key is absent or a non-dict is met."""
    cur: Any = obj
    for key in path:
        if not isinstance(cur, Mapping) or key not in cur:
            return MISSING
        cur = decode_value(cur[key])
        if cur is MISSING:
            return MISSING
    return cur


def value_matches(actual: Any, expected: Any) -> bool:
    """The value-match rule: the expected value is decoded too; a JSON boolean matches only an equal boolean; a list
    matches if any element does; two strings match case-insensitively; otherwise plain equality (no substring)."""
    if actual is MISSING:
        return False
    exp = decode_value(expected)
    if exp is MISSING:
        return False
    return _match(actual, exp)


def _match(actual: Any, exp: Any) -> bool:
    if isinstance(actual, list):
        return any(_match(a, exp) for a in actual)
    if isinstance(exp, bool) or isinstance(actual, bool):
        return isinstance(exp, bool) and isinstance(actual, bool) and exp == actual
    if isinstance(actual, str) and isinstance(exp, str):
        return actual.lower() == exp.lower()
    if isinstance(actual, str) != isinstance(exp, str):
        return False  # "1" != 1
    try:
        return bool(actual == exp)
    except Exception:  # noqa: BLE001 - exotic literal types; equality failing means "no match"
        return False


def text_form(value: Any) -> str:
    """The text a ``contains`` test searches: strings as they are, everything else in Python's rendering."""
    return value if isinstance(value, str) else repr(value)


def describe_value(value: Any) -> str:
    """Human-readable rendering of a decoded value for explanations."""
    return "missing" if value is MISSING else repr(value)
