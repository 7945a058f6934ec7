"""Risk phrases on the raw label text, found BEFORE tokenisation (stage 1 of the allergen pipeline).

Owns :class:`PhraseHit` and :func:`find_phrases`. (Work in progress: the matcher is being filled in.)
"""

from __future__ import annotations

from dataclasses import dataclass

from dinecheck.allergens.ontology import RiskLevel


@dataclass(frozen=True, slots=True)
class PhraseHit:
    """One risk statement found on a label: the phrase matched, its type and level, the allergen codes it names
    (empty for a generic phrase, which then applies to every profile allergen) and its span in the raw text."""

    phrase: str
    type: str
    level: RiskLevel
    allergens: tuple[str, ...]
    span: tuple[int, int]

    def to_json(self) -> dict:
        return {"phrase": self.phrase, "type": self.type, "level": self.level.value,
                "allergens": list(self.allergens), "span": list(self.span)}  # fmt: skip
