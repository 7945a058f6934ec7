"""Lookup keys for ingredient text: the one normalisation shared by the ontology store and the pipeline.

``lookup_key`` applies Unicode NFKC, case folding, folds accents (``cacahuète`` → ``cacahuete``, ``Erdnüsse`` →
``erdnusse``; ``ß`` → ``ss``), unifies apostrophes and hyphen variants (hyphens become spaces) and collapses white
space. Matching is then by **exact** key equality only — never substring or fuzzy.
"""

from __future__ import annotations

import re
import unicodedata

_HYPHENS = dict.fromkeys(map(ord, "-‐‑‒–—―−﹣－_"), " ")
_APOSTROPHES = dict.fromkeys(map(ord, "’‘ʼ`´′"), "'")
_SPACE = re.compile(r"\s+")


def fold_accents(text: str) -> str:
    """Remove combining marks after canonical decomposition (é → e, ü → u); ß/æ/œ/ø are spelt out."""
    text = text.replace("ß", "ss").replace("æ", "ae").replace("œ", "oe").replace("ø", "o").replace("ł", "l")
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def lookup_key(text: str) -> str:
    """The exact-match key of an ingredient name or synonym."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.translate(_APOSTROPHES).translate(_HYPHENS)
    text = fold_accents(text)
    return _SPACE.sub(" ", text).strip()
