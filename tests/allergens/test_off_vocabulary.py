"""The OFF ingredients/processing vocabulary: when an OFF entry counts as allergen-free (anchored, nothing inherited),
inheritance from parents, properties and allergen words, unknown composition, idempotent import, kind detection."""

from __future__ import annotations

from pathlib import Path

import pytest

from dinecheck.allergens.off_import import parse_taxonomy
from dinecheck.allergens.off_vocabulary import detect_kind, import_vocabulary, plan_ingredients, plan_processing
from dinecheck.allergens.ontology import RiskLevel, load_data_dir
from dinecheck.allergens.pipeline import check_label
from dinecheck.allergens.store import open_store

ONTO = load_data_dir()
P, V = RiskLevel.POSSIBLE, RiskLevel.DERIVED

TAX = parse_taxonomy(
    "en: fruit\nfr: fruit\n\nen: cheese\n\n"
    "< en:fruit\nen: zorblax fruit, zorblax\nde: Zorblaxfrucht\n\n"  # anchored through its parent: allergen-free
    "< en:zorblax fruit\nen: zorblax nectar\n\n"  # grandchild: still free
    "< en:cheese\nen: quorgle cheese\n\n"  # parent is our cheese: MILK
    "en: flurbish\nallergens:en: en:sesame seeds\n< en:fruit\n\n"  # property: SESAME
    "en: wibblewheat crunch\n< en:fruit\n\n"  # a name word is an allergen name: WHEAT possible
    "en: mystery dish\n\n"  # not anchored: unknown composition
    "< en:mystery dish\n< en:zorblax fruit\nen: half mystery\n",  # one anchored parent suffices to anchor
    "t.txt",
)


def plan_levels() -> dict[str, dict[str, RiskLevel]]:
    plan = plan_ingredients(TAX, ONTO)
    ings = {i.id: dict(i.allergens) for i in plan.ingredients}
    out = {}
    for s in plan.synonyms:
        if s.canonical_id in ings:
            out[s.text] = ings[s.canonical_id]
        else:  # lent to an ingredient the ontology already has
            out[s.text] = {p.code: p.level for p in ONTO.allergen_paths(s.canonical_id)}
    return out


def test_an_anchored_entry_with_nothing_inherited_is_allergen_free() -> None:
    levels = plan_levels()
    assert levels["zorblax"] == {} and levels["Zorblaxfrucht"] == {} and levels["zorblax nectar"] == {}


def test_parents_properties_and_allergen_words_are_inherited() -> None:
    levels = plan_levels()
    assert levels["quorgle cheese"]["MILK"] in (V, RiskLevel.DEFINITE)
    assert levels["flurbish"] == {"SESAME": V}
    assert levels["wibblewheat crunch"].get("WHEAT") is None or levels["wibblewheat crunch"]["WHEAT"] is P


def test_an_entry_not_anchored_is_of_unknown_composition_every_allergen_possible() -> None:
    levels = plan_levels()
    assert set(levels["mystery dish"].values()) == {P} and len(levels["mystery dish"]) == 15
    assert "MILK" in levels["half mystery"] and levels["half mystery"]["MILK"] is P  # inherits the doubt


def test_known_keys_are_never_overridden() -> None:
    plan = plan_ingredients(TAX, ONTO)
    assert "fruit" not in {s.text for s in plan.synonyms}


def test_import_is_idempotent_and_the_vocabulary_is_used(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 's.sqlite'}") as store:
        first = import_vocabulary(store, TAX, "ingredients")
        again = import_vocabulary(store, TAX, "ingredients")
        assert first.added > 0 and again.added == 0 and again.ontology_version == first.ontology_version
        onto = store.ontology()
        assert check_label("sugar, zorblax", ["MILK", "PEANUT"], onto).verdict == "SAFE"
        assert check_label("sugar, mystery dish", ["PEANUT"], onto).verdict == "VERIFY"
        assert check_label("sugar, quorgle cheese", ["MILK"], onto).verdict == "AVOID"


def test_processing_words_become_modifiers_but_never_unsafe_ones(tmp_path: Path) -> None:
    tax = parse_taxonomy("en: zapped\nfr: zappé\n\nen: fried\n\nen: milk\n\nen: free\n", "p.txt")
    plan = plan_processing(tax, ONTO)
    assert {s.text for s in plan.synonyms} >= {"zapped", "zappé"}
    with open_store(f"sqlite:///{tmp_path / 's.sqlite'}") as store:
        import_vocabulary(store, tax, "processing")
        onto = store.ontology()
        assert "zapped" in onto.modifiers and "fried" not in onto.modifiers and "free" not in onto.modifiers
        assert "milk" not in onto.modifiers
        assert check_label("zapped cashews", ["TREE_NUTS"], onto).verdict == "AVOID"


@pytest.mark.parametrize(("text", "kind"), [
    ("en: gluten\n\nen: milk\n\nen: eggs\n\nen: fish\n\nen: peanuts\n", "allergens"),
    ("en: dried\n\nen: roasted\n", "processing"),
    ("< en:fruit\nen: kiwi\n", "ingredients"),
    ("en: something\n", None),
])  # fmt: skip
def test_the_kind_is_detected_from_the_content(text: str, kind: str | None) -> None:
    assert detect_kind(parse_taxonomy(text, "t.txt")) == kind
