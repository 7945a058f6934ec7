"""The verdict: safety facts → SAFE / AVOID / VERIFY with confidence and the reasons (stage 5).

* AVOID when any profile allergen is DEFINITE or DERIVED.
* Otherwise VERIFY when any profile allergen is POSSIBLE or TRACE, any ingredient is unknown (unmatched), the label
  has no ingredient at all (empty input), the confidence is below :data:`SAFE_MIN_CONFIDENCE`, or the pipeline
  reports a doubt (a token it could only read as several names).
* SAFE only when every fact is clean.

Confidence (spec "Confidence degradation"): start at 1.0; × 0.7 when any token is unmatched; × 0.8 when any risk
phrase is present; × the match rate (matched / processed ingredient tokens; 0 when there is none). A label with a
risk phrase therefore scores at most 0.8 < 0.9 and is never SAFE, even when the phrase names only allergens outside
the profile (the spec: risk phrases require manual review). Level names: HIGH ≥ 0.9, MEDIUM ≥ 0.6, else LOW.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from dinecheck.allergens.detect import Finding
from dinecheck.allergens.ontology import RiskLevel
from dinecheck.allergens.phrases import PhraseHit

UNMATCHED_FACTOR = 0.7
RISK_PHRASE_FACTOR = 0.8
SAFE_MIN_CONFIDENCE = 0.9
MEDIUM_CONFIDENCE = 0.6

Verdict = Literal["SAFE", "AVOID", "VERIFY"]


@dataclass(frozen=True, slots=True)
class Decision:
    verdict: Verdict
    confidence: float
    confidence_level: Literal["HIGH", "MEDIUM", "LOW"]
    match_rate: float
    reasons: tuple[str, ...]


def confidence_of(
    tokens_processed: int, tokens_matched: int, has_unmatched: bool, has_phrases: bool
) -> tuple[float, float]:
    """``(confidence, match_rate)`` per the spec's degradation rules."""
    match_rate = tokens_matched / tokens_processed if tokens_processed else 0.0
    confidence = 1.0
    if has_unmatched:
        confidence *= UNMATCHED_FACTOR
    if has_phrases:
        confidence *= RISK_PHRASE_FACTOR
    return confidence * match_rate, match_rate


def decide(
    findings: Sequence[Finding],
    unmatched: Sequence[str],
    hits: Sequence[PhraseHit],
    tokens_processed: int,
    tokens_matched: int,
    doubts: Sequence[str] = (),
    notes: Sequence[str] = (),
) -> Decision:
    """``doubts`` are further reasons for review found upstream (e.g. a token read as several names); ``notes`` are
    readings the pipeline made without doubting them (e.g. an unknown name read as the compound its listed components
    declare): shown last among the reasons, they never change the verdict."""
    confidence, match_rate = confidence_of(tokens_processed, tokens_matched, bool(unmatched), bool(hits))
    level: Literal["HIGH", "MEDIUM", "LOW"] = (
        "HIGH" if confidence >= SAFE_MIN_CONFIDENCE else "MEDIUM" if confidence >= MEDIUM_CONFIDENCE else "LOW"
    )
    reasons: list[str] = []
    definite = [f for f in findings if f.level in (RiskLevel.DEFINITE, RiskLevel.DERIVED)]
    possible = [f for f in findings if f.level in (RiskLevel.POSSIBLE, RiskLevel.TRACE)]
    for f in definite:
        reasons.append(f"contains {f.code} ({f.level.value}): {f.explanation}")
    for f in possible:
        reasons.append(f"may contain {f.code} ({f.level.value}): {f.explanation}")
    if tokens_processed == 0:
        reasons.append("no ingredient could be read from the label (empty input)")
    if unmatched:
        more = f" and {len(unmatched) - 10} more" if len(unmatched) > 10 else ""
        shown = ", ".join(repr(u) for u in unmatched[:10]) + more
        reasons.append(f"unknown ingredient(s), which could contain allergens: {shown}")
    if hits:
        reasons.append("the label carries risk statements: " + "; ".join(repr(h.phrase) for h in hits))
    reasons.extend(doubts)
    if confidence < SAFE_MIN_CONFIDENCE:
        reasons.append(f"confidence {confidence:.2f} is below {SAFE_MIN_CONFIDENCE:.2f} (match rate {match_rate:.2f})")
    if definite:
        verdict: Verdict = "AVOID"
    elif possible or unmatched or doubts or tokens_processed == 0 or confidence < SAFE_MIN_CONFIDENCE:
        verdict = "VERIFY"
    else:
        verdict = "SAFE"
    reasons.extend(notes)
    return Decision(verdict, confidence, level, match_rate, tuple(dict.fromkeys(reasons)))
