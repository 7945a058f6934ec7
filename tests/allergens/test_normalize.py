"""Exact-only normalisation: synonyms, accents/case/hyphens, controlled rules whose result must be an exact entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinecheck.allergens.normalize import is_known, normalize, resolve_key, split_keeps
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.pipeline import PROFILE_ALL, check_label
from dinecheck.allergens.tokenize import tokenize

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "allergens_mini"
FULL = load_data_dir()  # the shipped data (a few tests need its vocabulary)


@pytest.fixture(scope="module")
def onto():
    return load_data_dir(MINI)


def ids(key: str, onto) -> tuple[tuple[str, ...], str | None]:
    syns, _key, rule = resolve_key(key, onto)
    return tuple(dict.fromkeys(s.canonical_id for s in syns)), rule


@pytest.mark.parametrize(
    ("text", "canonical", "rule"),
    [
        ("groundnut", "peanut", "exact"),
        ("Arachis oil", "peanut_oil", "exact"),
        ("CACAHUÈTE", "peanut", "exact"),
        ("cacahuete", "peanut", "exact"),
        ("Erdnüsse", "peanut", "exact"),
        ("petit lait", "whey", "exact"),
        ("Petit-Lait", "whey", "exact"),
        ("e322i", "lecithin", "e-number base"),
        ("e150d", "caramel_colour", "exact"),
        ("des oeufs", "egg", "inflection"),
        ("du sucre", "sugar", "article"),
        ("l'eau", "water", "article"),
        ("almonds", "almond", "inflection"),
        ("amandes", "almond", "inflection"),
        ("chickpeas", "chickpea", "inflection"),
        ("peanut oils", "peanut_oil", "inflection"),
    ],
)
def test_resolves(text: str, canonical: str, rule: str, onto) -> None:
    (found, got_rule) = ids(tokenize(text)[0].key, onto)
    assert found == (canonical,) and got_rule == rule


@pytest.mark.parametrize(
    "text",
    ["pea protein", "peas", "chickpeas", "nutmeg", "coconut", "buckwheat", "pea", "noix de muscade", "noix de coco"],
)
def test_never_a_substring_or_fuzzy_match(text: str, onto) -> None:
    found, _rule = ids(tokenize(text)[0].key, onto)
    assert "peanut" not in found and "tree_nuts" not in found and "wheat" not in found
    assert found  # each of them IS in the mini ontology as its own allergen-free entry


@pytest.mark.parametrize("text", ["peanu", "peanutt", "pean ut", "wheats flour x", "whe", "xpeanut", "nut", "milky"])
def test_near_misses_are_unmatched(text: str, onto) -> None:
    assert ids(tokenize(text)[0].key, onto) == ((), None)


def test_inflection_rule_only_counts_when_the_result_is_an_exact_entry(onto) -> None:
    assert ids("sugars", onto) == (("sugar",), "inflection")
    assert ids("saltes", onto) == (("salt",), "inflection")
    assert ids("sugarss", onto) == ((), None)
    assert is_known("peanutss", onto) and not is_known("peanutsss", onto)  # one step only


def test_normalize_keeps_notes_unresolved_and_reports_each_token(onto) -> None:
    res = normalize(tokenize("milk (origine France), seasoning"), onto)
    assert [(r.token.key, _canonical_ids(r), r.rule, r.matched) for r in res] == [
        ("milk", ("milk",), "exact", True), ("origine france", (), "note", False), ("seasoning", (), None, False),
    ]  # fmt: skip


def test_organic_and_bio_qualifiers_are_dropped_only_onto_exact_entries(onto) -> None:
    assert ids("organic peanut oil", onto) == (("peanut_oil",), "qualifier")
    assert ids("lait bio", onto) == (("milk",), "qualifier")
    assert ids("organic gizmo", onto) == ((), None)


def test_word_hints_are_whole_words_longest_first(onto) -> None:
    from dinecheck.allergens.normalize import word_hints

    assert [g for g, _ in word_hints("roasted peanuts sugar", onto)] == ["peanuts", "sugar"]
    assert [g for g, _ in word_hints("crunchy peanut oil blend", onto)] == ["peanut oil"]
    assert [(g, [s.canonical_id for s in syns]) for g, syns in word_hints("buckwheat groats", onto)] == [("buckwheat", ["buckwheat"])]
    assert word_hints("peanutbutter", onto) == ()


def test_segment_reads_a_token_missing_its_commas_as_exact_names_only(onto) -> None:
    from dinecheck.allergens.normalize import segment

    assert segment("peanuts sugar", onto) == ("peanuts", "sugar")
    assert segment("sugar salt water", onto) == ("sugar", "salt", "water")
    assert segment("peanut oil salt", onto) == ("peanut oil", "salt")  # fewest parts: "peanut oil", not "peanut"+"oil"
    assert segment("sugar gizmo", onto) is None  # every part must be an exact entry
    assert segment("sugar", onto) is None
    [res] = normalize(tokenize("PEANUTS SUGAR"), onto)
    assert (res.rule, res.key, _canonical_ids(res)) == ("segmented", "peanuts | sugar", ("peanut", "sugar"))


def test_a_word_hyphenated_across_a_line_is_joined_only_when_hyphenated(onto) -> None:
    [res] = normalize(tokenize("Ground-nut"), onto)
    assert (res.rule, _canonical_ids(res)) == ("joined", ("peanut",))
    [res] = normalize(tokenize("ground nut x"), onto)
    assert res.rule != "joined"


def _canonical_ids(res) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s.canonical_id for s in res.synonyms))


def test_a_split_must_keep_the_allergens_of_a_name_spanning_the_conjunction() -> None:
    onto = load_data_dir()  # the shipped ontology: its modifiers and names
    # "copos de trigo y salvado" (a wheat-flake cereal) carries MILK that neither "copos de trigo" nor "salvado" does
    whole = "liofilizzate copos de trigo y salvado allevato a terra"
    assert not split_keeps(whole, ("liofilizzate copos de trigo", "salvado allevato a terra"), onto)
    assert split_keeps("sea salt and pepper", ("sea salt", "pepper"), onto)  # "salt and pepper" carries nothing
    assert split_keeps("milk and honey", ("milk", "honey"), onto)
    assert split_keeps("roasted peanuts and sugar", ("roasted peanuts", "sugar"), onto)


def test_a_name_with_modifiers_around_it_is_known() -> None:
    onto = load_data_dir()
    assert is_known("toasted oat clusters with nuts", onto) and not is_known("toasted zorblax with nuts", onto)


def test_a_segmented_reading_never_cuts_through_a_name_that_carries_more() -> None:
    """"pasta de curry rojo 2g" reads exactly as pasta de | curry | rojo 2G (a colour), which loses the shrimp of red
    curry paste, a name spanning the cuts: no segmented reading then — the paste is read, its amount aside."""
    onto = load_data_dir()
    r = check_label("Water, pasta de curry rojo 2g", ["SHELLFISH"], onto)
    assert r.verdict == "AVOID" and r.unmatched == ()
    paste = normalize(tokenize("pasta de curry rojo 2g"), onto)[0]
    assert paste.rule == "amount" and paste.key == "pasta de curry rojo"
    # a list missing its commas whose cuts cross no other name is still read
    assert check_label("cornichons vinaigre de table sel", ["SHELLFISH"], onto).verdict == "SAFE"


def test_a_rewrite_that_only_drops_words_keeps_the_words_of_the_name_it_lands_on(tmp_path: Path) -> None:
    """With "coque" (French for cockle) known, "des fruits à coque" is still tree nuts: the article rewrite keeps
    "coque" as a word of "fruits à coque". A rewrite that changes a word keeps checking every word (below)."""
    from dinecheck.allergens.store import open_store
    from dinecheck.allergens.store.base import SynonymInput

    with open_store(f"sqlite:///{tmp_path / 'o.sqlite'}") as store:
        store.add_synonyms([SynonymInput("coque", "cockle", "fr", None, "TRANSLATION", "USER")])
        onto = store.ontology()
    assert ids("coque", onto) == (("cockle",), "exact")
    assert ids("des fruits a coque", onto) == (("tree_nuts",), "article")
    label = "sucre, sel. Peut contenir des traces de lait et des fruits à coque."
    assert check_label(label, ["MOLLUSCS"], onto).verdict == "SAFE"
    assert check_label(label, ["TREE_NUTS"], onto).verdict == "VERIFY"
    assert check_label("sucre, coque", ["MOLLUSCS"], onto).verdict == "AVOID"
    # "sucres semoule": the plural rewrite would change "sucres"; "semoule" alone is wheat semolina, so no rewrite
    assert ids("sucres semoule", onto)[0] != ("caster_sugar",)


def test_a_word_split_by_a_space_is_read_joined_only_when_no_allergen_is_lost() -> None:
    """A line break or OCR damage splits a word ("sirop de glu cose"): one pair of neighbouring words joined may
    name the token, when the joined name keeps every allergen a word of the token names."""
    onto = load_data_dir()
    rule_of = {r.token.text: (r.rule, tuple(s.canonical_id for s in r.synonyms))
               for r in normalize(tokenize("sirop de glu cose, Sonnenblumen kerne, egg plant"), onto)}  # fmt: skip
    assert rule_of["sirop de glu cose"][0] == "joined" and rule_of["Sonnenblumen kerne"][0] == "joined"
    assert rule_of["egg plant"][0] != "joined"  # eggplant would drop the egg the word "egg" names
    assert check_label("sucre, sirop de glu cose", ["PEANUT"], onto).verdict == "SAFE"
    assert check_label("egg plant, salt", ["EGG"], onto).verdict != "SAFE"
    assert check_label("pea nuts, salt", ["PEANUT"], onto).verdict != "SAFE"


@pytest.mark.parametrize(("text", "code"), [("organic Fisch gewürz, salt", "CELERY"), ("a chards, salt", "CELERY"),
                                           ("organic a chards, salt", "CELERY"), ("Polvo rones, salt", "TREE_NUTS"),
                                           ("AKG, E is, salt", "EGG"), ("wafer con e, salt", "EGG")])
def test_no_reading_drops_what_two_neighbouring_words_joined_name(text: str, code: str) -> None:
    """"Fisch gewürz" is not fish | spices when Fischgewürz (a seasoning) may hold celery; "a chards" is not an article
    and chard when achards may; "Polvo rones" is not powdered rum (ron) when polvorones hold almonds; "E is" is no
    conjunction and a function word when Eis (ice cream) may hold egg; "wafer con e" is no wafer "with" a letter when
    the joined word makes "wafer cone" with its neighbour: the property test found all of them, by segmentation,
    rewrite, modifier readings, a conjunction split and a function-word note."""
    assert check_label(text, [code], load_data_dir()).verdict != "SAFE"


@pytest.mark.parametrize(("text", "codes", "rule"), [
    ("tuna in sunflower oil", {"FISH"}, "medium: in"),
    ("chickpeas in water", set(), "medium: in"),
    ("diced tomatoes in tomato juice", set(), "medium: in"),
    ("thon à l'huile de tournesol", {"FISH"}, "medium: a l'"),
    ("Thunfisch in Sonnenblumenöl", {"FISH"}, "medium: in"),
    ("atún en aceite de oliva", {"FISH"}, "medium: en"),
    ("tonno all'olio di oliva", {"FISH"}, "medium: all'"),
    ("glucose syrup from wheat", {"GLUTEN", "WHEAT"}, "source: from"),
])  # fmt: skip
def test_a_food_and_its_packing_medium_read_as_both_names(text: str, codes: set[str], rule: str) -> None:
    onto = load_data_dir()
    (res,) = normalize(tokenize(text), onto)
    assert res.rule == rule
    r = check_label(text, PROFILE_ALL, onto)
    assert r.unmatched == () and {f.code for f in r.findings} == codes
    assert r.verdict == ("AVOID" if codes else "SAFE")


def test_a_dish_named_by_what_flavours_it_is_never_read_as_food_and_medium() -> None:
    """French and Italian "au / à la / al" name dishes too ("riz au lait", "pain aux raisins"): only an oil, water,
    brine, vinegar or juice after them is a medium, and an unknown side keeps the token unknown."""
    onto = load_data_dir()
    for text in ("riz au lait", "pain aux raisins", "pane al latte"):
        (res,) = normalize(tokenize(text), onto)
        assert not (res.rule or "").startswith("medium"), text
    assert check_label("pain aux raisins", ["EGG"], onto).verdict != "SAFE"
    assert check_label("tuna in zorblax", ["PEANUT"], onto).unmatched == ("tuna in zorblax",)
    assert check_label("zorblax in water", ["PEANUT"], onto).unmatched == ("zorblax in water",)


def test_a_food_and_medium_reading_never_cuts_a_name_spanning_the_separator() -> None:
    """"truffe en chocolat" (a chocolate truffle, which may hold hazelnut) followed by words no modifier reading takes
    whole is no truffle in chocolate: the name across "en" keeps its allergens (found by the modifiers property)."""
    onto = load_data_dir()
    text = "truffe en chocolat a base de jus concentre a base de jus concentre"
    (res,) = normalize(tokenize(text), onto)
    assert not (res.rule or "").startswith("medium")
    assert check_label(text, ["TREE_NUTS"], onto).verdict == "VERIFY"


def test_the_indian_fssai_wording_reads_as_its_ingredients() -> None:
    """The FSSAI classes of added flavour and colour, "liquid glucose" and the INS number are ingredients the shipped
    data knows; "permitted" is a quality word that never hides what it dresses."""
    onto = load_data_dir()
    label = ("Sugar, liquid glucose, refined palmolein oil, permitted synthetic food colour (INS 102), emulsifier "
             "(INS 471), added flavours (natural and nature identical flavouring substances)")
    r = check_label(label, ["PEANUT", "MILK", "GLUTEN"], onto)
    assert (r.verdict, r.unmatched) == ("SAFE", ())
    assert ids("liquid glucose", onto) == (("glucose_syrup",), "exact")
    assert ids("nature identical flavouring substances", onto) == (("artificial_flavouring",), "exact")
    assert check_label("permitted milk solids, sugar", ["MILK"], onto).verdict == "AVOID"


def test_hidden_mentions_find_an_allergen_inside_a_compound_word_but_not_in_instruction_words() -> None:
    """What a mask or a note must never hide: a compound or glued word holding an allergen food ("Milchschaum",
    "Cashewkernbruch", "skimmilk") or two words that joined name one ("grou ndnut"); the words of instructions are
    no such mention."""
    from dinecheck.allergens.normalize import hidden_mentions

    onto = load_data_dir()
    for key in ("mit milchschaum servieren", "cashewkernbruch 15 minuten", "rice skimmilk", "fry in grou ndnut oil"):
        assert hidden_mentions(key, onto), key
    for key in ("store at room temperature", "heat for 2 minutes until piping hot", "bei 180 c backen"):
        assert not hidden_mentions(key, onto), key


@pytest.mark.parametrize("name", ["mineral salt", "intense sweetener", "colour fixative", "antifoam", "emulsifier",
                                  "vegetable gum", "flour treatment agent", "raising agent", "acidity regulator"])
def test_the_class_names_of_the_australia_new_zealand_code_resolve(name: str) -> None:
    """Food Standards Code Schedule 7: "Mineral Salt (508)", "Intense Sweetener (955)" are class names, known."""
    onto = load_data_dir()
    (res,) = normalize(tokenize(name), onto)
    assert res.matched, name


@pytest.mark.parametrize(("text", "expected"), [("sellerien", "sellerie"), ("frumenti", "frumento"), ("semole", "semola"),
                                                ("celeries", "celery"), ("trigoes", "trigo")])  # fmt: skip
def test_an_inflection_reads_a_plural_or_feminine_form(text: str, expected: str) -> None:
    assert resolve_key(text, FULL)[1:] == (expected, "inflection")


@pytest.mark.parametrize(("text", "code"), [("pean", "PEANUT"), ("haren", "FISH"), ("sugare", "FISH")])
def test_an_inflection_never_reads_a_word_cut_off_from_an_allergen_name(text: str, code: str) -> None:
    """A German "-n" or a French "-e" on an English word is no inflection: "pean" is peanut cut off, not a pea;
    "haren" hareng (herring), not a hare; "sugare" sugarello (a fish), not sugar."""
    assert resolve_key(text, FULL) == ((), None, None)
    assert check_label(f"water, salt, {text}", [code], FULL).verdict != "SAFE"
    # an ending of the name's own language still reads it, even when the word begins a longer name ("Eiernudeln")
    assert resolve_key("eiern", FULL)[1:] == ("eier", "inflection")


def test_a_quantity_statement_naming_an_allergen_reads_as_the_foods_it_names() -> None:
    """"… g de viande utilisés pour 100 g de saucisson sec": the meat and the product it makes are read like
    ingredients — their allergens count, the rest of the profile is unaffected."""
    resolution = normalize(tokenize("187 g de viande utilisés pour la préparation de 100 g de saucisson aux noisettes"),
                           FULL)[0]  # fmt: skip
    assert resolution.rule == "quantity statement"
    assert {s.canonical_id for s in resolution.synonyms} >= {"meat", "hazelnut"}
    text = "Porc, sel. 187 g de viande utilisés pour la préparation de 100 g de saucisson aux noisettes."
    assert check_label(text, ["TREE_NUTS"], FULL).verdict == "AVOID"
    assert check_label(text, ["PEANUT"], FULL).verdict == "SAFE"
    text = "Schweinefleisch, Salz. Hergestellt aus 137 g Schweinefleisch je 100 g Schinken."
    assert check_label(text, ["PEANUT"], FULL).verdict == "SAFE"
    # the amount of product first, the amount of meat after
    text = "Porc, sel. 100 g de produit fini élaboré avec 145 g de viande de porc."
    assert check_label(text, ["PEANUT"], FULL).verdict == "SAFE"
    assert check_label("Sugar, 100 g of product made with peanuts.", ["PEANUT"], FULL).verdict == "AVOID"
    # a count per kilogram of another food (egg pasta: "7 œufs frais au kilo de semoule")
    text = "Semoule de blé dur, œufs frais 20 % (soit 4 œufs par kilo de semoule)."
    assert check_label(text, ["PEANUT"], FULL).verdict == "SAFE"
    assert check_label(text, ["EGG"], FULL).verdict == "AVOID"
    assert check_label("Rice, water. 7 peanuts per kilo of rice.", ["PEANUT"], FULL).verdict == "AVOID"


@pytest.mark.parametrize(
    "text",
    [
        "Pork, salt. 137 g of zorble used per 100 g of ham.",  # a food nothing reads: the statement stays unknown
        "Pork, salt. 137 g of meat used per 100 g of peanutbutter.",  # a name glued: nothing hidden is dropped
        "Pork, salt. 137 g of meat used per 100 g of pean1t butter.",  # an OCR glyph
        "Rice, water. 4 zorbles per kilo of rice.",  # a count per kilogram, of a food nothing reads
    ],
)
def test_a_quantity_statement_with_a_food_it_cannot_read_is_never_safe(text: str) -> None:
    assert check_label(text, ["PEANUT"], FULL).verdict != "SAFE"


def _allergen_synonyms() -> list[tuple[str, str]]:
    out = set()
    for syns in FULL.synonyms.values():
        for s in syns:
            if s.text.isascii() and all(ch.isalnum() or ch in " '-" for ch in s.text):
                out.update((p.code, s.text) for p in FULL.allergen_paths(s.canonical_id))
    return sorted(out)


QUANTITY_FORMS = [
    "Sugar, salt. Prepared with {q} g of {s} per 100 g.",
    "Sugar, salt. {q} g of meat used per 100 g of {s}.",
    "Sucre, sel. {q} g de {s} utilisés pour la préparation de 100 g de produit fini.",
    "Zucker, Salz. Hergestellt aus {q} g {s} je 100 g.",
    "Porc, sel. 100 g de produit fini élaboré avec {q} g de {s}.",
    "Sugar, salt. 100 g of finished product prepared with {q} g of {s}.",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_allergen_synonyms()), st.sampled_from(QUANTITY_FORMS), st.integers(1, 400))
def test_an_allergen_named_in_a_quantity_statement_is_never_safe(pair, form, q) -> None:
    code, synonym = pair
    text = form.format(q=q, s=synonym)
    assert check_label(text, [code], FULL).verdict != "SAFE", text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("vitamin D 2.5µg", "vitamin_d"),  # a supplement's dose
        ("calcio 9,2", "calcium"),  # a mineral water's figure
        ("vitamin E 1000 IU", "tocopherols"),
    ],
)
def test_an_amount_standing_as_a_word_is_no_part_of_the_name(text: str, canonical: str) -> None:
    resolution = normalize(tokenize(text), FULL)[0]
    assert resolution.rule == "amount"
    assert canonical in {s.canonical_id for s in resolution.synonyms}


@pytest.mark.parametrize(
    ("text", "code"),
    [("Rice, pean1ts 2 g", "PEANUT"), ("Rice, 2 g m1lk", "MILK"), ("Rice, zorble 200 mg", "PEANUT")],
)
def test_an_amount_never_makes_a_damaged_or_unknown_word_readable(text: str, code: str) -> None:
    assert check_label(text, [code], FULL).verdict != "SAFE"
