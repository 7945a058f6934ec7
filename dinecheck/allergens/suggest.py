""""Did you mean …" for unknown ingredient tokens: a bounded edit-distance search over the ontology's names (pure).

Suggestions are shown in the reasons only; they never change a verdict toward SAFE (an unknown token keeps the label
VERIFY). One use goes the other way: an unknown compound name one edit from a name that carries an allergen
("Pcanuts") is never settled by the components listed after it (:mod:`pipeline`). :func:`one_edit_variants` spells
out every string one edit from a word (the data tools use it to keep allergen names misread out of word lists).
The search uses rapidfuzz's Levenshtein distance with a cut-off (1 edit for keys of up to 6 characters, 2 beyond;
none below 4 characters), at most :data:`MAX_SUGGESTIONS` names, remembered per ontology.
"""

from __future__ import annotations

from rapidfuzz import process
from rapidfuzz.distance import OSA, Levenshtein

from dinecheck.allergens.normalize import memo_for
from dinecheck.allergens.ontology import Ontology

MAX_SUGGESTIONS = 3
MAX_KEY_CHARS = 60


def suggestions(key: str, ontology: Ontology) -> tuple[str, ...]:
    """Known names within a small edit distance of ``key`` (closest first), as their lookup keys."""
    return close_names(key, ontology, 1 if len(key) <= 6 else 2)


def close_names(key: str, ontology: Ontology, edits: int, min_chars: int = 4) -> tuple[str, ...]:
    """Known names within ``edits`` edits of ``key`` (closest first, at most :data:`MAX_SUGGESTIONS`), as their
    lookup keys; none for keys shorter than ``min_chars`` or longer than :data:`MAX_KEY_CHARS`."""
    if len(key) < min_chars or len(key) > MAX_KEY_CHARS:
        return ()
    memo = memo_for(ontology)
    if memo is None:  # a live view of a database (no memo): scanning every name per token is not worth it
        return ()
    cached = memo.suggestions.get(f"{edits}\x1f{key}")
    if cached is not None:
        return cached
    if not memo.choice_keys:
        memo.choice_keys.extend(ontology.synonyms)
    found = process.extract(key, memo.choice_keys, scorer=Levenshtein.distance, score_cutoff=edits,
                            limit=MAX_SUGGESTIONS)  # fmt: skip
    result = tuple(choice for choice, _dist, _i in sorted(found, key=lambda f: (f[1], f[0])))
    if len(memo.suggestions) < 50_000:
        memo.suggestions[f"{edits}\x1f{key}"] = result
    return result


def near_any(key: str, choices: list[str], edits: int) -> bool:
    """Whether ``key`` is within ``edits`` edits of one of ``choices``, a swap of two neighbouring letters counting as
    one (optimal string alignment: "penaut", "whaet")."""
    return process.extractOne(key, choices, scorer=OSA.distance, score_cutoff=edits) is not None


def one_letter_short(key: str, choices: list[str]) -> bool:
    """Whether ``key`` is one of ``choices`` with one letter left out ("mlk", "egs", "fsh") — for a short word, the
    only edit that is not too near too much ("zie" is no "pie")."""
    return process.extractOne(key, choices, scorer=Levenshtein.distance, scorer_kwargs={"weights": (1, 2, 2)},
                              score_cutoff=1) is not None  # fmt: skip


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def one_edit_variants(word: str) -> set[str]:
    """Every string one edit from ``word`` — a letter left out, added or changed, or two neighbouring letters swapped
    (ASCII letters; optimal string alignment distance one), ``word`` itself excluded."""
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in cuts if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
    out |= {a + c + b[1:] for a, b in cuts if b for c in _LETTERS}
    out |= {a + c + b for a, b in cuts for c in _LETTERS}
    out.discard(word)
    return out
