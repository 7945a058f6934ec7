"""Processing, quality and origin words around an ingredient name (``modifiers.strip_modifiers``), with the shipped
ontology: the head and the stripped words, the words never stripped, and the two hypothesis properties of issue 8."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dinecheck.allergens.modifiers import COLOURS, modifier_readings, strip_modifiers, without_adverbs
from dinecheck.allergens.ontology import NEGATIONS, STANDALONE_FOOD_SENSES, load_data_dir
from dinecheck.allergens.pipeline import PROFILE_ALL, check_label
from dinecheck.allergens.text import lookup_key

ONTO = load_data_dir()


@pytest.mark.parametrize(("text", "head", "stripped"), [
    ("roasted salted cashews", "cashews", ("roasted", "salted")),
    ("organic raw cane sugar", "raw cane sugar", ("organic",)),
    ("cooked long grain rice", "long grain rice", ("cooked",)),
    ("low sodium sea salt", "sea salt", ("low", "sodium")),
    ("grass-fed butter", "butter", ("grass", "fed")),
    ("sheep's milk of Spain", "sheep's milk", ("of", "spain")),
    ("tomates séchées", "tomates", ("sechees",)),
    ("pois chiches réhydratés", "pois chiches", ("rehydrates",)),
    ("Kirschen entsteint", "kirschen", ("entsteint",)),
])  # fmt: skip
def test_an_unknown_name_resolves_to_its_head(text: str, head: str, stripped: tuple[str, ...]) -> None:
    assert strip_modifiers(lookup_key(text), ONTO) == (head, stripped)


def test_the_result_names_the_head_and_the_stripped_words() -> None:
    [f] = check_label("roasted salted cashews", ["TREE_NUTS"], ONTO).findings
    assert f.explanation == "'roasted salted cashews' = 'cashews' (rule: modifiers: roasted, salted) → cashew"


@pytest.mark.parametrize("text", ["peanut free chocolate", "sans lait sucre", "fried onions crispy",
                                  "imitation crab sticks", "white sauce mix"])  # fmt: skip
def test_negations_and_meaning_changing_words_are_never_stripped(text: str) -> None:
    result = strip_modifiers(lookup_key(text), ONTO)
    assert result is None or not ({"free", "sans", "fried", "imitation", "white"} & set(result[1]))


def test_no_modifier_names_an_allergen_or_is_a_negation_or_a_number() -> None:
    """Except the words of two senses, which name an allergen food alone and are read so (next test)."""
    for key in ONTO.modifiers:
        assert key not in NEGATIONS and not any(ch.isdigit() for ch in key), key
        for part in (key, *key.split(" ")):
            if part not in STANDALONE_FOOD_SENSES:
                assert not any(ONTO.allergen_paths(s.canonical_id) for s in ONTO.synonyms.get(part, ())), key


@pytest.mark.parametrize("word", sorted(STANDALONE_FOOD_SENSES))
def test_a_word_of_two_senses_alone_is_its_allergen_food_and_inside_a_name_a_modifier(word: str) -> None:
    """"tostada" alone is toast, "soufflé" the egg dish, "Gefrorenes" ice cream: alone, never SAFE for
    what that food holds; inside a longer name ("pan tostado", "riz soufflé") it only describes the food."""
    codes = {p.code for s in ONTO.synonyms.get(word, ()) for p in ONTO.allergen_paths(s.canonical_id)}
    assert codes & set(PROFILE_ALL), word
    assert check_label(f"sugar, {word}, salt", sorted(codes & set(PROFILE_ALL)), ONTO).verdict != "SAFE"
    assert word in ONTO.modifiers


@pytest.mark.parametrize(("text", "head"), [("café tostado", "cafe"), ("riz soufflé", "riz"),
                                            ("Gefrorenes Gemüse", "gemuse"),
                                            ("carne picada", "carne"), ("basilico genovese", "basilico"),
                                            ("wholegrain rice", "rice"), ("Vollkorn Reis", "reis")])  # fmt: skip
def test_a_word_of_two_senses_inside_a_name_is_a_modifier(text: str, head: str) -> None:
    readings = {h for h, _stripped in modifier_readings(lookup_key(text), ONTO)}
    assert head in readings


def test_a_word_of_two_senses_after_in_may_be_the_food_the_name_is_in() -> None:
    """"tuna in genovese" is no tuna from Genoa alone: it may be tuna in pesto (the exhaustive carrier check found it
    SAFE for MILK while "in genovese" was read as an origin)."""
    for text, code in (("tuna in genovese", "MILK"), ("tuna in danish", "GLUTEN"), ("Rice, water. tuna in genovese",
                                                                                    "TREE_NUTS")):  # fmt: skip
        assert check_label(text, [code], ONTO).verdict != "SAFE", text


def test_a_modifier_alone_is_not_an_ingredient() -> None:
    """Processing and quality words alone ("Kirschen, entsteint", "Pasteurisé.") describe, they name nothing: a note.
    Noun-like processing words ("pulp", "cerneaux" — walnut kernels) and blends are never notes alone ("juice" alone
    is a name: fruit or vegetable juice)."""
    assert "entsteint" in ONTO.modifiers and "entsteint" not in ONTO.synonyms
    r = check_label("sugar, entsteint.", ["PEANUT"], ONTO)
    assert r.verdict == "SAFE" and r.unmatched == () and r.tokens_processed == 1
    for word in ("pulp", "Cerneaux", "Mélange", "blend"):
        assert check_label(f"sugar, {word}", ["TREE_NUTS"], ONTO).unmatched == (word,)


# --- hypothesis properties (issue 8) ------------------------------------------------------------------------------

SYNONYMS = sorted({(p.code, s.text) for syns in ONTO.synonyms.values() for s in syns
                   for p in ONTO.allergen_paths(s.canonical_id) if len(s.text) < 60})  # fmt: skip
MODIFIERS = sorted({*(k for k in ONTO.modifiers if k.isascii() or k.replace(" ", "").isalpha()), *COLOURS, "pure",
                    *(f"non {k}" for k, kind in ONTO.modifiers.items() if kind == "modifier_processing")})
CLEAN = ["water", "sugar", "salt", "rice", "sunflower oil", "citric acid", "eau", "sucre", "sel", "Zucker", "agua"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SYNONYMS), st.lists(st.sampled_from(MODIFIERS), max_size=3),
       st.lists(st.sampled_from(MODIFIERS), max_size=2), st.lists(st.sampled_from(CLEAN), max_size=4),
       st.integers(0, 4), st.booleans())  # fmt: skip
def test_an_allergen_synonym_with_modifiers_in_a_clean_label_is_never_safe(case, before, after, clean, pos, tail):
    code, synonym = case
    item = " ".join([*before, synonym, *after])
    if tail:
        item += " of Spain"
    parts = [*clean[:pos], item, *clean[pos:]]
    text = ", ".join(parts)
    assert check_label(text, [code], ONTO).verdict != "SAFE", text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SYNONYMS), st.lists(st.sampled_from(MODIFIERS), min_size=1, max_size=3))
def test_removing_modifiers_never_removes_an_allergen(case, words):
    """What the bare name carries, the name with modifiers carries too (for every allergen of the full profile) —
    unless the dressed text is itself a known name, read as that name ("chili seasoning", a seasoning for chili con
    carne, is no Chilean "seasoning")."""
    _code, synonym = case
    text = " ".join([*words, synonym])
    assume(lookup_key(text) not in ONTO.synonyms)
    bare = {f.code for f in check_label(synonym, PROFILE_ALL, ONTO).findings}
    dressed = {f.code for f in check_label(text, PROFILE_ALL, ONTO).findings}
    assert bare <= dressed, (synonym, words)


@pytest.mark.parametrize(("text", "codes"), [
    ("glucose syrup from wheat", {"WHEAT", "GLUTEN"}), ("sirop de glucose issu de blé", {"WHEAT", "GLUTEN"}),
    ("tomato concentrate from tomatoes", set()),
    ("yeast grown on barley", {"GLUTEN"}),  # what a yeast is grown on
    ("antioxidant (307b from wheat)", {"WHEAT", "GLUTEN"}),  # a side may be an additive's code without its E
    ("1422 from wheat", {"WHEAT", "GLUTEN"}),
])  # fmt: skip
def test_a_name_made_from_another_reads_as_both(text: str, codes: set[str]) -> None:
    r = check_label(text, ["WHEAT", "GLUTEN", "PEANUT"], ONTO)
    assert r.unmatched == () and {f.code for f in r.findings} == codes
    assert check_label("tomato concentrate from zorblax", ["PEANUT"], ONTO).unmatched != ()


def test_a_side_of_from_is_read_as_its_own_name_before_its_modifiers() -> None:
    """Found by the packing-medium property: "sicilian pecorino" is a cheese that may hold egg lysozyme; the side of
    "AKG from sicilian pecorino" was read as pecorino with an origin word, and the label was SAFE for EGG."""
    for text in ("sugar, AKG from sicilian pecorino", "sugar, AKG in sicilian pecorino"):
        r = check_label(text, ["EGG"], ONTO)
        assert r.verdict == "VERIFY" and [f.code for f in r.findings] == ["EGG"], text


@pytest.mark.parametrize(("bare", "dressed"), [
    ("oat clusters with nuts", "a base de concentre oat clusters with nuts"),
    ("half and half", "frozen half and half"),
    ("mostaza con miel", "halbiertes mostaza con miel"),
])  # fmt: skip
def test_a_name_with_a_conjunction_and_modifiers_is_read_whole(bare: str, dressed: str) -> None:
    """Found by the property above: the modifiers made the tokenizer split the name on its conjunction."""
    want = {f.code for f in check_label(bare, PROFILE_ALL, ONTO).findings}
    r = check_label(dressed, PROFILE_ALL, ONTO)
    assert want and {f.code for f in r.findings} == want and r.unmatched == ()


def test_a_leading_word_that_begins_a_modifier_is_kept_with_it() -> None:
    """"aus" alone is a leading word ("aus Milch"), but "aus fairem Handel" is a modifier: cutting "aus" off left an
    unknown "fairem Handel …" and split the name on its conjunction."""
    r = check_label("aus fairem handel crema de avellanas y cacao", PROFILE_ALL, ONTO)
    assert {f.code for f in r.findings} == {"MILK", "SOY", "TREE_NUTS"} and r.unmatched == ()
    assert {f.code for f in check_label("sugar, aus Milch", PROFILE_ALL, ONTO).findings} == {"MILK"}


def test_a_name_spanning_a_conjunction_is_not_split_away_when_too_long_to_read() -> None:
    """Too many modifiers for the modifier reading: splitting on "y" would read "… copos de trigo" and "salvado …"
    and lose the MILK of the cereal "copos de trigo y salvado"; the item stays whole (unknown, VERIFY, its names as
    hints)."""
    text = "water, liofilizzate descafeinados copos de trigo y salvado allevato a terra gezuckerter of Spain"
    r = check_label(text, ["MILK"], ONTO)
    assert r.verdict == "VERIFY" and [f.code for f in r.findings] == ["MILK"]
    assert r.unmatched == ("liofilizzate descafeinados copos de trigo y salvado allevato a terra gezuckerter of Spain",)
    # a name spanning the conjunction that carries nothing the parts lack does not stop the split
    plain = check_label("sea salt and pepper, milk and honey", ["MILK"], ONTO)
    assert plain.unmatched == () and plain.verdict == "AVOID"


def test_two_heads_of_the_same_length_are_both_read() -> None:
    """"sucres semoule fine": sucre semoule (caster sugar) + fine, or sucres (sweetened) + semoule fine (durum wheat
    semolina); the first one found used to be the only reading, and the wheat was lost."""
    # "sucres semoule" is not read as caster sugar (sucre semoule) by the plural rewrite: "semoule" alone is wheat
    # semolina, and a rewrite never drops what a word of the key surely names
    assert strip_modifiers("sucres semoule fine", ONTO) == ("semoule fine", ("sucres",))
    r = check_label("bajo en sodio sucres semoule fine", ["WHEAT"], ONTO)
    assert r.verdict == "AVOID" and [f.code for f in r.findings] == ["WHEAT"]


def test_a_rewrite_and_a_modifier_reading_both_count() -> None:
    """"maltes flavoring": the inflection rewrite reads malt flavoring (GLUTEN; WHEAT possible, malt may be wheat
    malt), the modifier reading flavoring (CELERY, MUSTARD possible): the token carries the allergens of both."""
    r = check_label("maltes flavoring", PROFILE_ALL, ONTO)
    assert {f.code for f in r.findings} == {"GLUTEN", "WHEAT", "CELERY", "MUSTARD"} and r.unmatched == ()


def test_a_head_read_through_a_rewrite_also_carries_its_modifier_reading() -> None:
    """The same one level down: the head "caramel malte" of "frantumate caramel malte of Spain" is caramel malt
    (inflection) and caramel (modifier malte)."""
    r = check_label("water, frantumate caramel malte of Spain", ["MILK"], ONTO)
    assert r.verdict != "SAFE" and [f.code for f in r.findings] == ["MILK"]


def test_a_modifier_that_is_also_part_of_a_longer_name_gives_both_readings() -> None:
    """"brazil" is an origin and part of "brazil nuts": the longest head names the token, the bare "nuts" (TREE_NUTS
    and PEANUT) is a reading too, so dressing "nuts" in modifiers never drops PEANUT."""
    assert strip_modifiers("teilentolte brazil nuts", ONTO) == ("brazil nuts", ("teilentolte",))
    r = check_label("salt, teilentolte brazil nuts coarsely ground of Spain, rice", ["PEANUT"], ONTO)
    assert r.verdict != "SAFE" and [f.code for f in r.findings] == ["PEANUT"]


@pytest.mark.parametrize(("text", "head", "stripped"), [
    ("cuisse de canard", "canard", ("cuisse", "de")),
    ("os de porc", "porc", ("os", "de")),
    ("coscia di suino", "suino", ("coscia", "di")),
    ("beef bones", "beef", ("bones",)),
    ("Keule vom Lamm", "lamm", ("keule", "vom")),
])  # fmt: skip
def test_a_cut_or_part_of_a_food_reads_as_that_food(text: str, head: str, stripped: tuple[str, ...]) -> None:
    """Cuts and parts (fourth round, ``modifier_part``): a thigh of duck is duck, a bone of pork is pork."""
    assert strip_modifiers(lookup_key(text), ONTO) == (head, stripped)


def test_a_part_word_alone_is_never_a_note_and_a_part_keeps_its_food_allergens() -> None:
    assert ONTO.modifiers.get("breast") == "modifier_part"
    assert check_label("salt, breast", ["PEANUT"], ONTO).unmatched == ("breast",)
    assert check_label("salt, filet de cabillaud", ["FISH"], ONTO).verdict == "AVOID"
    assert check_label("salt, prawn tails", ["SHELLFISH"], ONTO).verdict == "AVOID"


@pytest.mark.parametrize(("text", "expected"), [
    ("red lentils", ("lentils", ("red",))),
    ("lentilles vertes", ("lentilles", ("vertes",))),
    ("rote Zwiebeln", ("zwiebeln", ("rote",))),
    ("red ripe tomatoes", ("tomatoes", ("red", "ripe"))),
    ("white sauce", None),  # a colour names another product before anything but a plant
    ("red curry paste", None),
    ("black pudding", None),
    ("white fish", None),
    ("golden raisins", None),  # sulphured: "golden" is never stripped
])  # fmt: skip
def test_a_colour_is_stripped_only_around_a_fruit_vegetable_pulse_or_mushroom(text: str, expected) -> None:
    assert strip_modifiers(lookup_key(text), ONTO) == expected


@pytest.mark.parametrize(("text", "head", "stripped"), [
    ("non hydrogenated palm oil", "palm oil", ("non", "hydrogenated")),
    ("sel de mer non raffine", "sel de mer", ("non", "raffine")),
    ("pure orange juice", "orange juice", ("pure",)),
    ("pure australian honey", "honey", ("pure", "australian")),
])  # fmt: skip
def test_non_before_a_processing_word_and_english_pure_before_the_head_are_modifiers(text, head, stripped) -> None:
    assert strip_modifiers(text, ONTO) == (head, stripped)


def test_pure_after_the_head_and_non_before_a_name_are_no_modifiers() -> None:
    """"pure" folds like Spanish "puré" (a purée, which may hold milk): only English word order, before the head,
    reads it; "non" negates a process, never a food ("non dairy creamer" is not dairy creamer)."""
    assert strip_modifiers("orange juice pure", ONTO) is None
    assert strip_modifiers("non dairy creamer", ONTO) is None
    assert check_label("sugar, non dairy creamer", ["MILK"], ONTO).verdict != "SAFE"


@pytest.mark.parametrize(("text", "head", "stripped"), [
    ("oak smoked salmon", "salmon", ("oak", "smoked")),
    ("uncooked long grain rice", "long grain rice", ("uncooked",)),
    ("untreated lemons", "lemons", ("untreated",)),
    ("nibbed almonds", "almonds", ("nibbed",)),
    ("unbromated wheat flour", "wheat flour", ("unbromated",)),
    ("citrons non traités", "citrons", ("non", "traites")),
    ("jambon fumé au bois de hêtre", "jambon", ("fume", "au", "bois", "de", "hetre")),
    ("Zitronen unbehandelt", "zitronen", ("unbehandelt",)),
    ("Schinken gepökelt", "schinken", ("gepokelt",)),
    ("concentrado de tomate doble concentrado", "concentrado de tomate", ("doble", "concentrado")),
    ("peperoni grigliati", "peperoni", ("grigliati",)),
])  # fmt: skip
def test_words_that_only_say_how_a_food_was_processed_are_modifiers(text, head, stripped) -> None:
    """Sixth round: concepts of the OFF processing taxonomy that add nothing to the food (cut, smoked over a wood,
    untreated, enriched, double concentrated, grilled …)."""
    assert strip_modifiers(lookup_key(text), ONTO) == (head, stripped)


@pytest.mark.parametrize("text", ["fried onions", "marinated chicken", "pickled herring", "flavoured milk drink",
                                  "chocolate coated raisins", "mashed potato", "oiled raisins", "banana split",
                                  "oignons frits", "poulet mariné", "Zwiebeln frittiert", "pollo marinado",
                                  "patate fritte"])  # fmt: skip
def test_words_that_add_something_unnamed_are_never_modifiers(text: str) -> None:
    """Frying (batter, frying oil), marinades, brines, flavourings, coats and purées add what the label does not
    name: such a token never reads as its bare food, so it never comes out SAFE on its own."""
    result = strip_modifiers(lookup_key(text), ONTO)
    assert result is None or not ({"fried", "marinated", "pickled", "flavoured", "coated", "mashed", "oiled", "split",
                                   "frits", "marine", "frittiert", "marinado", "fritte"} & set(result[1]))  # fmt: skip


def test_seventh_round_quality_and_processing_words() -> None:
    """"exhausted vanilla pods", "enzymes microbiennes", "Speisequark Magerstufe" read as their heads; "à pâte
    molle" is no modifier ("pâte" is also a dough, which may be wheat: the ontology drops it on load)."""
    onto = load_data_dir()
    assert strip_modifiers("exhausted vanilla pods", onto) == ("vanilla pods", ("exhausted",))
    assert strip_modifiers("enzymes microbiennes", onto) == ("enzymes", ("microbiennes",))
    assert lookup_key("à pâte molle") not in onto.modifiers


def test_a_malting_word_is_a_modifier_only_around_a_grain() -> None:
    """"malted rice" is rice malted; "malted milk", "malted chocolate drink", "leche malteado" hold barley malt (the
    reading adds it); "malted" alone is no description of nothing (eighth round)."""
    assert check_label("rice, malted rice", ["GLUTEN"], ONTO).verdict == "SAFE"
    assert check_label("rice, gemalzter Reis", ["GLUTEN"], ONTO).verdict == "SAFE"
    assert check_label("rice, malted chocolate drink", ["GLUTEN"], ONTO).verdict == "AVOID"
    assert check_label("rice, leche malteado", ["GLUTEN"], ONTO).verdict == "AVOID"
    assert check_label("rice, malted", ["GLUTEN"], ONTO).verdict == "VERIFY"
    assert check_label("rice, frutas de cascara, salt", ["TREE_NUTS"], ONTO).verdict == "AVOID"  # Spanish tree nuts


@pytest.mark.parametrize(("text", "codes"), [
    ("lightly carbonated water", set()),
    ("gently cooked chicken", set()),
    ("fein gemahlener Pfeffer", set()),
    ("oignons finement hachés", set()),
    ("lightly fermented black beans", {"SOY"}),  # the longer name the processing word begins: fermented black beans
    ("haricots noirs légèrement fermentés", {"SOY"}),
    ("finely chopped liver", {"EGG"}),  # chopped liver may hold egg; liver alone does not
    ("lightly dry roasted", {"PEANUT", "TREE_NUTS"}),  # dry roasted alone names nuts
])  # fmt: skip
def test_an_adverb_before_a_processing_word_is_read_as_if_it_were_not_there(text: str, codes: set[str]) -> None:
    """"lightly", "finement", "fein" say how much or how: the key without them is read (and what it names counts),
    so an adverb never hides the longer name its processing word begins."""
    r = check_label(f"salt, {text}, rice", ["PEANUT", "TREE_NUTS", "SOY", "EGG", "MILK"], ONTO)
    assert r.unmatched == () and {f.code for f in r.findings} == codes, (text, r.review_reasons)
    assert without_adverbs(lookup_key(text), ONTO) != lookup_key(text)


def test_an_adverb_is_no_modifier_on_its_own() -> None:
    assert strip_modifiers("lightly chicken", ONTO) is None and without_adverbs("lightly chicken", ONTO) == (
        "lightly chicken")
    assert check_label("salt, lightly", ["PEANUT"], ONTO).verdict == "VERIFY"


@pytest.mark.parametrize(("text", "head", "stripped"), [
    ("zinc sulphate monohydrate", "zinc sulphate", ("monohydrate",)),
    ("calcium phosphate tribasic", "calcium phosphate", ("tribasic",)),
    ("extractives of paprika", "paprika", ("extractives", "of")),
    ("dry ginger", "ginger", ("dry",)),
    ("lean ground beef", "ground beef", ("lean",)),
    ("autres aromes naturels", "aromes naturels", ("autres",)),
])  # fmt: skip
def test_hydration_states_extractives_and_quality_words_are_modifiers(text: str, head: str, stripped) -> None:
    """Eleventh round: the forms of a salt (hydrates, "tribasic"), US "extractives", "dry", "lean" and "other"."""
    assert strip_modifiers(text, ONTO) == (head, stripped)


@pytest.mark.parametrize(("text", "verdict"), [
    ("whole grain popcorn", "SAFE"),
    ("organic whole grain brown rice", "SAFE"),
    ("organic wholegrain rice", "SAFE"),
    ("whole grain tortilla chips", "VERIFY"),  # whole grains the name does not say
    ("whole grain crisps", "VERIFY"),
    ("whole grain", "VERIFY"),  # alone: grains, which may be wheat
])  # fmt: skip
def test_whole_grain_before_a_grain_is_that_grain_and_before_anything_else_no_reading(text: str, verdict: str) -> None:
    """"whole grain" is a quality of the grain it stands before; joined ("wholegrain") it names the same thing, so
    joining its two words reveals no hidden cereal — but before a food that is no grain it may be grains unsaid."""
    assert check_label(text, ["GLUTEN"], ONTO).verdict == verdict


@pytest.mark.parametrize("text", ["whole grain semi-skimmed", "organic whole grain semi-skimmed.",
                                  "organic whole grain baby swiss.", "whole grain grattugiato"])  # fmt: skip
def test_stripped_words_that_name_a_food_the_head_lacks_make_no_reading(text: str) -> None:
    """Found by the eleventh round's sweep: "whole grain" read as the head (cereal) with "semi skimmed" or "baby
    swiss" stripped after it lost the milk those words name; such a reading is no reading."""
    assert check_label(f"Rice, water, {text}", ["MILK"], ONTO).verdict != "SAFE"
    assert strip_modifiers("gruyere rape", ONTO) == ("gruyere", ("rape",))  # a word of two senses inside a name


def test_processing_words_at_the_cut_off_end_of_a_list_are_unknown_not_a_description() -> None:
    """"…, roasted" of roasted peanuts: the last item of a text with no closing mark after it (an ellipsis marks the
    cut) may have lost its food — only a closed one ("Lightly carbonated.") describes the product; a word of what a food
    is made of ("whole", "nonfat", "monohydrate") is never a description, and a part word alone outside brackets is
    none either; a quality word at the end is a footnote's mark ("*organic")."""
    for text in ("Sugar, roasted", "Sugar, sliced...", "Sugar, roasted [...]", "Water. Lightly carbonated",
                 "Sugar, whole.", "Sugar, whole, salt", "Sugar, nonfat dry, salt.", "Sugar, monohydrate.",
                 "Sugar, whole\nKeep refrigerated."):
        r = check_label(text, ["MILK", "PEANUT"], ONTO)
        assert r.verdict == "VERIFY" and r.unmatched, text
    for text in ("Water. Lightly carbonated.", "Salt (unrefined)", "Sea salt. Harvested by hand.", "Sugar, roasted.",
                 "Organic sugar, salt. *organic", "Cumin seeds (whole), salt"):
        assert check_label(text, ["MILK", "PEANUT"], ONTO).verdict == "SAFE", text


def test_a_processing_word_as_written_is_no_inflected_food_name() -> None:
    """French "rôties" (roasted) folds to a form of "roti", an Indian flatbread (gluten): as a known processing word
    it is read as written, never as the bread ("Arachides rôties" are roasted peanuts)."""
    assert strip_modifiers("arachides roties", ONTO) == ("arachides", ("roties",))
    assert check_label("Arachides rôties, sel", ["GLUTEN"], ONTO).verdict == "SAFE"
    assert check_label("Arachides rôties, sel", ["PEANUT"], ONTO).verdict == "AVOID"
    assert check_label("wheat rotis, salt", ["GLUTEN"], ONTO).verdict == "AVOID"
