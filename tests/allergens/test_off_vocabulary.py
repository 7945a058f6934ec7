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


def test_the_doubt_of_a_category_stops_at_an_entry_that_is_our_ingredient_by_name() -> None:
    """OFF files "pork" under "animal" (unknown composition here): our pork says what pork may hold, so pork, and a
    kind of pork, do not take the category's doubt; an entry that is not ours under the same category does."""
    tax = parse_taxonomy(
        "en: zorbanimal\n\n"  # a category of unknown composition
        "< en:zorbanimal\nen: pork\nit: zorbsuino\n\n"  # our pork by its English name
        "< en:pork\nen: zorbpork belly\n\n"  # a kind of pork
        "< en:zorbanimal\nen: zorbbeast\n\n"  # not ours: the doubt stays
        "< en:zorbanimal\nen: cheese\nit: zorbformaggio\n",  # ours, with an allergen: kept
        "t.txt",
    )
    plan = plan_ingredients(tax, ONTO)
    ings = {i.id: dict(i.allergens) for i in plan.ingredients}
    levels = {s.text: ings[s.canonical_id] if s.canonical_id in ings else
              {p.code: p.level for p in ONTO.allergen_paths(s.canonical_id)} for s in plan.synonyms}  # fmt: skip
    assert levels["zorbsuino"] == {} and levels["zorbpork belly"] == {}
    assert set(levels["zorbbeast"].values()) == {P} and len(levels["zorbbeast"]) == 15
    assert levels["zorbformaggio"].get("MILK") in (V, RiskLevel.DEFINITE) and "PEANUT" not in levels["zorbformaggio"]
    assert check_label("zorbpork belly, salt", ["PEANUT"], ONTO).verdict == "VERIFY"  # not imported: unknown


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


def test_an_entry_lends_its_names_only_when_its_own_name_reads_as_our_ingredient() -> None:
    """OFF's "protein" has the German name "Eiweiß", which is also egg white: its names are not lent to egg white
    (so "protein" never reads as egg), and a nutrition-table word never becomes a name (rows stay maskable)."""
    tax = parse_taxonomy("en: protein, proteins, gloppin\nde: Protein, Eiweiß\n\nen: egg white, blorbumen\n", "t.txt")
    plan = plan_ingredients(tax, ONTO)
    where = {s.text: s.canonical_id for s in plan.synonyms}
    assert where["blorbumen"] == "egg_white"  # its own name is our egg white: its other names are lent
    assert where["gloppin"] != "egg_white" and "protein" not in where and "proteins" not in where
    own = next(i for i in plan.ingredients if i.id == where["gloppin"])
    assert own.allergens["EGG"] is RiskLevel.DEFINITE  # what "Eiweiß" may mean stays with the entry itself


def test_a_name_the_label_reader_reads_whole_is_not_shadowed_by_an_entry_of_unknown_composition() -> None:
    tax = parse_taxonomy("en: sugar and salt, zibble stew\n", "t.txt")  # not anchored: every allergen POSSIBLE
    names = {s.text for s in plan_ingredients(tax, ONTO).synonyms}
    assert "sugar and salt" not in names  # read as sugar | salt: the OFF name would only add doubt
    assert "zibble stew" in names  # unknown to us: the OFF name makes it a known word (still never SAFE)


def test_a_name_of_unknown_composition_is_read_through_its_declared_components(tmp_path: Path) -> None:
    tax = parse_taxonomy("en: zibble sauce\n\nen: milky zibble\n", "t.txt")
    with open_store(f"sqlite:///{tmp_path / 's.sqlite'}") as store:
        import_vocabulary(store, tax, "ingredients")
        onto = store.ontology()
        assert check_label("zibble sauce", ["MILK"], onto).verdict == "VERIFY"  # a name, nothing more
        assert check_label("zibble sauce (tomatoes, salt)", ["MILK", "SHELLFISH"], onto).verdict == "SAFE"
        # the label lists its components, but an allergen word inside the name still counts
        r = check_label("zibble sauce with milk (tomatoes, salt)", ["MILK"], onto)
        assert r.verdict != "SAFE"


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
