""""Did you mean …" for unknown ingredient tokens: a bounded edit-distance search over the ontology's names (pure).

Suggestions are shown in the reasons only; they never change a verdict (an unknown token keeps the label VERIFY).
The search uses rapidfuzz's Levenshtein distance with a cut-off (1 edit for keys of up to 6 characters, 2 beyond;
none below 4 characters), at most :data:`MAX_SUGGESTIONS` names, remembered per ontology.
"""

from __future__ import annotations

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from dinecheck.allergens.normalize import memo_for
from dinecheck.allergens.ontology import Ontology

MAX_SUGGESTIONS = 3
MAX_KEY_CHARS = 60


def suggestions(key: str, ontology: Ontology) -> tuple[str, ...]:
    """Known names within a small edit distance of ``key`` (closest first), as their lookup keys."""
    if len(key) < 4 or len(key) > MAX_KEY_CHARS:
        return ()
    memo = memo_for(ontology)
    if memo is not None and key in memo.suggestions:
        return memo.suggestions[key]
    if memo is None:  # a live view of a database (no memo): scanning every name per token is not worth it
        return ()
    if not memo.choice_keys:
        memo.choice_keys.extend(ontology.synonyms)
    choices = memo.choice_keys
    cutoff = 1 if len(key) <= 6 else 2
    found = process.extract(key, choices, scorer=Levenshtein.distance, score_cutoff=cutoff,
                            limit=MAX_SUGGESTIONS)  # fmt: skip
    result = tuple(choice for choice, _dist, _i in sorted(found, key=lambda f: (f[1], f[0])))
    if len(memo.suggestions) < 50_000:
        memo.suggestions[key] = result
    return result
