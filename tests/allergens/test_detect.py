"""Detection: levels, compound expansion with paths, phrases (named and generic), profile filter, dedup."""

from __future__ import annotations

from pathlib import Path

import pytest

from dinecheck.allergens.detect import Finding, dedupe, detect
from dinecheck.allergens.normalize import normalize
from dinecheck.allergens.ontology import RiskLevel, load_data_dir
from dinecheck.allergens.phrases import find_phrases
from dinecheck.allergens.tokenize import tokenize

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "allergens_mini"


@pytest.fixture(scope="module")
def onto():
    return load_data_dir(MINI)


def run(text: str, profile, onto) -> tuple[Finding, ...]:
    scan = find_phrases(text, onto)
    return detect(normalize(tokenize(text, scan.masks), onto), scan.hits, profile, onto)


def test_groundnut_is_peanut_definite_with_its_path(onto) -> None:
    [f] = run("groundnut", ["PEANUT"], onto)
    assert (f.code, f.level, f.source, f.token, f.span, f.path) == (
        "PEANUT", RiskLevel.DEFINITE, "ingredient", "groundnut", (0, 9), ("groundnut", "peanut", "PEANUT"),
    )  # fmt: skip


def test_compound_expansion_whey_protein_concentrate_is_milk_derived(onto) -> None:
    [f] = run("whey protein concentrate", ["MILK"], onto)
    assert f.level is RiskLevel.DERIVED
    assert f.path in (
        ("whey protein concentrate", "whey_protein_concentrate", "whey", "MILK"),
        ("whey protein concentrate", "whey_protein_concentrate", "milk_protein", "MILK"),
    )
    assert "whey_protein_concentrate → " in f.explanation


def test_only_profile_allergens_are_reported(onto) -> None:
    assert run("milk, peanuts", ["SOY"], onto) == ()
    assert [f.code for f in run("milk, peanuts", ["PEANUT", "MILK"], onto)] == ["PEANUT", "MILK"]


def test_generic_phrase_applies_to_every_profile_allergen(onto) -> None:
    found = run("sugar. Produced in a facility that also processes.", ["PEANUT", "SESAME"], onto)
    assert [(f.code, f.level, f.source) for f in found] == [
        ("PEANUT", RiskLevel.POSSIBLE, "phrase"), ("SESAME", RiskLevel.POSSIBLE, "phrase"),
    ]  # fmt: skip


def test_named_phrase_applies_to_named_allergens_only(onto) -> None:
    found = run("sugar. May contain traces of sesame.", ["PEANUT", "SESAME"], onto)
    assert [(f.code, f.level) for f in found] == [("SESAME", RiskLevel.TRACE)]


def test_may_contain_nuts_flags_tree_nuts_possible_and_not_as_an_ingredient(onto) -> None:
    [f] = run("sugar. May contain nuts.", ["TREE_NUTS"], onto)
    assert (f.level, f.source) == (RiskLevel.POSSIBLE, "phrase")


def test_dedup_keeps_highest_risk(onto) -> None:
    found = run("peanuts. May contain traces of peanuts.", ["PEANUT"], onto)
    assert [(f.code, f.level, f.source) for f in found] == [("PEANUT", RiskLevel.DEFINITE, "ingredient")]
    a = Finding("MILK", RiskLevel.TRACE, "phrase", "x", (0, 1), (), "")
    b = Finding("MILK", RiskLevel.DERIVED, "ingredient", "y", (5, 6), (), "")
    c = Finding("MILK", RiskLevel.DERIVED, "ingredient", "z", (2, 3), (), "")
    [best] = dedupe([a, b, c])
    assert (best.token, best.level, best.span) == ("z", RiskLevel.DERIVED, (2, 3))
    # every piece of evidence is kept, in text order (issue 8: every source is shown)
    assert [(t, sp, lv) for t, sp, lv, _s in best.sources] == [
        ("x", (0, 1), RiskLevel.TRACE), ("z", (2, 3), RiskLevel.DERIVED), ("y", (5, 6), RiskLevel.DERIVED)]


def test_every_source_of_an_allergen_is_listed(onto) -> None:
    [f] = run("milk, sugar, whey protein concentrate", ["MILK"], onto)
    assert [t for t, _sp, _lv, _src in f.sources] == ["milk", "whey protein concentrate"]
    assert f.to_json()["sources"][1] == {"token": "whey protein concentrate", "span": [13, 37], "level": "DERIVED",
                                         "source": "ingredient"}
    [single] = run("milk, sugar", ["MILK"], onto)
    assert "sources" not in single.to_json()  # one piece of evidence: the contract's fields only


def test_contains_milk_makes_milk_definite_without_any_milk_token(onto) -> None:
    [f] = run("sugar, salt. Contains: milk", ["MILK"], onto)
    assert f.level is RiskLevel.DEFINITE  # the list item is also a token; both say DEFINITE
    scan = find_phrases("Contains: milk", onto)
    assert detect((), scan.hits, ["MILK"], onto)[0].level is RiskLevel.DEFINITE  # the phrase alone suffices


def test_possible_level_from_data_is_kept(onto) -> None:
    [f] = run("emulsifier: E322", ["SOY"], onto)
    assert (f.level, f.token) == (RiskLevel.POSSIBLE, "E322")


def test_words_inside_an_unknown_token_give_possible_hints_only(onto) -> None:
    [f] = run("ROASTED PEANUTS SUGAR", ["PEANUT"], onto)
    assert (f.code, f.level, f.source, f.path) == ("PEANUT", RiskLevel.POSSIBLE, "unknown", ("peanuts", "peanut", "PEANUT"))
    assert run("buckwheat groats", ["WHEAT", "GLUTEN"], onto) == ()
    assert run("nutmeg butter blend", ["TREE_NUTS"], onto) == ()
