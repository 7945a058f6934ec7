"""Suggestions for label words the ontology does not know: the closest known names (by ``difflib`` similarity over the
ontology's lookup keys), each with the canonical ingredient it means. Pure; a suggestion is a hint to check the
package, never a reading of the label (the verdict stays VERIFY)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from dinecheck.allergens.ontology import Ontology
from dinecheck.allergens.text import lookup_key

MAX_SUGGESTIONS = 3
CUTOFF = 0.8


@dataclass(frozen=True)
class Suggestion:
    word: str
    names: tuple[tuple[str, str], ...]  # (known name, canonical ingredient id)


class Suggester:
    """Built once per ontology version: known keys grouped by first character (a typo rarely hits the first letter,
    and the grouping keeps each look-up to a small candidate list)."""

    def __init__(self, ontology: Ontology) -> None:
        self.ontology = ontology
        self._by_first: dict[str, list[str]] = {}
        for key in ontology.synonyms:
            if key:
                self._by_first.setdefault(key[0], []).append(key)

    def suggest(self, word: str) -> Suggestion:
        key = lookup_key(word)
        if not key:
            return Suggestion(word, ())
        close = difflib.get_close_matches(key, self._by_first.get(key[0], []), n=MAX_SUGGESTIONS, cutoff=CUTOFF)
        names = tuple((k, self.ontology.synonyms[k][0].canonical_id) for k in close)
        return Suggestion(word, names)

    def suggest_all(self, words: Sequence[str]) -> list[Suggestion]:
        return [self.suggest(w) for w in words[:50]]
