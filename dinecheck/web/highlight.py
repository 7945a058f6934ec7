"""Text highlighting for pages (pure): label text split into segments marked by allergen level, and review text
split into segments with the quoted sentences marked. Templates escape every segment; nothing here builds HTML.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from dinecheck.allergens.detect import ingredient_findings
from dinecheck.allergens.normalize import is_known, keeps_allergens, memo_for, normalize, split_keeps
from dinecheck.allergens.ontology import Ontology, RiskLevel
from dinecheck.allergens.phrases import find_phrases
from dinecheck.allergens.tokenize import tokenize


@dataclass(frozen=True)
class Segment:
    """A piece of text; ``mark`` is a level (``DEFINITE``…), ``"quote"``, ``"unknown"`` or None; ``note`` explains."""

    text: str
    mark: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Mark:
    start: int
    end: int
    mark: str
    note: str
    rank: int = 0


def segments(text: str, marks: Iterable[Mark]) -> list[Segment]:
    """Cut ``text`` at the marks; where marks overlap the higher ``rank`` wins, then the earlier one."""
    chosen: list[Mark] = []
    for m in sorted(marks, key=lambda m: (-m.rank, m.start, m.end)):
        if m.start < 0 or m.end > len(text) or m.start >= m.end:
            continue
        if any(m.start < c.end and c.start < m.end for c in chosen):
            continue
        chosen.append(m)
    out: list[Segment] = []
    pos = 0
    for m in sorted(chosen, key=lambda m: m.start):
        if m.start > pos:
            out.append(Segment(text[pos:m.start]))
        out.append(Segment(text[m.start:m.end], m.mark, m.note))
        pos = m.end
    if pos < len(text):
        out.append(Segment(text[pos:]))
    return out


def label_marks(text: str, profile: Collection[str], ontology: Ontology) -> list[Mark]:
    """One mark per ingredient token that carries a profile allergen (its highest level), per risk phrase, and per
    unknown token — the same stages as :func:`~dinecheck.allergens.pipeline.check_label`, kept per token."""
    scan = find_phrases(text, ontology)
    memo = memo_for(ontology)
    tokens = tokenize(text, scan.masks, known=lambda key: is_known(key, ontology),
                      keeps=lambda word, reading: keeps_allergens(word, reading, ontology),
                      plans=memo.plans if memo is not None else None,
                      splits=lambda whole, parts: split_keeps(whole, parts, ontology))
    codes = frozenset(profile)
    marks: list[Mark] = []
    for res in normalize(tokens, ontology):
        if res.rule == "note":
            continue
        found = ingredient_findings([res], codes, ontology, scan.capped)
        if found:
            top = max(found, key=lambda f: f.level.rank)
            note = "; ".join(f"{f.code} {f.level.value}: {f.explanation}" for f in found)
            marks.append(Mark(res.token.span[0], res.token.span[1], top.level.value, note, top.level.rank))
        elif not res.synonyms:
            marks.append(Mark(res.token.span[0], res.token.span[1], "unknown", "not in the ontology", 0))
    for hit in scan.hits:
        named = ", ".join(hit.allergens) or "every allergen"
        marks.append(Mark(hit.span[0], hit.span[1], hit.level.value, f"{hit.type}: {hit.phrase!r} ({named})",
                          hit.level.rank + 10))
    return marks


def quote_marks(text: str, quotes: Sequence[str]) -> list[Mark]:
    """Marks for every quoted sentence found in ``text`` (exact, else case-insensitive)."""
    marks = []
    low = text.lower()
    for q in quotes:
        q = q.strip()
        if not q:
            continue
        at = text.find(q)
        if at < 0:
            at = low.find(q.lower())
        if at >= 0:
            marks.append(Mark(at, at + len(q), "quote", "quoted as evidence"))
    return marks


LEVELS = tuple(level.value for level in RiskLevel)
