"""Tokenizer rules: separators, nesting with spans, conjunctions, percentages, headers, classes, E-numbers, emphasis."""

from __future__ import annotations

import pytest

from dinecheck.allergens.tokenize import MAX_LABEL_CHARS, canonical_key, e_number_base, tokenize
from dinecheck.errors import OntologyError


def keys(text: str, **kw) -> list[str]:
    return [t.key for t in tokenize(text, **kw)]


def test_separators_and_decimal_commas() -> None:
    assert keys("sugar, salt; water. oil") == ["sugar", "salt", "water", "oil"]
    assert keys("vin blanc 1,9%, sel") == ["vin blanc", "sel"]
    assert keys("cocoa 4.5%, milk") == ["cocoa", "milk"]
    assert keys("Cornichons - eau - vinaigre") == ["cornichons", "eau", "vinaigre"]


def test_nested_brackets_give_parent_and_children_with_spans() -> None:
    text = "seasoning (whey, salt [sea salt (grey)]), sugar"
    toks = tokenize(text)
    assert [(t.key, t.depth, t.parent) for t in toks] == [
        ("seasoning", 0, None), ("whey", 1, 0), ("salt", 1, 0), ("sea salt", 2, 2), ("grey", 3, 3), ("sugar", 0, None),
    ]  # fmt: skip
    for t in toks:
        assert text[t.span[0] : t.span[1]] == t.text


def test_text_after_a_closing_bracket_is_its_own_token_and_unbalanced_brackets_do_not_crash() -> None:
    assert keys("Amalona (Anguille)Sel") == ["amalona", "anguille", "sel"]
    assert keys("milk (whey, salt") == ["milk", "whey", "salt"]
    assert keys("milk) salt], sugar") == ["milk", "salt", "sugar"]


def test_conjunctions_in_five_languages_and_known_whole_names() -> None:
    assert keys("salt and pepper, sucre et sel, Zucker und Salz, sal y azúcar, sale e zucchero, lait ou crème") == [
        "salt", "pepper", "sucre", "sel", "zucker", "salz", "sal", "azucar", "sale", "zucchero", "lait", "creme",
    ]  # fmt: skip
    assert keys("salt & pepper, dextrose/maltodextrin") == ["salt", "pepper", "dextrose", "maltodextrin"]
    assert keys("sweet and sour sauce", known=lambda k: k == "sweet and sour sauce") == ["sweet and sour sauce"]
    assert keys("sweet and sour sauce") == ["sweet", "sour sauce"]


def test_percentages_emphasis_and_capitals() -> None:
    assert keys("EMMENTAL 52,9%, _almendras_ (2%), MILK*, cacao¹, < 2% salt, 17,5 % eau") == [
        "emmental", "almendras", "milk", "cacao", "salt", "eau",
    ]  # fmt: skip


def test_ingredient_headers_in_five_languages_are_dropped() -> None:
    for head in ("Ingredients:", "Ingrédients :", "Zutaten:", "Ingredientes:", "Ingredienti:", "INGREDIENTS :"):
        assert keys(f"{head} sugar, salt") == ["sugar", "salt"], head
    assert keys("Ingrédients : Ingrédients:Maïs doux") == ["mais doux"]


def test_class_names_before_a_colon_are_tokens_too() -> None:
    toks = tokenize("emulsifier: soy lecithin, acidifiant : acide citrique")
    assert [(t.key, t.role) for t in toks] == [
        ("emulsifier", "class"), ("soy lecithin", "ingredient"), ("acidifiant", "class"), ("acide citrique", "ingredient"),
    ]  # fmt: skip


def test_e_numbers_are_canonicalised() -> None:
    assert keys("E 322, E-322, e322, E322i, E 150 d, E150(d)") == ["e322", "e322", "e322", "e322i", "e150d", "e150d"]
    assert keys("thickener E415") == ["thickener", "e415"]
    assert canonical_key("E-472e") == "e472e"
    assert e_number_base("e322i") == "e322" and e_number_base("e150d") == "e150" and e_number_base("e322") is None


def test_leading_of_which_words_and_notes() -> None:
    toks = tokenize("épices (dont CELERI), LAIT (origine France), Pfeffer* *aus biologischer Landwirtschaft")
    assert [(t.key, t.role) for t in toks] == [
        ("epices", "ingredient"), ("celeri", "ingredient"), ("lait", "ingredient"), ("origine france", "note"),
        ("pfeffer", "ingredient"), ("biologischer landwirtschaft", "note"),
    ]  # fmt: skip


def test_masks_act_as_separators() -> None:
    text = "milk may contain nuts, sugar"
    assert keys(text, masks=[(5, 21)]) == ["milk", "sugar"]


def test_empty_and_punctuation_only_input() -> None:
    assert tokenize("") == ()
    assert tokenize(" , ;; () [] 12% .") == ()


def test_size_limit_is_a_clear_error() -> None:
    with pytest.raises(OntologyError, match=f"ingredients_text: label text is {MAX_LABEL_CHARS + 1} characters; the limit is {MAX_LABEL_CHARS}"):
        tokenize("a" * (MAX_LABEL_CHARS + 1))


def test_deep_nesting_and_long_inputs_are_linear_and_do_not_crash() -> None:
    deep = "(" * 5000 + "milk" + ")" * 5000
    assert keys(deep) == ["milk"]
    long = ", ".join(["sugar"] * 10000)
    assert len(tokenize(long)) == 10000
    assert keys("a" * 50_000 + " e 1" + "_" * 40_000) != []


def test_one_letter_abbreviations_and_leading_with_from() -> None:
    assert keys("cultures: S. thermophilus, L. acidophilus. Salt, vitamin E. Sugar") == [
        "cultures", "s. thermophilus", "l. acidophilus", "salt", "vitamin e", "sugar",
    ]  # fmt: skip
    assert keys("lactose (from milk), wheat flour (with calcium)") == ["lactose", "milk", "wheat flour", "calcium"]


def test_words_before_a_percentage_are_kept() -> None:
    # a "max"/"min" word is part of a name ("Glycine max" is the soy bean), never a percentage qualifier
    assert keys("Glycine max 2%, cocoa solids min 50%") == ["glycine max", "cocoa solids min"]


def test_purpose_clauses_and_trailing_provenance_are_notes_only_when_made_of_purpose_words() -> None:
    toks = tokenize("Pomme origine France 79,9 %, SODIUM BENZOATE AS A PRESERVATIVE, ascorbic acid (to protect color "
                    "and flavor), rosemary extract (for freshness), salt (for milk lovers)")  # fmt: skip
    assert [(t.text, t.role) for t in toks] == [
        ("Pomme", "ingredient"), ("origine France", "note"), ("SODIUM BENZOATE", "ingredient"),
        ("AS A PRESERVATIVE", "note"), ("ascorbic acid", "ingredient"), ("to protect color and flavor", "note"),
        ("rosemary extract", "ingredient"), ("for freshness", "note"), ("salt", "ingredient"),
        ("for milk lovers", "ingredient"),
    ]  # fmt: skip


def test_pasted_markup_is_a_separator() -> None:
    text = "Ingrédients : <!--td {border: 1px solid #ccc;}br {mso-data-placement:same-cell;}Anguille, <b>LAIT</b>, sel"
    assert keys(text) == ["anguille", "lait", "sel"]
    assert keys("salt {sea salt}, a < b") == ["salt", "sea salt", "a < b"]


def test_plant_part_words_are_notes_and_vitamin_letters_take_their_context() -> None:
    toks = tokenize("Kale (Leaf) Powder, Ashwagandha (Whole Plant), vitaminas: D2, E; vitamines (B2, E), E 300")
    assert [(t.key, t.role) for t in toks] == [
        ("kale", "ingredient"), ("leaf", "note"), ("powder", "note"), ("ashwagandha", "ingredient"),
        ("whole plant", "note"), ("vitaminas", "class"), ("vitamin d2", "ingredient"), ("vitamin e", "ingredient"),
        ("vitamines", "ingredient"), ("vitamin b2", "ingredient"), ("vitamin e", "ingredient"), ("e300", "ingredient"),
    ]  # fmt: skip
    assert keys("sugar, E") == ["sugar", "e"]  # no vitamin context: the letter stays as it is (and is unknown)


def test_with_including_made_from_proportions_certifications_and_trailing_minimum() -> None:
    toks = tokenize("natural flavourings including passion fruit, MILK SOLIDS 14% MINIMUM, MADE FROM ROASTED PEANUTS "
                    "AND SUGAR, Dried Fruit Blend in varying proportions, Vérifié Rainforest Alliance™, Vegetarian, "
                    "jus (si nécessaire pour réguler l'acidité), seasoning with sea salt")  # fmt: skip
    assert [(t.key, t.role) for t in toks] == [
        ("natural flavourings", "ingredient"), ("passion fruit", "ingredient"), ("milk solids", "ingredient"),
        ("roasted peanuts", "ingredient"), ("sugar", "ingredient"), ("dried fruit blend", "ingredient"),
        ("in varying proportions", "note"), ("verifie rainforest alliance", "note"), ("vegetarian", "note"),
        ("jus", "ingredient"), ("si necessaire pour reguler l'acidite", "note"), ("seasoning", "ingredient"),
        ("sea salt", "ingredient"),
    ]  # fmt: skip
    assert keys("bread with seeds", known=lambda k: k == "bread with seeds") == ["bread with seeds"]


def test_conjunctions_split_class_names_and_notes_before_a_percentage() -> None:
    toks = tokenize("aroma y vitaminas: A (acetato de retinilo), D; Mixed root vegetables in variable proportions 61% "
                    "(parsnip)")  # fmt: skip
    assert [(t.key, t.role) for t in toks] == [
        ("aroma", "class"), ("vitaminas", "class"), ("vitamin a", "ingredient"), ("acetato de retinilo", "ingredient"),
        ("vitamin d", "ingredient"), ("mixed root vegetables", "ingredient"), ("in variable proportions", "note"),
        ("parsnip", "ingredient"),
    ]  # fmt: skip


def test_a_word_shared_across_a_conjunction_is_read_when_the_result_is_known() -> None:
    known = {"sunflower oil", "rapeseed oil", "ascorbic acid", "citric acid", "huile de colza", "huile de tournesol"}
    toks = tokenize("sunflower and rapeseed oil, ascorbic and citric acid, huile de tournesol et de colza, salt and "
                    "pepper", known=known.__contains__)  # fmt: skip
    assert [(t.text, t.key) for t in toks] == [
        ("sunflower", "sunflower oil"), ("rapeseed oil", "rapeseed oil"), ("ascorbic", "ascorbic acid"),
        ("citric acid", "citric acid"), ("huile de tournesol", "huile de tournesol"), ("de colza", "huile de colza"),
        ("salt", "salt"), ("pepper", "pepper"),
    ]  # fmt: skip


def test_a_dash_before_a_conjunction_is_a_shared_prefix_not_a_separator() -> None:
    known = {"mono and diglycerides of fatty acids"}.__contains__
    assert keys("mono - and diglycerides of fatty acids, eau - sel", known=known) == [
        "mono and diglycerides of fatty acids", "eau", "sel",
    ]  # fmt: skip


def test_an_adjective_shared_forward_across_a_conjunction() -> None:
    known = {"graines de moutarde jaune", "graines de moutarde brune"}.__contains__
    assert keys("graines de moutarde jaune et brune", known=known) == [
        "graines de moutarde jaune", "graines de moutarde brune",
    ]  # fmt: skip
    assert keys("milk chocolate and peanuts", known=known) == ["milk chocolate", "peanuts"]


def test_a_name_split_only_by_its_inner_hyphens_stays_whole() -> None:
    """"Mono- and Di-Glycerides of Fatty Acids" is the known name with its hyphens joined: not two items."""
    from dinecheck.allergens.ontology import load_data_dir
    from dinecheck.allergens.pipeline import check_label

    onto = load_data_dir()
    text = "Emulsifier: Mono- and Di-Glycerides of Fatty Acids"
    assert check_label(text, ["PEANUT"], onto).verdict == "SAFE"
    assert check_label("pea-nut and salt", ["PEANUT"], onto).verdict == "AVOID"


def test_a_dotted_abbreviation_is_one_word_read_without_its_periods() -> None:
    """"D.O.P.", "g.g.A.", "D.O.Ca.": designations of origin, never sentence ends; prose abbreviations ("e.g.") and
    words of three letters or more ("sugar.salt") still part what they stand between."""
    roles = [(t.key, t.role) for t in tokenize("Queso Manchego D.O.P., sal")]
    assert roles == [("queso manchego", "ingredient"), ("dop", "note"), ("sal", "ingredient")]  # a trailing note
    assert keys("Schinken g.g.A.; Salz") == ["schinken", "gga", "salz"]
    assert keys("Vino tinto D.O.Ca. Rioja") == ["vino tinto doca", "rioja"]
    assert keys("salt, e.g. pepper") == ["salt", "e", "g", "pepper"]
    assert keys("sugar.salt.milk") == ["sugar", "salt", "milk"]
    assert keys("L. acidophilus, milk") == ["l. acidophilus", "milk"]


def test_where_a_share_stands_is_no_part_of_the_name() -> None:
    """Directive 2000/36/EC: "Kakao: 30 % mindestens in der Milchschokolade" — the chocolate it names is read."""
    assert keys("Kakao 30 % mindestens, in der Milchschokolade") == ["kakao", "milchschokolade"]
    assert keys("cacao, dans le chocolat au lait") == ["cacao", "chocolat au lait"]


def test_an_alcoholic_strength_is_a_share_like_a_percentage() -> None:
    """"12,5 % vol", "4.5% ABV", "40% alc./vol." (EU 1169/2011 Annex XII): the whole strength goes, not just the %."""
    keys = [t.key for t in tokenize("Bière blanche 5% vol, Cidre 4,5 % vol., Lager 4.5% ABV, Wine 12% alc./vol.")]
    assert keys[:3] == ["biere blanche", "cidre", "lager"] and keys[3].startswith("wine")


def test_a_lead_word_before_function_words_only_stays_with_them() -> None:
    """"con somé" may be "consomé" split by a space (a hypothesis property found it read as "some", a fragment of
    prose): a lead word is dropped only when more than function words is left ("con sal" is salt)."""
    from dinecheck.allergens.ontology import load_data_dir
    from dinecheck.allergens.pipeline import check_label

    assert [t.key for t in tokenize("con somé, salt")] == ["con some", "salt"]
    assert [t.key for t in tokenize("Rice, con sal")] == ["rice", "sal"]
    assert check_label("con somé, salt", ["CELERY"], load_data_dir()).verdict != "SAFE"
