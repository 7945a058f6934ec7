"""Per-allergen review vocabulary generated from the allergen ontology, and the one-pass scan of a review.

For each of the 15 allergen codes the vocabulary holds the names of every ingredient that carries the allergen at level
DEFINITE or DERIVED (canonical, common, translated and inflected names in the five ontology languages), plus the general
allergy words of ``data/allergy_words.json``. Non-English names that are everyday English words
(``data/english_false_friends.txt``: "pain", "pan", "ei") are left out, because reviews are read as English text, and
so are English names whose everyday sense is mostly not the food (``data/ambiguous_english_names.txt``: "sole",
"bass", "wrap", "spelt", "tart").

Everything is matched as whole words or phrases (:class:`~dinecheck.formula.filter.PhraseMatcher`): "nut" never
matches "donut" or "minutes". :meth:`Vocabulary.scan` reads one review once and returns a :class:`ReviewScan`:

* ``needs_extraction`` — an allergy or symptom word occurs (the review goes to the extractor, once, for all allergens);
* ``concerned`` — allergens named in allergy context (a sentence with an allergy/symptom word, or the next one);
* ``exposure`` — allergen-bearing dishes or ingredients named outside allergy context and not negated ("no nuts",
  "nut-free"): evidence that the kitchen handles the allergen.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from dinecheck.allergens.ontology import ALLERGEN_CODES, LANGUAGES, Ontology, RiskLevel
from dinecheck.formula.filter import PhraseHit, PhraseMatcher, fold

EXPOSURE_LEVELS = frozenset({RiskLevel.DEFINITE, RiskLevel.DERIVED})
NAME_TYPES = frozenset({"CANONICAL", "COMMON", "TRANSLATION", "INFLECTION"})
_SENTENCE_END = re.compile(r"[.!?;\n]+")
_FREE_BEFORE = re.compile(r"(\w+)\W+free\W+$")
_NEGATION_WINDOW = 3  # words before a name that may negate it ("no peanuts", "without any nuts")


def _data_text(name: str) -> str:
    return (resources.files("dinecheck.risk") / "data" / name).read_text(encoding="utf-8")


def _word_list(name: str) -> frozenset[str]:
    return frozenset(ln.strip() for ln in _data_text(name).splitlines() if ln.strip() and not ln.startswith("#"))


@dataclass(frozen=True, slots=True)
class Term:
    """An allergen-bearing name: its folded text, the ingredient it names and the allergens it carries."""

    text: str
    ingredient_id: str
    allergens: frozenset[str]


@dataclass(frozen=True, slots=True)
class Mention:
    """A named allergen-bearing dish or ingredient in a review, with the sentence it occurs in (verbatim)."""

    term: str
    ingredient_id: str
    sentence: str


@dataclass(frozen=True, slots=True)
class ReviewScan:
    """What the vocabulary finds in one review (see the module docstring)."""

    needs_extraction: bool
    concerned: frozenset[str]
    exposure: dict[str, tuple[Mention, ...]] = field(default_factory=dict)
    allergy_sentences: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Sentence:
    start: int
    end: int


class Vocabulary:
    """The ontology-generated matcher for all allergens (build once per ontology; pure afterwards)."""

    def __init__(self, ontology: Ontology, codes: Sequence[str] = ALLERGEN_CODES) -> None:
        words = json.loads(_data_text("allergy_words.json"))
        false_friends = _word_list("english_false_friends.txt")
        ambiguous = _word_list("ambiguous_english_names.txt")
        self.codes = tuple(codes)
        self.allergen_names = {a.code: a.name.lower() for a in ontology.allergens.values()}
        wanted = set(self.codes)
        terms: dict[str, set[str]] = {}
        ingredient_of: dict[str, str] = {}
        for syns in ontology.synonyms.values():
            for s in syns:
                if s.type not in NAME_TYPES or (s.lang is not None and s.lang not in LANGUAGES):
                    continue
                name = " ".join(fold(s.text).split())
                if not name or name in ambiguous or (s.lang not in (None, "en") and name in false_friends):
                    continue
                codes_here = {p.code for p in ontology.allergen_paths(s.canonical_id) if p.level in EXPOSURE_LEVELS}
                codes_here &= wanted
                if not codes_here:
                    continue
                terms.setdefault(name, set()).update(codes_here)
                ingredient_of.setdefault(name, s.canonical_id)
        self.terms: dict[str, Term] = {t: Term(t, ingredient_of[t], frozenset(c)) for t, c in terms.items()}
        self.allergy_words = tuple(dict.fromkeys(" ".join(fold(w).split()) for ws in words["allergy"].values() for w in ws))
        self.symptom_words = tuple(dict.fromkeys(" ".join(fold(w).split()) for ws in words["symptom"].values() for w in ws))
        self.allergen_words: dict[str, frozenset[str]] = {}
        for code, ws in words["allergen_words"].items():
            if code in wanted:
                for w in ws:
                    key = " ".join(fold(w).split())
                    self.allergen_words[key] = self.allergen_words.get(key, frozenset()) | {code}
        self.negators = tuple(" ".join(fold(w).split()) for w in words["negators"])
        self.free_suffix = tuple(fold(w) for w in words["free_suffix"])
        entries: list[tuple[str, Any]] = [(t, ("term", t)) for t in self.terms]
        entries += [(w, ("allergy", w)) for w in self.allergy_words]
        entries += [(w, ("symptom", w)) for w in self.symptom_words]
        entries += [(w, ("named", w)) for w in self.allergen_words]
        self.matcher = PhraseMatcher(entries)
        self._negator_re = re.compile(
            r"(?:^|\W)(?:" + "|".join(re.escape(n) for n in sorted(self.negators, key=len, reverse=True)) + r")(?:\W+\w+){0,"
            + str(_NEGATION_WINDOW - 1) + r"}\W*$"
        )

    # ------------------------------------------------------------------------------------------------- filters
    def filter_keywords(self, code: str) -> list[str]:
        """The review filter of one allergen: every name carrying it plus the general allergy words (whole words)."""
        names = sorted(t for t, term in self.terms.items() if code in term.allergens)
        names += sorted(w for w, cs in self.allergen_words.items() if code in cs)
        return list(dict.fromkeys([*self.allergy_words, *self.symptom_words, *names]))

    def names_for(self, code: str) -> list[str]:
        """The ingredient and dish names carrying ``code`` (sorted)."""
        return sorted(t for t, term in self.terms.items() if code in term.allergens)

    # ------------------------------------------------------------------------------------------------- scanning
    def _negated(self, folded: str, start: int, end: int) -> bool:
        after = folded[end : end + 8].lstrip()
        if any(after.startswith(s) and (len(after) == len(s) or not after[len(s)].isalnum()) for s in self.free_suffix):
            return True
        before = folded[max(0, start - 40) : start]
        if self._negator_re.search(before):
            return True
        m = _FREE_BEFORE.search(before)  # "gluten-free pasta", "dairy free ice cream"
        return bool(m and (m.group(1) in self.terms or m.group(1) in self.allergen_words))

    def scan(self, text: str) -> ReviewScan:
        """Read one review once (pure)."""
        folded = fold(text)
        hits = list(self.matcher.iter_hits(text, folded))
        if not hits:
            return ReviewScan(False, frozenset())
        bounds = _sentences(folded)
        starts = [b.start for b in bounds]
        allergy_sent: set[int] = set()
        needs = False
        term_hits: list[tuple[int, Any]] = []
        hits = _outermost(hits)
        for h in hits:
            kind: str = h.value[0]  # type: ignore[index]
            si = bisect_right(starts, h.start) - 1
            if kind in ("allergy", "symptom"):
                needs = True
                allergy_sent.add(si)
            term_hits.append((si, h))
        context = allergy_sent | {i + 1 for i in allergy_sent}
        concerned: set[str] = set()
        exposure: dict[str, list[Mention]] = {}
        for si, h in term_hits:
            kind, key = h.value  # type: ignore[misc]
            if kind == "named":
                if si in context:
                    concerned |= self.allergen_words[key]
                continue
            if kind != "term":
                continue
            term = self.terms[key]
            if si in context:
                concerned |= term.allergens
                continue
            if self._negated(folded, h.start, h.end):
                continue
            b = bounds[si]
            sentence = text[b.start : b.end].strip()
            for code in term.allergens:
                exposure.setdefault(code, []).append(Mention(key, term.ingredient_id, sentence))
        quotes = tuple(text[bounds[i].start : bounds[i].end].strip() for i in sorted(allergy_sent))
        return ReviewScan(
            needs, frozenset(concerned), {c: tuple(ms) for c, ms in exposure.items()}, quotes
        )


def _outermost(hits: list[PhraseHit]) -> list[PhraseHit]:
    """Drop name hits inside a longer name hit ("butter" in "peanut butter"); other kinds are kept."""
    spans = [(h.start, h.end) for h in hits if h.value[0] == "term"]  # type: ignore[index]
    out = []
    for h in hits:
        if h.value[0] == "term" and any(s <= h.start and h.end <= e and (e - s) > (h.end - h.start) for s, e in spans):  # type: ignore[index]
            continue
        out.append(h)
    return out


def _sentences(folded: str) -> list[_Sentence]:
    """Sentence spans: text between runs of sentence-ending characters (each delimiter run ends one sentence)."""
    cuts = [(m.start(), m.end()) for m in _SENTENCE_END.finditer(folded)]
    starts = [0, *(e for _, e in cuts)]
    ends = [*(s for s, _ in cuts), len(folded)]
    return [_Sentence(a, b) for a, b in zip(starts, ends)]




def allergen_codes(codes: Iterable[str]) -> tuple[str, ...]:
    """Codes in canonical order, deduplicated."""
    wanted = set(codes)
    return tuple(c for c in ALLERGEN_CODES if c in wanted)
