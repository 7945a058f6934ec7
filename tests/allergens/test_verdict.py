"""Verdict rules and confidence degradation."""

from __future__ import annotations

import pytest

from dinecheck.allergens.detect import Finding
from dinecheck.allergens.ontology import RiskLevel
from dinecheck.allergens.phrases import PhraseHit
from dinecheck.allergens.verdict import confidence_of, decide


def f(level: RiskLevel, code: str = "MILK") -> Finding:
    return Finding(code, level, "ingredient", "milk", (0, 4), ("milk", "milk", code), "why")


HIT = PhraseHit("may contain", "CROSS_CONTAMINATION", RiskLevel.POSSIBLE, ("SOY",), (0, 11))


def test_all_clean_is_safe_with_full_confidence() -> None:
    d = decide([], [], [], 3, 3)
    assert (d.verdict, d.confidence, d.confidence_level, d.match_rate, d.reasons) == ("SAFE", 1.0, "HIGH", 1.0, ())


@pytest.mark.parametrize("level", [RiskLevel.DEFINITE, RiskLevel.DERIVED])
def test_definite_or_derived_is_avoid_even_with_other_doubts(level: RiskLevel) -> None:
    assert decide([f(level)], ["gizmo"], [HIT], 3, 2).verdict == "AVOID"


@pytest.mark.parametrize("level", [RiskLevel.POSSIBLE, RiskLevel.TRACE])
def test_possible_or_trace_is_verify(level: RiskLevel) -> None:
    d = decide([f(level)], [], [], 3, 3)
    assert d.verdict == "VERIFY" and d.reasons[0].startswith(f"may contain MILK ({level.value})")


def test_unknown_ingredient_is_verify_with_the_reason() -> None:
    d = decide([], ["gizmo"], [], 2, 1)
    assert d.verdict == "VERIFY"
    assert "unknown ingredient(s), which could contain allergens: 'gizmo'" in d.reasons
    assert d.confidence == pytest.approx(0.7 * 0.5)


def test_empty_input_is_verify() -> None:
    d = decide([], [], [], 0, 0)
    assert d.verdict == "VERIFY" and d.confidence == 0.0 and d.confidence_level == "LOW"
    assert d.reasons[0] == "no ingredient could be read from the label (empty input)"


def test_a_risk_phrase_for_another_allergen_still_prevents_safe() -> None:
    d = decide([], [], [HIT], 4, 4)
    assert (d.verdict, d.confidence, d.confidence_level) == ("VERIFY", pytest.approx(0.8), "MEDIUM")


def test_confidence_degradation_multiplies() -> None:
    assert confidence_of(10, 8, True, True) == (pytest.approx(0.7 * 0.8 * 0.8), 0.8)
    assert confidence_of(0, 0, False, False) == (0.0, 0.0)
