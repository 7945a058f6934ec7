"""Declared allergens/traces of a product record: parsed strictly, and never lost (a declared risk is never SAFE)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.declared import Declaration, declaration_from, declared_findings
from dinecheck.allergens.ontology import ALLERGEN_CODES, RiskLevel, load_data_dir
from dinecheck.allergens.pipeline import check_label
from dinecheck.errors import DataError

CLEAN = "Water, sugar, salt"


@pytest.fixture(scope="module")
def onto():
    return load_data_dir()


def test_declaration_from_reads_codes_case_insensitively_and_dedupes() -> None:
    decl = declaration_from({"allergens": ["milk", "MILK", " soy "], "traces": ["peanut"]}, "f:3")
    assert decl == Declaration(("MILK", "SOY"), ("PEANUT",))


def test_traces_known_false_voids_the_traces() -> None:
    assert declaration_from({"traces": ["PEANUT"], "traces_known": False}, "f:1") == Declaration((), ())


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"allergens": "MILK"}, 'f:2: "allergens" must be a list of allergen codes'),
        ({"traces": ["NUTS"]}, 'f:2: "traces" has unknown allergen code(s) NUTS; known: PEANUT, MILK'),
        ({"traces": [1]}, 'f:2: "traces" must be a list of allergen codes'),
        ({"traces_known": "yes"}, 'f:2: "traces_known" must be true or false'),
    ],
)
def test_bad_declarations_name_the_line(obj: dict, message: str) -> None:
    with pytest.raises(DataError) as exc:
        declaration_from(obj, "f:2")
    assert str(exc.value).startswith(message)


def test_levels_and_related_codes() -> None:
    found = {(f.code, f.level) for f in declared_findings(Declaration(("GLUTEN",), ("SHELLFISH",)), ALLERGEN_CODES)}
    assert found == {
        ("GLUTEN", RiskLevel.DEFINITE),
        ("WHEAT", RiskLevel.POSSIBLE),  # a GLUTEN tag also stands for wheat
        ("SHELLFISH", RiskLevel.TRACE),
        ("MOLLUSCS", RiskLevel.TRACE),
    }
    wheat = {(f.code, f.level) for f in declared_findings(Declaration(("WHEAT",)), ["GLUTEN"])}
    assert wheat == {("GLUTEN", RiskLevel.DEFINITE)}


def test_only_profile_allergens_are_reported() -> None:
    assert declared_findings(Declaration(("MILK",), ("SOY",)), ["PEANUT"]) == []


def test_a_declared_trace_turns_a_clean_label_into_verify(onto) -> None:
    assert check_label(CLEAN, ["TREE_NUTS"], onto).verdict == "SAFE"
    r = check_label(CLEAN, ["TREE_NUTS"], onto, Declaration((), ("TREE_NUTS",)))
    assert r.verdict == "VERIFY"
    assert r.to_json("x")["allergens"] == [
        {"code": "TREE_NUTS", "level": "TRACE", "source": "declared", "token": "TREE_NUTS", "span": None}
    ]
    assert r.review_reasons[0] == "may contain TREE_NUTS (TRACE): the product declares TREE_NUTS as a possible trace"


def test_text_evidence_is_kept_when_it_ties_with_a_declaration(onto) -> None:
    r = check_label("Milk, sugar", ["MILK"], onto, Declaration(("MILK",)))
    assert r.verdict == "AVOID"
    assert [(f.code, f.source, f.token) for f in r.findings] == [("MILK", "ingredient", "Milk")]


@settings(max_examples=60, deadline=None)
@given(
    allergens=st.lists(st.sampled_from(ALLERGEN_CODES), max_size=3),
    traces=st.lists(st.sampled_from(ALLERGEN_CODES), max_size=3),
    extra=st.lists(st.sampled_from(ALLERGEN_CODES), max_size=3),
)
def test_a_declared_profile_allergen_is_never_safe(onto, allergens, traces, extra) -> None:
    declared = Declaration(tuple(dict.fromkeys(allergens)), tuple(dict.fromkeys(traces)))
    for code in {*allergens, *traces}:
        verdict = check_label(CLEAN, [code, *extra], onto, declared).verdict
        assert verdict != "SAFE"
        if code in allergens:
            assert verdict == "AVOID"
