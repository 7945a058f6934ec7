"""The shipped allergen-free ontology data (``data/ingredients/f_*.jsonl``): invariants and pinned facts.

Checks the E2 data files with the real loader: no entry carries an allergen (directly or through ``contains``), no
lookup key of an allergen-free synonym is shared with an allergen-bearing ingredient, no synonym contains a character
the tokenizer splits on, no allergen word sneaks in under an allergen-free id (except the documented look-alikes),
and label words in the five languages resolve to the expected canonical ingredient.
"""

from __future__ import annotations

import json
import re
import unicodedata
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.ontology import LANGUAGES, Ontology, load_data_dir
from dinecheck.allergens.text import lookup_key

DATA = Path(str(resources.files("dinecheck.allergens") / "data" / "ingredients"))
F_FILES = sorted(DATA.glob("f_*.jsonl"))
GROUPS = ("f_water_salt", "f_sugars_sweeteners", "f_oils_fats", "f_starches_flours", "f_acids_regulators",
          "f_gums_thickeners", "f_vitamins_minerals", "f_additives", "f_spices_herbs", "f_fruits",
          "f_vegetables_legumes", "f_meat_misc")  # fmt: skip


@pytest.fixture(scope="module")
def onto() -> Ontology:
    return load_data_dir()


def f_entries() -> list[tuple[str, int, dict]]:
    out = []
    for path in F_FILES:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                out.append((path.name, lineno, json.loads(line)))
    return out


def texts_of(entry: dict) -> list[str]:
    """Every synonym text an entry declares, whatever its type."""
    out = [t for ts in (entry.get("names") or {}).values() for t in ts]
    out += [t for ts in (entry.get("inflections") or {}).values() for t in ts]
    out += [r["text"] for r in entry.get("regional") or ()]
    out += list(entry.get("scientific") or ())
    out += [entry["e_number"]] if entry.get("e_number") else []
    return out


F_IDS = {o["id"] for _f, _n, o in f_entries()}
F_SYNONYMS = sorted({(t, o["id"]) for _f, _n, o in f_entries() for t in texts_of(o)})


def test_every_group_file_exists_and_no_entry_carries_allergens(onto: Ontology) -> None:
    assert [p.stem for p in F_FILES] == sorted(GROUPS)
    bad = [f"{f}:{n} {o['id']}" for f, n, o in f_entries() if "allergens" in o or "contains" in o]
    assert bad == []
    carrying = sorted(i for i in F_IDS if onto.allergen_paths(i))
    assert carrying == []


def test_counts_and_synonym_types_meet_the_e2_share(onto: Ontology) -> None:
    syns = [s for ss in onto.synonyms.values() for s in ss if s.canonical_id in F_IDS and s.type != "CANONICAL"]
    assert len(F_IDS) >= 400
    assert len(syns) >= 1800
    assert {"COMMON", "TRANSLATION", "INFLECTION", "REGIONAL", "SCIENTIFIC", "E_NUMBER"} <= {s.type for s in syns}
    assert {s.lang for s in syns if s.type in ("COMMON", "TRANSLATION")} >= set(LANGUAGES)


# a word of two label languages in two senses, one allergen-free: both readings are kept (their union is the cautious
# reading) — Italian "rape" (turnips) is Spanish "rape" (monkfish)
HOMOGRAPHS = {"rape": ["monkfish", "turnip"], "ladies fingers": ["g_sponge_finger", "okra"],
              "lady's finger": ["g_sponge_finger", "okra"]}  # okra (British, Indian English) and sponge fingers


def test_no_allergen_free_key_is_shared_with_an_allergen_bearing_ingredient(onto: Ontology) -> None:
    shared = {}
    for key, syns in onto.synonyms.items():
        ids = {s.canonical_id for s in syns}
        if ids & F_IDS and any(onto.allergen_paths(i) for i in ids):
            shared[key] = sorted(ids)
    assert shared == HOMOGRAPHS


def test_no_synonym_contains_a_separator_the_tokenizer_splits_on() -> None:
    bad = [(t, i) for t, i in F_SYNONYMS if re.search(r"[,;()\[\]:]", t)]
    assert bad == []


# whole words of allergen names (as lookup keys) → the allergen-free ids allowed to contain them (documented
# look-alikes: coconut milk is not milk, cocoa/shea butter has no milk, tiger nut and water chestnut are no tree nuts,
# buckwheat is no wheat, sunflower/rapeseed lecithin is no soy)
ALLERGEN_WORDS: dict[str, set[str]] = {
    **dict.fromkeys(("milk", "lait", "leche", "latte", "milch"), {"coconut_milk"}),
    **dict.fromkeys(("cream", "creme", "crema"), {"coconut_milk", "potassium_tartrate"}),
    **dict.fromkeys(("butter", "beurre"), {"cocoa_butter", "shea_butter", "sal_fat", "illipe_butter", "kokum_butter",
                                          "mango_kernel_fat", "beans", "green_beans"}),
    **dict.fromkeys(("whey", "cheese", "fromage", "yogurt", "yoghurt", "casein", "lactose", "ghee"), set()),
    **dict.fromkeys(("egg", "eggs", "oeuf", "oeufs", "huevo", "uovo", "albumin"), set()),
    **dict.fromkeys(("wheat", "weizen", "frumento"), set()),
    **dict.fromkeys(("ble", "trigo"), {"buckwheat", "buckwheat_flour"}),  # blé noir, trigo sarraceno: buckwheat
    **dict.fromkeys(("gluten", "barley", "orge", "gerste", "oat", "oats", "avoine", "hafer", "rye", "seigle", "roggen",
                     "spelt", "epeautre", "dinkel", "malt", "semolina", "bulgur", "couscous"), set()),
    **dict.fromkeys(("soy", "soya", "soja", "soybean", "soybeans", "soia"), set()),
    **dict.fromkeys(("lecithin", "lecithine"), {"sunflower_lecithin", "rapeseed_lecithin"}),
    **dict.fromkeys(("peanut", "peanuts", "arachide", "cacahuete", "erdnuss"), set()),
    **dict.fromkeys(("nut", "nuts"), {"tiger_nut", "tiger_nut_flour"}),
    **dict.fromkeys(("almond", "almonds", "amande", "hazelnut", "noisette", "walnut", "cashew", "pecan", "pistachio",
                     "macadamia"), set()),
    **dict.fromkeys(("chestnut", "chataigne"), {"water_chestnut", "mushroom"}),  # water chestnut, chestnut mushrooms
    **dict.fromkeys(("fish", "poisson", "fisch", "anchovy", "tuna", "salmon", "shrimp", "prawn", "crab", "lobster",
                     "crevette", "squid", "octopus", "mussel", "mussels", "clam", "snail"), set()),
    "oyster": {"oyster_mushroom"},
    **dict.fromkeys(("sesame", "sesam", "tahini", "mustard", "moutarde", "senf", "celery", "celeri", "sellerie",
                     "lupin", "lupine", "sulphite", "sulphites", "sulfite", "sulfites", "wine", "vin", "beer"), set()),
    **dict.fromkeys(("chocolate", "chocolat"), {"brown_ht", "cocoa_mass"}),
}


def test_no_allergen_word_under_an_allergen_free_id_except_documented_look_alikes() -> None:
    bad = []
    for text, ing_id in F_SYNONYMS:
        for word in re.split(r"[ ']", lookup_key(text)):
            allowed = ALLERGEN_WORDS.get(word)
            if allowed is not None and ing_id not in allowed:
                bad.append((text, ing_id, word))
    assert bad == []


@pytest.mark.parametrize(
    ("text", "expected_id"),
    [
        ("sel", "salt"), ("eau", "water"), ("Wasser", "water"), ("sea salt", "sea_salt"), ("sel marin", "sea_salt"),
        ("sugar", "sugar"), ("sucre", "sugar"), ("Zucker", "sugar"), ("azúcar", "sugar"), ("zucchero", "sugar"),
        ("sirop de glucose-fructose", "glucose_fructose_syrup"), ("high fructose corn syrup", "glucose_fructose_syrup"),
        ("dextrose", "glucose"), ("maltodextrine", "maltodextrin"), ("E420", "sorbitol"), ("E951", "aspartame"),
        ("huile de tournesol", "sunflower_oil"), ("Sonnenblumenöl", "sunflower_oil"),
        ("aceite de girasol", "sunflower_oil"),
        ("olio di girasole", "sunflower_oil"), ("canola oil", "rapeseed_oil"), ("huile de palme", "palm_oil"),
        ("palmiste", "palm_kernel_oil"), ("huile d'olive vierge extra", "extra_virgin_olive_oil"),
        ("vegetable oils", "vegetable_oil"), ("amidon modifié", "modified_starch"), ("Maisstärke", "corn_starch"),
        ("modified maize starch", "modified_corn_starch"), ("E1442", "hydroxypropyl_distarch_phosphate"),
        ("besan", "chickpea_flour"), ("Fagopyrum esculentum", "buckwheat"), ("sarrasin", "buckwheat"),
        ("E330", "citric_acid"), ("acide citrique", "citric_acid"), ("Citronensäure", "citric_acid"),
        ("baking soda", "sodium_carbonate"), ("E341iii", "tricalcium_phosphate"),
        ("correcteur d'acidité", "acidity_regulator"),
        ("gomme xanthane", "xanthan_gum"), ("E415", "xanthan_gum"), ("farine de graines de caroube", "locust_bean_gum"),
        ("pectine", "pectin"), ("carraghénanes", "carrageenan"), ("gélatine", "gelatine"),
        ("thiamine mononitrate", "thiamin"), ("riboflavin", "riboflavin"), ("E101", "riboflavin"),
        ("folic acid", "folic_acid"),
        ("reduced iron", "iron"), ("cyanocobalamine", "vitamin_b12"), ("E300", "ascorbic_acid"),
        ("E306", "tocopherols"),
        ("lécithine de tournesol", "sunflower_lecithin"), ("E471", "mono_and_diglycerides"),
        ("E150d", "caramel_colour_iv"),
        ("potassium sorbate", "potassium_sorbate"), ("nitrite de sodium", "sodium_nitrite"),
        ("E621", "monosodium_glutamate"),
        ("épices", "spices"), ("poivre noir", "black_pepper"), ("noix de muscade", "nutmeg"), ("cumin", "cumin"),
        ("piment de la Jamaïque", "allspice"), ("Knoblauch", "garlic"), ("oignons", "onion"), ("Zwiebeln", "onion"),
        ("jus de citron concentré", "lemon_juice"), ("lemon juice from concentrate", "lemon_juice"),
        ("purée de framboise", "raspberry_puree"), ("arôme naturel de framboise", "raspberry_flavouring"),
        ("noix de coco", "coconut"), ("lait de coco", "coconut_milk"), ("raisins secs", "raisin"),
        ("chickpeas", "chickpeas"), ("pois chiches", "chickpeas"), ("pea protein", "pea_protein"),
        ("water chestnuts", "water_chestnut"),
        ("tiger nuts", "tiger_nut"), ("Tomatenmark", "tomato_paste"), ("cornichons", "gherkin"),
        ("vinaigre d'alcool", "vinegar"), ("spirit vinegar", "vinegar"), ("cider vinegar", "cider_vinegar"),
        ("beurre de cacao", "cocoa_butter"), ("pâte de cacao", "cocoa_mass"), ("chocolate liquor", "cocoa_mass"),
        ("yeast extract", "yeast_extract"), ("extrait de levure", "yeast_extract"),
        ("arômes naturels", "natural_flavouring"),
        ("ferments lactiques", "bacterial_cultures"), ("présure", "rennet"), ("houblon", "hops"),
        ("café soluble", "coffee"),
        ("viande de porc", "pork"), ("S. thermophilus", "streptococcus_thermophilus"),
    ],
)  # fmt: skip
def test_label_word_resolves_to_the_allergen_free_canonical(onto: Ontology, text: str, expected_id: str) -> None:
    assert {s.canonical_id for s in onto.lookup(lookup_key(text))} == {expected_id}
    assert onto.allergen_paths(expected_id) == ()


@pytest.mark.parametrize(
    "text",
    ["lecithin", "E322", "E220", "E224", "E228", "E1105", "malt vinegar", "wheat starch", "soybean oil", "butter",
     "ghee", "wine vinegar", "celery", "mustard seeds", "sesame oil", "barley malt extract", "whey powder",
     "caramel", "margarine", "curry powder", "chestnut", "sulphite ammonia caramel", "Suppengrün", "stock",
     "aromates", "glace", "Eis", "salad", "pickles", "animal fat",
     "dehydrated vegetables", "vegetable powder", "vegetable extract", "root vegetables", "légumes déshydratés",
     # English words that an accent-folded or foreign short name would otherwise capture
     "the", "more", "name", "rind", "lab", "lake", "wild", "ave", "col", "pulse"],
)  # fmt: skip
def test_allergen_bearing_or_ambiguous_words_are_not_in_the_allergen_free_data(onto: Ontology, text: str) -> None:
    assert {s.canonical_id for s in onto.lookup(lookup_key(text))} & F_IDS == set()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(F_SYNONYMS), st.sampled_from(["upper", "title", "lower", "hyphen", "spaces", "nfd"]))
def test_any_allergen_free_synonym_in_any_case_or_spacing_resolves_to_its_canonical_only(
    onto: Ontology, pick: tuple[str, str], style: str
) -> None:
    text, ing_id = pick
    variant = {"upper": text.upper(), "title": text.title(), "lower": text.lower(), "hyphen": text.replace(" ", "-"),
               "spaces": f"  {text.replace(' ', '   ')} ",
               "nfd": unicodedata.normalize("NFD", text)}[style]  # fmt: skip
    ids = {s.canonical_id for s in onto.lookup(lookup_key(variant))}
    assert ids == {ing_id}
    assert onto.allergen_paths(ing_id) == ()
