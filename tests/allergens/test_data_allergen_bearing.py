"""The shipped allergen-bearing ontology data (``data/ingredients/a_*.jsonl``): invariants and pinned facts.

Checks the data files themselves with the real loader — one canonical per lookup key across the whole ontology, a
non-empty allergen map on every ``a_`` entry, all five languages per family — and pins the allergen (and level) that
specific label words must resolve to, plus the look-alike words that must NOT carry the allergen their name suggests.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.ontology import LANGUAGES, Ontology, RiskLevel, load_data_dir
from dinecheck.allergens.text import lookup_key

DATA = Path(str(resources.files("dinecheck.allergens") / "data" / "ingredients"))
A_FILES = sorted(DATA.glob("a_*.jsonl"))
FAMILY_FILES = ("a_peanut", "a_milk", "a_egg", "a_cereals", "a_soy", "a_tree_nuts", "a_fish", "a_crustaceans",
                "a_molluscs", "a_sesame", "a_mustard", "a_celery", "a_lupin", "a_sulphites", "a_compounds",
                "a_unspecified_en")  # fmt: skip
# English-only by design: the English names of unspecified spices/flavourings (CELERY/MUSTARD POSSIBLE, because US
# law need not name them); their EU-language names stay allergen-free (EU law forces celery/mustard to be named)
ENGLISH_ONLY_FILES = {"a_unspecified_en.jsonl"}

D, V, P = RiskLevel.DEFINITE, RiskLevel.DERIVED, RiskLevel.POSSIBLE


@pytest.fixture(scope="module")
def onto() -> Ontology:
    return load_data_dir()


def a_entries() -> list[tuple[str, int, dict]]:
    out = []
    for path in A_FILES:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                out.append((path.name, lineno, json.loads(line)))
    return out


def levels(onto: Ontology, text: str) -> dict[str, RiskLevel]:
    """Highest level per allergen over every canonical the exact key of ``text`` names."""
    syns = onto.lookup(lookup_key(text))
    assert syns, f"{text!r} has no exact key in the ontology"
    best: dict[str, RiskLevel] = {}
    for s in syns:
        for p in onto.allergen_paths(s.canonical_id):
            if p.code not in best or p.level.rank > best[p.code].rank:
                best[p.code] = p.level
    return best


def test_every_family_file_exists_and_every_entry_carries_allergens() -> None:
    assert {p.stem for p in A_FILES} == set(FAMILY_FILES)
    entries = a_entries()
    assert len(entries) >= 250
    empty = [f"{f}:{n} {o['id']}" for f, n, o in entries if not o.get("allergens")]
    assert empty == []


# a word of two label languages in two senses keeps both (the union of their allergens is the cautious reading)
HOMOGRAPHS = {
    "mout": ["g_grape_must", "malt"],  # French moût (grape must), Dutch mout (malt)
    "rape": ["monkfish", "turnip"],  # Spanish rape (monkfish), Italian rape (turnips)
    "genovese": ["pesto", "sponge_cake"],  # pesto alla genovese, pasta genovese (a sponge)
    "ladies fingers": ["g_sponge_finger", "okra"],  # okra in British and Indian English, sponge fingers elsewhere
    "lady's finger": ["g_sponge_finger", "okra"],
}


def test_each_lookup_key_names_exactly_one_canonical(onto: Ontology) -> None:
    clashes = {k: sorted({s.canonical_id for s in syns}) for k, syns in onto.synonyms.items()
               if len({s.canonical_id for s in syns}) > 1}  # fmt: skip
    assert clashes == HOMOGRAPHS


def test_each_family_has_names_in_all_five_languages() -> None:
    by_file: dict[str, set[str]] = {}
    for fname, _n, o in a_entries():
        by_file.setdefault(fname, set()).update(o.get("names", {}))
    for fname, langs in by_file.items():
        if fname in ENGLISH_ONLY_FILES:
            assert langs == {"en"}, fname
            continue
        assert set(LANGUAGES) <= langs, (fname, sorted(set(LANGUAGES) - langs))


def test_synonym_counts_meet_the_e1_share(onto: Ontology) -> None:
    ids = {o["id"] for _f, _n, o in a_entries()}
    syns = [s for ss in onto.synonyms.values() for s in ss if s.canonical_id in ids]
    assert len(syns) >= 1500
    assert {"REGIONAL", "SCIENTIFIC", "E_NUMBER", "INFLECTION", "TRANSLATION"} <= {s.type for s in syns}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("arachis oil", {"PEANUT": V}), ("cacahuète", {"PEANUT": D}), ("Erdnüsse", {"PEANUT": D}),
        ("mungfali", {"PEANUT": D}), ("groundnut", {"PEANUT": D}), ("Arachis hypogaea", {"PEANUT": D}),
        ("lait écrémé en poudre", {"MILK": D}), ("poudre de lait entier", {"MILK": D}), ("beurre concentré", {"MILK": V}),
        ("Vollmilchpulver", {"MILK": D}), ("Magermilchpulver", {"MILK": D}), ("Süßmolkenpulver", {"MILK": V}),
        ("leche desnatada en polvo", {"MILK": D}), ("latte scremato in polvere", {"MILK": D}),
        ("sodium caseinate", {"MILK": V}), ("lactose", {"MILK": V}), ("ghee", {"MILK": V}), ("EMMENTAL", {"MILK": V}),
        ("albumin", {"EGG": D}), ("E1105", {"EGG": V}), ("jaunes d'œufs", {"EGG": D}), ("Eigelb", {"EGG": D}),
        ("oats", {"GLUTEN": D}), ("barley", {"GLUTEN": D}), ("rye", {"GLUTEN": D}),
        ("spelt", {"WHEAT": D, "GLUTEN": D}), ("kamut", {"WHEAT": D, "GLUTEN": D}),
        ("triticale", {"WHEAT": D, "GLUTEN": D}), ("durum wheat semolina", {"WHEAT": D, "GLUTEN": D}),
        ("bulgur", {"WHEAT": D, "GLUTEN": D}), ("couscous", {"WHEAT": D, "GLUTEN": D}),
        ("seitan", {"WHEAT": V, "GLUTEN": V, "SOY": P}), ("maida", {"WHEAT": D, "GLUTEN": D}), ("atta", {"WHEAT": D, "GLUTEN": D}),
        ("malt", {"GLUTEN": V, "WHEAT": P}), ("malt extract", {"GLUTEN": V}), ("malt vinegar", {"GLUTEN": V}),
        ("gluten", {"GLUTEN": D, "WHEAT": P}),
        ("lecithin", {"SOY": P}), ("E322", {"SOY": P}), ("soy lecithin", {"SOY": V}), ("soybean oil", {"SOY": V}),
        ("E426", {"SOY": V}), ("E479b", {"SOY": V}),
        ("soy sauce", {"SOY": V, "WHEAT": V, "GLUTEN": V}), ("tamari", {"SOY": V, "WHEAT": P, "GLUTEN": P}),
        ("queensland nut", {"TREE_NUTS": D}), ("nuts", {"TREE_NUTS": D, "PEANUT": P}), ("noix de cajou", {"TREE_NUTS": D}),
        ("Haselnüsse", {"TREE_NUTS": D}), ("praline", {"TREE_NUTS": V, "MILK": P}),
        ("marzipan", {"TREE_NUTS": V, "EGG": P}), ("gianduja", {"TREE_NUTS": V, "MILK": P, "SOY": P}),
        ("mixed nuts", {"TREE_NUTS": D, "PEANUT": P}),
        ("surimi", {"FISH": V, "EGG": P, "WHEAT": P, "GLUTEN": P, "SHELLFISH": P}), ("anchovies", {"FISH": D}),
        ("fish sauce", {"FISH": V}), ("nam pla", {"FISH": V}), ("Sprattus sprattus", {"FISH": D}),
        ("prawns", {"SHELLFISH": D}), ("crab", {"SHELLFISH": D}), ("lobster", {"SHELLFISH": D}),
        ("shrimp paste", {"SHELLFISH": V, "FISH": P}),
        ("calamari", {"MOLLUSCS": D}), ("octopus", {"MOLLUSCS": D}), ("mussels", {"MOLLUSCS": D}),
        ("oyster sauce", {"MOLLUSCS": V, "WHEAT": P, "GLUTEN": P, "SOY": P}), ("escargots", {"MOLLUSCS": D}),
        ("tahini", {"SESAME": V}), ("sesame oil", {"SESAME": V}), ("gingelly oil", {"SESAME": V}),
        ("hummus", {"SESAME": V}), ("sons de moutarde", {"MUSTARD": D}), ("Senf", {"MUSTARD": D}),
        ("céleri rave", {"CELERY": D}), ("lupin flour", {"LUPIN": D}),
        ("E220", {"SULPHITES": D}), ("E224", {"SULPHITES": D}), ("E228", {"SULPHITES": D}),
        ("sodium metabisulphite", {"SULPHITES": D}), ("vin blanc", {"SULPHITES": P}),
        ("whey protein concentrate", {"MILK": V}), ("milk chocolate", {"MILK": V, "SOY": P}),
        ("dark chocolate", {"MILK": P, "SOY": P}), ("mayonnaise", {"EGG": V, "MUSTARD": P}),
        ("pesto", {"MILK": V, "TREE_NUTS": V, "EGG": P}),
        ("béchamel", {"MILK": V, "WHEAT": V, "GLUTEN": V}), ("custard", {"MILK": V, "EGG": V}),
        ("worcestershire sauce", {"FISH": V, "GLUTEN": V, "SOY": P, "WHEAT": P}), ("miso", {"SOY": V, "GLUTEN": P, "WHEAT": P}),
        ("egg noodles", {"WHEAT": V, "GLUTEN": V, "EGG": V}), ("flour", {"WHEAT": D, "GLUTEN": D}),
        # words of two senses, one of them allergen-bearing; a sourdough starter is flour and water, not bread
        ("fruits secs", {"TREE_NUTS": P, "PEANUT": P}), ("frutta secca", {"TREE_NUTS": P, "PEANUT": P}),
        ("dry fruits", {"TREE_NUTS": P, "PEANUT": P}), ("café cortado", {"MILK": D}), ("cortado", {"MILK": D}),
        ("fumet", {"FISH": P, "SHELLFISH": P, "CELERY": P, "SOY": P}), ("rape", {"FISH": D}),
        ("levain", {"GLUTEN": D, "WHEAT": P}), ("Sauerteig", {"GLUTEN": D, "WHEAT": P}),
        ("Weizensauerteig", {"WHEAT": D, "GLUTEN": D}),
        # the blind audit of the allergen-free names (sixth round): what these name commonly holds an allergen
        ("coconut milk powder", {"MILK": P}), ("coconut milk", {}), ("mashed potatoes", {"MILK": P}),
        ("Kartoffelpüree", {"MILK": P}), ("crisped rice", {"GLUTEN": P}), ("puffed rice", {}),
        ("corn flakes", {"GLUTEN": P}), ("farofa", {"MILK": P}), ("bread improver", {"WHEAT": P, "GLUTEN": P, "SOY": P}),
        ("flour treatment agent", {}), ("Hülsenfrüchte", {"SOY": P, "PEANUT": P, "LUPIN": P}), ("pulses", {}),
        ("légumes", {}), ("chilli paste", {"SHELLFISH": P, "FISH": P, "SOY": P, "WHEAT": P, "GLUTEN": P}),
        ("ladies fingers", {"WHEAT": D, "EGG": D, "GLUTEN": D, "MILK": P}),
        # the blind audit of the allergen-bearing entries: what the usual recipe of the named dish holds
        ("lobster bisque", {"SHELLFISH": V, "MILK": P, "WHEAT": P, "GLUTEN": P}), ("lobster", {"SHELLFISH": D}),
        ("stock cube", {"CELERY": P, "SOY": P, "WHEAT": P, "GLUTEN": P, "MILK": P}),
        ("chicken stock", {"CELERY": P, "SOY": P}), ("frutos secos", {"TREE_NUTS": D, "PEANUT": P}),
        ("pain aux noix", {"WHEAT": V, "GLUTEN": V, "TREE_NUTS": D, "EGG": P, "MILK": P, "SESAME": P, "SOY": P}),
        ("smoked tofu", {"SOY": V, "WHEAT": P, "GLUTEN": P}), ("tofu", {"SOY": V}),
    ],
)  # fmt: skip
def test_label_word_resolves_to_exact_allergens(onto: Ontology, text: str, expected: dict[str, RiskLevel]) -> None:
    assert levels(onto, text) == expected


def test_compound_paths_name_the_part(onto: Ontology) -> None:
    paths = {p.code: p for p in onto.allergen_paths("hummus")}
    assert paths["SESAME"].path == ("hummus",)  # the compound's own map wins at equal level…
    wpc = {p.code: p for p in onto.allergen_paths("whey_protein_concentrate")}
    assert wpc["MILK"].level is V
    soy_sauce = {p.code: p.path for p in onto.allergen_paths("soy_sauce")}
    assert soy_sauce == {"SOY": ("soy_sauce",), "WHEAT": ("soy_sauce",), "GLUTEN": ("soy_sauce",)}
    pesto = {p.code: p.path for p in onto.allergen_paths("pesto")}
    assert pesto["EGG"] == ("pesto", "parmesan")  # …and a part's own allergen comes with its path


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("coconut", "TREE_NUTS"), ("noix de coco", "TREE_NUTS"), ("nutmeg", "TREE_NUTS"), ("noix de muscade", "TREE_NUTS"),
        ("tiger nut", "TREE_NUTS"), ("shea butter", "TREE_NUTS"), ("water chestnut", "TREE_NUTS"),
        ("butternut squash", "TREE_NUTS"), ("buckwheat", "WHEAT"), ("buckwheat", "GLUTEN"), ("pea", "PEANUT"),
        ("pea protein", "PEANUT"), ("chickpeas", "PEANUT"), ("sunflower lecithin", "SOY"), ("cocoa butter", "MILK"),
        ("maltodextrin", "GLUTEN"), ("glucose syrup", "WHEAT"), ("lactic acid", "MILK"), ("vegetable oil", "PEANUT"),
        ("spirit vinegar", "GLUTEN"), ("peanut", "TREE_NUTS"),
    ],
)  # fmt: skip
def test_look_alike_words_do_not_carry_the_suggested_allergen(onto: Ontology, text: str, code: str) -> None:
    for syn in onto.lookup(lookup_key(text)):
        assert code not in {p.code for p in onto.allergen_paths(syn.canonical_id)}, (text, syn.canonical_id)


_A_SYNONYMS = sorted(
    {(text, o["id"]) for _f, _n, o in a_entries() for texts in o.get("names", {}).values() for text in texts}
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_A_SYNONYMS), st.sampled_from(["upper", "title", "lower", "hyphen", "spaces"]))
def test_any_allergen_synonym_in_any_case_or_spacing_keeps_its_allergens(
    onto: Ontology, pick: tuple[str, str], style: str
) -> None:
    text, ing_id = pick
    variant = {"upper": text.upper(), "title": text.title(), "lower": text.lower(),
               "hyphen": text.replace(" ", "-"), "spaces": f"  {text.replace(' ', '   ')} "}[style]  # fmt: skip
    ids = {s.canonical_id for s in onto.lookup(lookup_key(variant))}
    assert ing_id in ids  # a key two entries share reaches both ("mout": Dutch malt, French "moût" folded)
    assert onto.allergen_paths(ing_id)
