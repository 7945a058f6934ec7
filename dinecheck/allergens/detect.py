"""Detection of profile allergens from resolved tokens and risk phrases (stage 4). Owns :class:`Finding`.

(Work in progress: the detector is being filled in.)
"""

from __future__ import annotations

from dataclasses import dataclass

from dinecheck.allergens.ontology import RiskLevel


@dataclass(frozen=True, slots=True)
class Finding:
    """One profile allergen found on a label, with the evidence: ``source`` is ``"ingredient"`` or ``"phrase"``;
    ``token`` the label text that triggered it; ``span`` its position in the raw text; ``path`` the chain
    synonym → canonical → compound part(s) → allergen code; ``explanation`` one human sentence."""

    code: str
    level: RiskLevel
    source: str
    token: str
    span: tuple[int, int]
    path: tuple[str, ...]
    explanation: str

    def to_json(self) -> dict:
        return {"code": self.code, "level": self.level.value, "source": self.source, "token": self.token,
                "span": list(self.span)}  # fmt: skip
