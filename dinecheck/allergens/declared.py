"""Allergen declarations that a product record carries besides its ingredient text.

Product databases (Open Food Facts, GS1 feeds) hold the producer's allergen statement as structured fields —
``allergens`` (contained) and ``traces`` (may contain) — which the printed ingredient text does not always repeat (a
"may contain" line on another panel, a tag from the producer's own data). Ignoring them would turn a declared risk
into a SAFE, so a declaration is a fact like any other: a declared allergen is DEFINITE, a declared trace is TRACE.

Related codes are flagged too, because sources code them loosely: GLUTEN also stands for wheat (→ WHEAT POSSIBLE, or
TRACE for a trace), WHEAT implies GLUTEN (same level), and SHELLFISH/MOLLUSCS flag each other as POSSIBLE (TRACE).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from dinecheck.allergens.detect import Finding
from dinecheck.allergens.ontology import ALLERGEN_CODES, RiskLevel
from dinecheck.errors import DataError

# declared code → (related code, level for a declared allergen); a declared trace gives TRACE for both
RELATED: Mapping[str, tuple[tuple[str, RiskLevel], ...]] = {
    "GLUTEN": (("WHEAT", RiskLevel.POSSIBLE),),
    "WHEAT": (("GLUTEN", RiskLevel.DEFINITE),),
    "SHELLFISH": (("MOLLUSCS", RiskLevel.POSSIBLE),),
    "MOLLUSCS": (("SHELLFISH", RiskLevel.POSSIBLE),),
}


@dataclass(frozen=True, slots=True)
class Declaration:
    """The allergen codes a product declares as contained (``allergens``) and as possible traces (``traces``)."""

    allergens: tuple[str, ...] = ()
    traces: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.allergens or self.traces)


def _codes(value: Any, field: str, loc: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(f"\"{field}\" must be a list of allergen codes", loc)
    codes = [v.strip().upper() for v in value]
    unknown = [c for c in codes if c not in ALLERGEN_CODES]
    if unknown:
        raise DataError(f"\"{field}\" has unknown allergen code(s) {', '.join(unknown)}; known: "
                        f"{', '.join(ALLERGEN_CODES)}", loc)  # fmt: skip
    return tuple(dict.fromkeys(codes))


def declaration_from(obj: Mapping[str, Any], loc: str) -> Declaration:
    """Read ``allergens`` / ``traces`` (lists of codes) from an input record. ``traces_known: false`` means the record's
    ``traces`` field carries no information (Open Food Facts convention), so it is ignored."""
    allergens = _codes(obj.get("allergens"), "allergens", loc)
    known = obj.get("traces_known", True)
    if not isinstance(known, bool):
        raise DataError("\"traces_known\" must be true or false", loc)
    traces = _codes(obj.get("traces"), "traces", loc) if known else ()
    return Declaration(allergens, traces)


def declared_findings(declaration: Declaration | None, profile: Collection[str]) -> list[Finding]:
    """One finding per profile allergen the declaration names (directly or through a related code)."""
    if not declaration:
        return []
    out: list[Finding] = []

    def add(code: str, level: RiskLevel, declared: str, kind: str) -> None:
        if code in profile:
            how = f"the product declares {declared} as {kind}" + (f", which covers {code}" if code != declared else "")
            path = (f"declared {kind}", declared, code) if code != declared else (f"declared {kind}", code)
            out.append(Finding(code, level, "declared", declared, None, path, how))

    for code in declaration.allergens:
        add(code, RiskLevel.DEFINITE, code, "an allergen")
        for rel, level in RELATED.get(code, ()):
            add(rel, level, code, "an allergen")
    for code in declaration.traces:
        add(code, RiskLevel.TRACE, code, "a possible trace")
        for rel, _level in RELATED.get(code, ()):
            add(rel, RiskLevel.TRACE, code, "a possible trace")
    return out
