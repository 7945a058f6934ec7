"""Three-valued (Kleene) logic over the values +1 (satisfied), 0 (unknown) and -1 (not satisfied)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

TV = Literal[-1, 0, 1]
TRUE: TV = 1
UNKNOWN: TV = 0
FALSE: TV = -1


def and_(values: Iterable[int]) -> TV:
    """-1 if any value is -1, else 0 if any is 0, else +1 (the empty AND is +1)."""
    result: TV = TRUE
    for v in values:
        if v == FALSE:
            return FALSE
        if v == UNKNOWN:
            result = UNKNOWN
    return result


def or_(values: Iterable[int]) -> TV:
    """+1 if any value is +1, else 0 if any is 0, else -1 (the empty OR is -1)."""
    result: TV = FALSE
    for v in values:
        if v == TRUE:
            return TRUE
        if v == UNKNOWN:
            result = UNKNOWN
    return result


def not_(value: int) -> TV:
    """+1 <-> -1; 0 stays 0."""
    return -value  # type: ignore[return-value]
