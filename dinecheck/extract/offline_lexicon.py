"""The offline extractor's reviewed vocabulary (``data/lexicon.toml``): general synonyms and word classes.

Every entry of the data file names its source (a dictionary or thesaurus sense, a public food-allergen list, the
meta-language of value descriptions); :func:`load_lexicon` refuses an entry without one. Words are lemmatized with the
same lemmatizer as review text, so "allergies", "swollen" or "vegans" match their entries.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from dinecheck.errors import ConfigError
from dinecheck.extract.offline_text import lemma, tokenize

CLASS_NAMES = ("meta", "role", "food", "consume", "menu", "place")


@dataclass(frozen=True)
class Lexicon:
    synonyms: dict[str, tuple[str, ...]]  # lemma key ("stomach upset" for stomach_upset) → phrases
    classes: dict[str, frozenset[str]]  # class name → lemmas (and surface forms) of its members

    def expansions(self, key: str) -> tuple[str, ...]:
        return self.synonyms.get(key, ())

    def in_class(self, name: str, word_lemma: str) -> bool:
        return word_lemma in self.classes.get(name, frozenset())


def phrase_lemmas(text: str) -> tuple[str, ...]:
    """The lemmas of a phrase's words ("Plant-based" → ("plant", "base"))."""
    return tuple(t.lemma for t in tokenize(text) if t.is_word)


def _parse(data: dict[str, Any], origin: str) -> Lexicon:
    synonyms: dict[str, tuple[str, ...]] = {}
    classes: dict[str, frozenset[str]] = {}
    for section in ("synonyms", "classes"):
        for key, entry in data.get(section, {}).items():
            where = f"{origin}: [{section}.{key}]"
            if not isinstance(entry, dict) or not str(entry.get("source", "")).strip():
                raise ConfigError("every entry needs a non-empty 'source'", where)
            words = entry.get("words")
            if not isinstance(words, list) or not words or not all(isinstance(w, str) and w.strip() for w in words):
                raise ConfigError("'words' must be a non-empty list of strings", where)
            if section == "synonyms":
                k = " ".join(phrase_lemmas(key.replace("_", " "))) if not key.isupper() else key
                synonyms[k] = tuple(dict.fromkeys(synonyms.get(k, ()) + tuple(words)))
            else:
                if any(len(w.split()) != 1 for w in words):
                    raise ConfigError("a word class holds single words only", where)
                classes[key] = frozenset(lemma(w.lower()) for w in words) | frozenset(w.lower() for w in words)
    missing = [c for c in CLASS_NAMES if c not in classes]
    if missing:
        raise ConfigError(f"missing word classes: {', '.join(missing)}", origin)
    return Lexicon(synonyms, classes)


def parse_lexicon(text: str, origin: str = "lexicon") -> Lexicon:
    """Parse lexicon TOML text (raises :class:`ConfigError` naming the entry for a bad one)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML ({exc})", origin) from None
    return _parse(data, origin)


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The packaged lexicon (parsed once)."""
    text = resources.files("dinecheck.extract").joinpath("data/lexicon.toml").read_text(encoding="utf-8")
    return parse_lexicon(text, "dinecheck/extract/data/lexicon.toml")
