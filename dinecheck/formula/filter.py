"""The seed's keyword filter, and the whole-word phrase matcher it shares with the allergy evidence (``risk``).

``match: "substring"`` (the default, what the recorded G1a data assumes): a review is relevant when its lower-cased
text contains any lower-cased keyword (``"nut"`` matches ``"donut"``). A few keywords (≤ :data:`SCAN_MAX_KEYWORDS`) are
looked up with ``str.__contains__`` (C-level substring search, fastest for short lists: measured 270 vs 210 MB/s with 6
keywords), longer lists with one Aho–Corasick pass (pyahocorasick: its cost does not grow with the number of keywords;
≈ 8× faster at 126 keywords).

``match: "word"``: a keyword counts only as a whole word or phrase — the characters just before and after it are not
letters or digits — after both sides are folded by :func:`fold` (lower case, accents removed, hyphens/underscores and
curly apostrophes made plain, so ``"peanut-butter"`` matches ``"peanut butter"``). ``"nut"`` then matches "nut
allergy" and "nut-free" but not "donut" or "minutes". :class:`PhraseMatcher` does this with one Aho–Corasick pass and
reports every hit with its position in the original text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Literal

import ahocorasick

SCAN_MAX_KEYWORDS = 8

MatchMode = Literal["substring", "word"]

_PLAIN = {"-": " ", "_": " ", "\u2010": " ", "\u2011": " ", "\u2012": " ", "\u2013": " ", "\u2014": " ",
          "\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00a0": " "}  # fmt: skip


class _FoldTable(dict[int, str]):
    """``str.translate`` table that folds each character on first sight and remembers it (a pure memo)."""

    def __missing__(self, code: int) -> str:
        folded = self[code] = _fold_char(chr(code))
        return folded


@cache
def _fold_table() -> _FoldTable:
    return _FoldTable()


def _fold_char(ch: str) -> str:
    plain = _PLAIN.get(ch)
    if plain is not None:
        return plain
    low = ch.lower()
    if len(low) != 1:
        return ch if len(ch) == 1 else ch[0]
    if low.isascii():
        return low
    base = unicodedata.normalize("NFKD", low)
    return base[0] if base and len(base[0]) == 1 else low


def fold(text: str) -> str:
    """Lower-case ``text`` and plain its accents, hyphens and apostrophes, one output character per input character
    (so positions in the folded text are positions in the original)."""
    if text.isascii():
        low = text.lower()
        return low.replace("-", " ").replace("_", " ") if ("-" in low or "_" in low) else low
    return text.translate(_fold_table())


@dataclass(frozen=True, slots=True)
class PhraseHit:
    """One whole-word occurrence: the matched keyword (folded), its value, and ``[start, end)`` in the text."""

    keyword: str
    value: object
    start: int
    end: int


class PhraseMatcher:
    """Whole-word/phrase matching of many keywords at once; each keyword carries a value (e.g. what it names)."""

    def __init__(self, keywords: Iterable[tuple[str, object]] | Iterable[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        values: dict[str, list[object]] = {}
        for item in keywords:
            kw, val = (item, item) if isinstance(item, str) else item
            key = " ".join(fold(kw).split())
            if key:
                values.setdefault(key, []).append(val)
        self.keywords = tuple(values)
        for key, vals in values.items():
            self._automaton.add_word(key, (key, tuple(dict.fromkeys(vals))))
        if values:
            self._automaton.make_automaton()

    def iter_hits(self, text: str, folded: str | None = None) -> Iterator[PhraseHit]:
        """Every whole-word hit, in order of end position (overlapping hits included). ``folded`` = ``fold(text)``."""
        if not self.keywords:
            return
        low = fold(text) if folded is None else folded
        n = len(low)
        for end_idx, (key, vals) in self._automaton.iter(low):
            start = end_idx - len(key) + 1
            end = end_idx + 1
            if start > 0 and low[start - 1].isalnum():
                continue
            if end < n and low[end].isalnum():
                continue
            for v in vals:
                yield PhraseHit(key, v, start, end)

    def any(self, text: str, folded: str | None = None) -> bool:
        for _ in self.iter_hits(text, folded):
            return True
        return False


class KeywordFilter:
    """Compiled once per seed; :meth:`matches` answers one review, :meth:`found` lists the keywords it contains."""

    def __init__(self, keywords: Iterable[str], match: MatchMode = "substring") -> None:
        self.match = match
        self.keywords = tuple(dict.fromkeys(k.lower() for k in keywords if k))
        self._automaton = ahocorasick.Automaton()
        for kw in self.keywords:
            self._automaton.add_word(kw, kw)
        if self.keywords:
            self._automaton.make_automaton()
        self._words = PhraseMatcher((k, k) for k in self.keywords) if match == "word" else None

    def matches(self, text: str) -> bool:
        if not self.keywords:
            return False
        if self._words is not None:
            return self._words.any(text)
        low = text.lower()
        if len(self.keywords) <= SCAN_MAX_KEYWORDS:
            for kw in self.keywords:
                if kw in low:
                    return True
            return False
        for _ in self._automaton.iter(low):
            return True
        return False

    def found(self, text: str) -> list[str]:
        """The distinct keywords found in ``text``, in keyword order (for traces)."""
        if not self.keywords:
            return []
        if self._words is not None:
            hits = {h.value for h in self._words.iter_hits(text)}
        else:
            hits = {kw for _, kw in self._automaton.iter(text.lower())}
        return [k for k in self.keywords if k in hits]
