"""End to end through ``check_label``: the spec's testing checklist and the issue's named cases (mini ontology)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinecheck.allergens.normalize import normalize, resolve_key
from dinecheck.allergens.ontology import ALLERGEN_CODES, RiskLevel, load_data_dir
from dinecheck.allergens.pipeline import PROFILE_ALL, _as_specifications, check_label, parse_profile
from dinecheck.allergens.tokenize import tokenize
from dinecheck.errors import OntologyError

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "allergens_mini"
FULL = load_data_dir()  # the shipped data (a few tests need its vocabulary)


@pytest.fixture(scope="module")
def onto():
    return load_data_dir(MINI)


def levels(text: str, profile, onto) -> dict[str, str]:
    return {f.code: f.level.value for f in check_label(text, profile, onto).findings}


# --- the spec's testing checklist ---------------------------------------------------------------------------------


def test_groundnut_is_peanut(onto) -> None:
    r = check_label("groundnut", ["PEANUT"], onto)
    assert r.verdict == "AVOID" and levels("groundnut", ["PEANUT"], onto) == {"PEANUT": "DEFINITE"}


def test_whey_protein_concentrate_is_milk(onto) -> None:
    assert check_label("whey protein concentrate, sugar", ["MILK"], onto).verdict == "AVOID"
    assert levels("whey protein concentrate", ["MILK"], onto) == {"MILK": "DERIVED"}


def test_may_contain_nuts_flags_tree_nuts_possible(onto) -> None:
    r = check_label("sugar, salt. May contain nuts.", ["TREE_NUTS"], onto)
    assert r.verdict == "VERIFY" and levels("sugar, salt. May contain nuts.", ["TREE_NUTS"], onto) == {"TREE_NUTS": "POSSIBLE"}
    assert r.unmatched == () and r.tokens_processed == 2


def test_unknown_ingredient_requires_review(onto) -> None:
    r = check_label("sugar, flibbertigibbet", ["PEANUT"], onto)
    assert (r.verdict, r.unmatched, r.tokens_processed, r.tokens_matched) == ("VERIFY", ("flibbertigibbet",), 2, 1)
    assert r.confidence == pytest.approx(0.7 * 0.5) and r.match_rate == 0.5


@pytest.mark.parametrize("text", ["", "   ", "Ingredients:", "  ,;. ()"])
def test_empty_input_requires_review(text: str, onto) -> None:
    r = check_label(text, PROFILE_ALL, onto)
    assert r.verdict == "VERIFY" and r.tokens_processed == 0 and r.confidence == 0.0
    assert "no ingredient could be read from the label (empty input)" in r.review_reasons


# --- the named cases --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["pea protein", "chickpeas", "peas", "pois chiche"])
def test_peas_and_chickpeas_are_not_peanut(text: str, onto) -> None:
    r = check_label(text, ["PEANUT"], onto)
    assert (r.verdict, r.findings) == ("SAFE", ())


def test_nutmeg_and_coconut_are_not_tree_nuts(onto) -> None:
    assert check_label("nutmeg, coconut", ["TREE_NUTS"], onto).verdict == "SAFE"


def test_buckwheat_is_not_wheat_or_gluten(onto) -> None:
    assert check_label("buckwheat", ["WHEAT", "GLUTEN"], onto).verdict == "SAFE"


@pytest.mark.parametrize("text", ["arachis oil", "cacahuète", "Erdnüsse", "CACAHUÈTES", "huile d'arachide"])
def test_regional_and_foreign_peanut_names(text: str, onto) -> None:
    r = check_label(text, ["PEANUT"], onto)
    assert r.verdict == "AVOID" and r.findings[0].code == "PEANUT"


def test_allergen_inside_nested_brackets_is_found_with_its_span(onto) -> None:
    text = "sugar, seasoning (salt, [water (peanut oil 2%)]), water"
    r = check_label(text, ["PEANUT"], onto)
    [f] = r.findings
    assert r.verdict == "AVOID" and text[f.span[0] : f.span[1]] == "peanut oil 2%" and f.token == "peanut oil"


@pytest.mark.parametrize("text", ["sugar, MILK", "sugar, _milk_", "sugar, *milk*", "sugar, Milk*", "SUGAR, LAIT"])
def test_emphasised_words_are_found(text: str, onto) -> None:
    assert check_label(text, ["MILK"], onto).verdict == "AVOID"


def test_contains_milk_is_definite_even_without_a_milk_token(onto) -> None:
    r = check_label("sugar, cocoa butter. Contains: milk.", ["MILK"], onto)
    assert r.verdict == "AVOID" and {f.level for f in r.findings} == {RiskLevel.DEFINITE}
    assert [h.allergens for h in r.risk_phrases] == [("MILK",)]


def test_absence_claims_never_create_definite_and_never_make_safe_alone(onto) -> None:
    assert check_label("Gluten free", ["GLUTEN"], onto).verdict == "VERIFY"  # nothing else to read
    assert check_label("sugar, salt. Sans gluten.", ["GLUTEN"], onto).findings == ()
    assert check_label("Suitable for people with milk allergy", ["MILK"], onto).findings == ()


def test_generic_warning_applies_to_every_profile_allergen(onto) -> None:
    assert levels("sugar. Produced in a facility that also processes.", ["PEANUT", "EGG"], onto) == {
        "PEANUT": "POSSIBLE", "EGG": "POSSIBLE",
    }  # fmt: skip


def test_spec_example(onto) -> None:
    text = "Milk, sugar, groundnut oil, wheat flour (contains gluten), may contain traces of nuts"
    r = check_label(text, ["PEANUT", "MILK", "TREE_NUTS", "GLUTEN"], onto)
    assert r.verdict == "AVOID"
    assert levels(text, ["PEANUT", "MILK", "TREE_NUTS", "GLUTEN"], onto) == {
        "MILK": "DEFINITE", "GLUTEN": "DEFINITE", "PEANUT": "DERIVED", "TREE_NUTS": "TRACE",
    }  # fmt: skip
    assert [(h.phrase, h.type) for h in r.risk_phrases] == [
        ("contains", "CONTAINS"), ("may contain traces of", "CROSS_CONTAMINATION"),
    ]  # fmt: skip
    assert r.unmatched == ()


def test_json_shape_of_the_cli_contract(onto) -> None:
    r = check_label("sugar, peanuts. May contain milk.", ["PEANUT", "MILK"], onto)
    j = r.to_json("p1")
    assert list(j) == ["id", "verdict", "allergens", "unmatched", "risk_phrases", "confidence", "match_rate", "reasons"]
    assert j["id"] == "p1" and j["verdict"] == "AVOID"
    assert j["allergens"] == [
        {"code": "PEANUT", "level": "DEFINITE", "source": "ingredient", "token": "peanuts", "span": [7, 14]},
        {"code": "MILK", "level": "POSSIBLE", "source": "phrase", "token": "may contain", "span": [16, 32]},
    ]
    assert j["risk_phrases"] == [{"phrase": "may contain", "type": "CROSS_CONTAMINATION", "level": "POSSIBLE",
                                  "allergens": ["MILK"], "unresolved": [], "span": [16, 32]}]  # fmt: skip
    assert (j["confidence"], j["match_rate"]) == (0.8, 1.0)


def test_parse_profile() -> None:
    assert parse_profile("ALL") == ALLERGEN_CODES
    assert parse_profile(" milk , PEANUT,milk") == ("PEANUT", "MILK")
    with pytest.raises(OntologyError, match=r"^--allergens: unknown allergen code\(s\) NUTZ; known: PEANUT, .*; "
                                            r"aliases: .*DAIRY"):
        parse_profile("PEANUT,NUTZ")
    assert parse_profile("dairy") == ("MILK",)
    assert parse_profile("Peanuts, eggs") == ("PEANUT", "EGG")
    assert parse_profile("nuts") == ("PEANUT", "TREE_NUTS")
    assert parse_profile("tree nuts, soya, sulfites") == ("SOY", "TREE_NUTS", "SULPHITES")
    with pytest.raises(OntologyError, match="ALL cannot be combined"):
        parse_profile("ALL,MILK")
    with pytest.raises(OntologyError, match="^--allergens: the allergen profile is empty"):
        parse_profile(" , ")


def test_unknown_profile_code_and_bad_text_are_errors(onto) -> None:
    with pytest.raises(OntologyError, match="^profile: unknown allergen code"):
        check_label("milk", ["NUTS"], onto)
    with pytest.raises(OntologyError, match="^ingredients_text: label text must be a string"):
        check_label(None, ["MILK"], onto)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sugar. Free from nuts, gluten and milk.", {"GLUTEN": "POSSIBLE", "MILK": "POSSIBLE"}),
        ("sugar, milk and gluten free", {"MILK": "POSSIBLE"}),
        ("sugar. sans gluten et sans lait", {}),
        ("sugar. free from peanuts, milk, salt", {"MILK": "POSSIBLE"}),  # is the milk claimed absent, or an ingredient?
    ],
)
def test_absence_claim_lists_never_create_definite_and_never_drop_an_item(text: str, expected: dict, onto) -> None:
    profile = ["PEANUT", "MILK", "GLUTEN", "TREE_NUTS"]
    assert levels(text, profile, onto) == expected
    assert check_label(text, profile, onto).verdict == ("SAFE" if not expected else "VERIFY")


def test_demo_labels_give_their_documented_verdicts() -> None:
    import json
    from importlib import resources

    shipped = load_data_dir()
    path = Path(str(resources.files("dinecheck.sample") / "labels.jsonl"))
    got = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        label = json.loads(line)
        r = check_label(label["ingredients_text"], PROFILE_ALL, shipped)
        got[label["id"]] = (r.verdict, sorted({f.code for f in r.findings}))
    assert got == {
        "demo-en-juice": ("SAFE", []),
        "demo-en-peanut-snack": ("AVOID", ["PEANUT"]),
        "demo-en-crackers-traces": ("VERIFY", ["MUSTARD", "SESAME"]),
        "demo-en-bar-nested": ("AVOID", ["MILK", "SOY"]),
        "demo-fr-biscuit": ("AVOID", ["MILK"]),
        "demo-fr-mango-traces": ("VERIFY", ["TREE_NUTS"]),
        "demo-de-bread": ("AVOID", ["GLUTEN", "WHEAT"]),
        "demo-de-unknown": ("VERIFY", []),
        "demo-empty": ("VERIFY", []),
    }


def test_a_token_read_as_several_names_is_possible_and_verify_never_safe(onto) -> None:
    r = check_label("water, PEANUTS SUGAR", ["PEANUT"], onto)
    assert (r.verdict, [(f.code, f.level.value) for f in r.findings], r.unmatched) == (
        "VERIFY", [("PEANUT", "POSSIBLE")], (),
    )  # fmt: skip
    assert "'PEANUTS SUGAR' was read as 2 ingredients (peanuts | sugar): a separator seems missing" in r.review_reasons
    assert check_label("water, sugar salt", ["PEANUT"], onto).verdict == "VERIFY"  # two words: maybe a compound
    # from three words on, a token that reads exactly as known names is a list missing its commas: no doubt left
    r = check_label("water, sugar salt water", ["PEANUT"], onto)
    assert r.verdict == "SAFE" and r.unmatched == ()


@pytest.mark.parametrize(
    "text",
    ["sugar, keep refrigerated peanuts", "sugar. Allergy advice: see ingredients in bold peanuts",
     "sugar (origine peanuts)", "sugar (to protect peanuts)", "sugar, peanut (leaf)"],
)
def test_notes_statements_and_boilerplate_never_hide_an_allergen(text: str, onto) -> None:
    r = check_label(text, ["PEANUT"], onto)
    assert r.verdict != "SAFE" and [f.code for f in r.findings] == ["PEANUT"]


def test_an_absence_claim_object_that_is_not_one_name_keeps_its_allergen_words(onto) -> None:
    r = check_label("water. sans sucre lait", ["MILK"], onto)
    assert r.verdict == "VERIFY" and [(f.code, f.level.value) for f in r.findings] == [("MILK", "POSSIBLE")]
    assert check_label("water. sans lait", ["MILK"], onto).verdict == "SAFE"  # the claimed object itself


# --- the spec's checklist on the shipped ontology -----------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return load_data_dir()


def test_every_allergen_code_has_synonyms_in_the_shipped_ontology(shipped) -> None:
    reachable: dict[str, int] = {}
    for syns in shipped.synonyms.values():
        for syn in syns:
            for path in shipped.allergen_paths(syn.canonical_id):
                reachable[path.code] = reachable.get(path.code, 0) + 1
    assert sorted(reachable) == sorted(ALLERGEN_CODES)
    assert min(reachable.values()) >= 10, reachable


@pytest.mark.parametrize(
    ("text", "code"),
    [("mungfali", "PEANUT"), ("maida", "WHEAT"), ("atta", "GLUTEN"), ("groundnut oil", "PEANUT"),
     ("Arachis hypogaea", "PEANUT"), ("whey protein concentrate", "MILK"), ("cacahuète", "PEANUT"),
     ("Erdnüsse", "PEANUT"), ("arachis oil", "PEANUT")],
)  # fmt: skip
def test_regional_scientific_and_foreign_names_on_the_shipped_ontology(text: str, code: str, shipped) -> None:
    r = check_label(text, [code], shipped)
    assert r.verdict == "AVOID" and [f.code for f in r.findings] == [code]


@pytest.mark.parametrize(
    ("text", "profile"),
    [("besan", ["PEANUT", "WHEAT", "GLUTEN"]), ("pea protein", ["PEANUT"]), ("chickpeas", ["PEANUT"]),
     ("nutmeg", ["TREE_NUTS"]), ("buckwheat", ["WHEAT", "GLUTEN"])],
)  # fmt: skip
def test_look_alikes_are_not_allergens_on_the_shipped_ontology(text: str, profile: list, shipped) -> None:
    r = check_label(text, profile, shipped)
    assert (r.verdict, r.findings) == ("SAFE", ())


def test_regional_names_exist_for_india_and_europe(shipped) -> None:
    regions = {s.region for syns in shipped.synonyms.values() for s in syns if s.type == "REGIONAL"}
    assert "IN" in regions and regions & {"GB", "FR", "DE", "IT", "ES", "PT", "EU"}


def test_a_shared_word_reading_never_drops_an_allergen(onto) -> None:
    # "peanut oil" keeps PEANUT, so it is read; "milk chocolate" keeps MILK; nothing ever loses the lone word's allergen
    assert levels("peanut and sunflower oil", ["PEANUT"], onto) == {"PEANUT": "DERIVED"}
    assert levels("milk and white chocolate", ["MILK"], onto) == {"MILK": "DERIVED"}
    from dinecheck.allergens.normalize import keeps_allergens

    assert keeps_allergens("peanut", "peanut oil", onto) and not keeps_allergens("peanut", "sunflower oil", onto)


def test_a_shellfish_profile_flags_molluscs_and_the_other_way_round() -> None:
    """Everyday "shellfish" covers molluscs too: a SHELLFISH profile gets molluscs at POSSIBLE (never SAFE), a
    MOLLUSCS profile gets crustaceans at POSSIBLE; each keeps its own allergen's level."""
    shipped = load_data_dir()
    r = check_label("Mussels (molluscs) 65%, olive oil, salt", ["SHELLFISH"], shipped)
    assert r.verdict == "VERIFY" and [(f.code, f.level) for f in r.findings] == [("SHELLFISH", RiskLevel.POSSIBLE)]
    assert "molluscs, which a shellfish allergy may include" in r.findings[0].explanation
    r = check_label("shrimp, salt", ["MOLLUSCS"], shipped)
    assert r.verdict == "VERIFY" and [(f.code, f.level) for f in r.findings] == [("MOLLUSCS", RiskLevel.POSSIBLE)]
    assert check_label("shrimp, salt", ["SHELLFISH"], shipped).verdict == "AVOID"
    assert check_label("Mussels, salt", ["MOLLUSCS"], shipped).verdict == "AVOID"
    assert check_label("rice, salt", ["SHELLFISH", "MOLLUSCS"], shipped).verdict == "SAFE"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Water, colour: caramel", "SAFE"),  # the colour class says it is the colour E150, no milk
        ("Colours (Caramel, Riboflavins)", "SAFE"),
        ("Farbstoff: Caramel", "SAFE"),
        ("caramel", "VERIFY"),  # plain caramel may be a dairy caramel
        ("sugar, caramel, colour", "VERIFY"),  # not under the class
        ("Colour: caramel, caramel", "VERIFY"),  # only the item right after the colon
    ],
)
def test_a_name_under_a_colour_class_is_that_colour(text: str, verdict: str) -> None:
    assert check_label(text, ["MILK"], load_data_dir()).verdict == verdict


@pytest.mark.parametrize(
    ("text", "code", "verdict"),
    [
        ("Säuerungsmittel Citronensäure, Zucker", "PEANUT", "SAFE"),  # a class and its name, the colon lost
        ("Nori Seaweed, rice", "PEANUT", "SAFE"),  # a name and its own kind
        ("Annatto Norbixin, rice", "PEANUT", "SAFE"),  # one colour said twice
        ("Garlic Butter, rice", "PEANUT", "VERIFY"),  # two names: a separator may be missing
        ("Garlic Butter, rice", "MILK", "VERIFY"),  # and the butter is still milk, at POSSIBLE
    ],
)
def test_two_names_said_as_one_are_no_doubt_when_they_name_one_thing(text: str, code: str, verdict: str) -> None:
    assert check_label(text, [code], load_data_dir()).verdict == verdict


def test_a_guessed_ending_never_lands_on_a_name_of_another_language() -> None:
    """"pois jaunes" (yellow peas) once read "jaunes" as the Hindi "jaun" (barley) through the plural rewrite."""
    onto = load_data_dir()
    r = check_label("pois jaunes", ["GLUTEN"], onto)
    assert [f.code for f in r.findings] == [] and r.unmatched == () and r.verdict == "SAFE"  # yellow peas
    syns, _key, rule = resolve_key("pois jaunes", onto)
    assert rule == "exact" and {s.lang for s in syns} == {"fr"}  # the French name, not a rewrite into Hindi


def test_a_dutch_list_is_read_by_name() -> None:
    """Belgian and Dutch labels print the list in Dutch: its names are read (exact names, no rewrites), its header,
    warnings and keeping lines too; a word of two languages keeps both senses ("mout" is Dutch malt, French moût)."""
    onto = load_data_dir()
    text = "Ingrediënten: suiker, tarwebloem, zout, zonnebloemolie. Kan sporen van pinda's bevatten. Koel en droog bewaren."
    r = check_label(text, ["GLUTEN", "MILK", "SOY"], onto)
    assert r.unmatched == () and r.verdict == "AVOID" and [f.code for f in r.findings] == ["GLUTEN"]
    assert [(f.code, f.level) for f in check_label(text, ["PEANUT"], onto).findings] == [("PEANUT", RiskLevel.TRACE)]
    assert check_label("suiker, zout, zonnebloemolie", ["MILK", "GLUTEN"], onto).verdict == "SAFE"
    assert check_label("water, mout", ["GLUTEN"], onto).verdict == "AVOID"
    assert check_label("volle melk, boter", ["MILK"], onto).verdict == "AVOID"


def test_a_pattern_timeout_is_retried_once_with_the_collector_paused(onto, monkeypatch) -> None:
    """A pattern's time limit can be crossed by a pause of the process (a full garbage collection inside the call on
    a loaded machine): the check is run again with the collector paused, and gives the ordinary answer."""
    import gc

    import dinecheck.allergens.pipeline as pipeline

    real = pipeline.find_phrases
    calls: list[bool] = []

    def flaky(text, ontology):  # times out the first time only, as a pause would
        calls.append(gc.isenabled())
        if len(calls) == 1:
            raise TimeoutError("regex timed out")
        return real(text, ontology)

    monkeypatch.setattr(pipeline, "find_phrases", flaky)
    result = check_label("sugar, peanuts", ["PEANUT"], onto)
    assert result.verdict == "AVOID" and calls == [True, False] and gc.isenabled()


def test_a_text_whose_patterns_keep_timing_out_is_verify_never_an_error(onto, monkeypatch) -> None:
    import dinecheck.allergens.pipeline as pipeline

    def hung(text, ontology):
        raise TimeoutError("regex timed out")

    monkeypatch.setattr(pipeline, "find_phrases", hung)
    result = check_label("sugar, salt", ["PEANUT"], onto)
    assert result.verdict == "VERIFY" and result.findings == () and result.tokens_processed == 0
    assert result.review_reasons == ("the label text could not be read in the time allowed (a pattern timed out "
                                     "twice); nothing is known of what it holds",)  # fmt: skip


# what a red-team helper found SAFE in the seventh round (most of it already at the start of the round): warnings
# behind a furniture lead, compounds and glued words a lookup misses, a product named in an instruction, a bracket of
# notes or of a class name, a misspelt allergen name (docs/allergens.md, seventh round). Not here, because it still
# is SAFE: a misspelt allergen name inside a statement's tail ("Origin of the pcanuts: Nicaragua.") — a statement
# hides the unknown words of its item, as it always did (keeping them costs two to three points of SAFE share)
RED_TEAM_SEVENTH = [
    ("Zutaten: Hafer, Zucker. Aufgrund der Herstellung sind Spuren anderer Allergene nicht auszuschließen.", "PEANUT"),
    ("Zutaten: Hafer, Zucker. Trotz sorgfältiger Herstellung sind Spuren nicht auszuschließen.", "TREE_NUTS"),
    ("Ingredienti: avena, zucchero. A causa del processo produttivo non si esclude la presenza di allergeni.", "PEANUT"),
    ("Ingrédients : avoine, sucre. Malgré le soin apporté, la présence d'allergènes ne peut être exclue.", "PEANUT"),
    ("Ingredientes: avena, azúcar. A pesar del cuidado en la elaboración, no se descarta la presencia de alérgenos.", "PEANUT"),
    ("Ingredients: oats, sugar. Although every care has been taken, cross contamination cannot be ruled out.", "PEANUT"),
    ("Ingredients: oats, sugar. Warning: other allergens are handled on site.", "SESAME"),
    ("Ingredients: oats, sugar. Packed on production lines which handle allergens.", "TREE_NUTS"),
    ("Ingredients: oats, sugar. Packed by Acme Ltd, a factory handling all 14 allergens.", "MILK"),
    ("Ingredients: oats, sugar. Packed on shared lines.", "TREE_NUTS"),
    ("Ingredients: oats, sugar. Fabriqué par Acme SA dans un atelier manipulant des allergènes.", "EGG"),
    ("Ingredients: rice, skimmilk pasteurised 15 sec at 72C.", "MILK"),
    ("Ingredients: rice, eggwhite pasteurised 3 min at 60C.", "EGG"),
    ("Ingredients: potato, fishfingers baked 20 min at 200C, salt.", "FISH"),
    ("Ingredients: rice, Peanutbutter heated 2 min at 800W, salt.", "PEANUT"),
    ("Ingrédients : riz, oeufentier pasteurisé 3 min à 65°C, sel.", "EGG"),
    ("Zutaten: Reis, Cashewkernbruch 15 Minuten bei 140 °C geröstet, Salz.", "TREE_NUTS"),
    ("Zutaten: Reis, Nordseekrabbenfleisch 2 Minuten bei 90 °C gegart, Salz.", "SHELLFISH"),
    ("Ingredients: rice, sugar, Pcanuts roasted at 180C for 10 min, salt.", "PEANUT"),
    ("Ingredients: potato, salt. Oven bake the fishfingers 20 min at 200C.", "FISH"),
    ("Ingredients: rice, salt. Serve with soysauce.", "SOY"),
    ("Ingredients: rice, salt. Fry in grou ndnut oil at 170C for 5 min.", "PEANUT"),
    ("Zutaten: Zucker, Kakao. Mit Milchschaum servieren.", "MILK"),
    ("Zutaten: Kartoffeln, Salz. Käsespätzle 5 Minuten bei 800 W erhitzen.", "MILK"),
    ("Ingredients: potatoes, salt. Cook the Yorkshires for 4 min at 220C.", "EGG"),
    ("Ingredients: oats, sugar. Manufactured by Acme Ltd in a site handling nutz.", "TREE_NUTS"),
    ("Ingredients: rice, Ardeh (emulsifier), sugar.", "SESAME"),
    ("Zutaten: Kräuter, Magerstufe, Salz.", "MILK"),
    ("Ingredients: sugar, Pcanuts (Nicaragua), salt.", "PEANUT"),
    ("Ingredients: sugar, Nussnougatcreme (Türkei), salt.", "TREE_NUTS"),
]


def _specified(text: str) -> list[tuple[str | None, str | None]]:
    """The (key, rule) of every token a bracket specification read in ``text`` (shipped data)."""
    res = _as_specifications(normalize(tokenize(text), FULL), FULL)
    return [(x.key, x.rule) for x in res if x.rule == "specifies its parent"]


@pytest.mark.parametrize(("text", "reading"), [("Gelatine (Bovine), water", "gelatine bovine"),
                                               ("gelatin (porcine), sugar", "porcine gelatin"),
                                               ("sugar (cane), water", "cane sugar")])  # fmt: skip
def test_a_bracketed_word_saying_which_kind_of_its_parent_is_read_with_it(text: str, reading: str) -> None:
    r = check_label(text, ["PEANUT"], FULL)
    assert r.verdict == "SAFE" and not r.unmatched, r.to_json()
    assert _specified(text) == [(reading, "specifies its parent")]


@pytest.mark.parametrize("text", ["sugar (bovine, water)", "water (bovine)",
                                  "sugar (cane sugar syrup)"])  # fmt: skip
def test_a_specification_needs_one_word_alone_in_the_bracket_and_a_known_joint_name(text: str) -> None:
    assert _specified(text) == []


def test_a_specification_never_hides_an_allergen() -> None:
    assert check_label("oil (peanut), water", ["PEANUT"], FULL).verdict == "AVOID"
    assert check_label("flakes (almond), water", ["TREE_NUTS"], FULL).verdict == "AVOID"
    assert check_label("sugar (pnuts), water", ["PEANUT"], FULL).verdict != "SAFE"


# the tenth round's red team, on the round's first rules: an additive's number taken for an amount or dropped
# alone, a claim of absence denied ("not free of", "no es libre de", "Gluten free: No"), an operator line or a rind,
# blend or supervision statement going on with an ingredient nothing reads, a quantity statement naming one
RED_TEAM_TENTH = [
    ('Abricots secs, conservateur 220', 'SULPHITES'),
    ('Getrocknete Aprikosen, Konservierungsstoff 220', 'SULPHITES'),
    ('Albicocche secche, conservante 220', 'SULPHITES'),
    ('Wheat flour, flour treatment agent 223', 'SULPHITES'),
    ('Milk, salt, rennet, enzyme 1105', 'EGG'),
    ('Formaggio (latte, sale, caglio, conservante 1105)', 'EGG'),
    ('Zucker, Kakaobutter, Emulgator 322', 'SOY'),
    ('Sucre, beurre de cacao, émulsifiant 322', 'SOY'),
    ('Sugar, modified starch 1403', 'GLUTEN'),
    ('Zucker, modifizierte Stärke 1403', 'GLUTEN'),
    ('Zucker, Süßungsmittel 966', 'MILK'),
    ('Dried apricots, preservative (220)', 'SULPHITES'),
    ('Dried apricots, preservative: 220', 'SULPHITES'),
    ('Grapes, preservatives (220, 224)', 'SULPHITES'),
    ('Flour, flour treatment agent (223)', 'SULPHITES'),
    ('Milk, salt, rennet, preservative (1105)', 'EGG'),
    ('Sugar, cocoa butter, emulsifier (322)', 'SOY'),
    ('Sugar, emulsifiers 476, 322', 'SOY'),
    ('Sugar, modified starch (1403)', 'GLUTEN'),
    ('Sugar, sweetener (966)', 'MILK'),
    ('Arroz, agua. No es libre de gluten.', 'GLUTEN'),
    ('Arroz, agua. No está libre de gluten.', 'GLUTEN'),
    ('Arroz, agua. No libre de leche.', 'MILK'),
    ('Arroz, agua. No libre de frutos secos.', 'TREE_NUTS'),
    ('Arroz, agua. No exento de gluten.', 'GLUTEN'),
    ('Arroz, agua. No exenta de gluten.', 'GLUTEN'),
    ('Arroz, agua. No 100% libre de gluten.', 'GLUTEN'),
    ('Riso, acqua. Non è privo di latte.', 'MILK'),
    ('Riso, acqua. Non privo di frutta a guscio.', 'TREE_NUTS'),
    ('Riso, acqua. Non priva di glutine.', 'GLUTEN'),
    ('Riso, acqua. Non al 100% privo di glutine.', 'GLUTEN'),
    ('Rice, water. Not free of gluten.', 'GLUTEN'),
    ('Rice, water. It is not free of peanuts.', 'PEANUT'),
    ('Rice, water. Not free of nuts.', 'TREE_NUTS'),
    ('Rice, water. This product is not gluten free.', 'GLUTEN'),
    ('Rice, water. This product is not nut free.', 'TREE_NUTS'),
    ('Rice, water. Not 100% free of nuts.', 'TREE_NUTS'),
    ('Rice, water. Not suitable for coeliacs.', 'GLUTEN'),
    ('Arroz, agua. No apto para celíacos.', 'GLUTEN'),
    ('Riso, acqua. Non adatto ai celiaci.', 'GLUTEN'),
    ('Reis, Wasser. Nicht geeignet für Zöliakiebetroffene.', 'GLUTEN'),
    ('Reis, Wasser. Nicht frei von Gluten.', 'GLUTEN'),
    ('Riz, eau. Non exempt de gluten.', 'GLUTEN'),
    ('Rice flour, water. Gluten free: No.', 'GLUTEN'),
    ('Rice flour, water. Dairy free: No. Nut free: No.', 'MILK'),
    ('Water, hops, yeast. Brewed by Acme Brewing Co. with Maris Otter.', 'GLUTEN'),
    ('Wasser, Hopfen, Hefe. Gebraut von Brauerei Acme am 12. März mit Maris Otter.', 'GLUTEN'),
    ('Rice, water. Bottled by Acme with penauts.', 'PEANUT'),
    ('Rice, water. Bottled by Acme Ltd. with mozarella.', 'MILK'),
    ('Rice, water. Embotellado por Bodegas Acme, con mozarella.', 'MILK'),
    ('Rice, water. Imbottigliato da Acme S.p.A. con amendoim.', 'PEANUT'),
    ('Rice, water. Always supervise your baby when eating hazlenuts.', 'TREE_NUTS'),
    ('Rice, water. Never leave your baby alone with Snickers.', 'PEANUT'),
    ('Lait, sel, présure. Croûte non comestible enrobée de hazlenuts.', 'TREE_NUTS'),
    ('Rice, water. Inedible rind coated with hazlenuts.', 'TREE_NUTS'),
    ('Sugar, chocolate chunks from more than one country with Snickers pieces', 'PEANUT'),
    ('Honey. Blend of honey from EU and non-EU countries with hazlenuts.', 'TREE_NUTS'),
    ('Rice, prepared with 50 g of mozarella per 100 g.', 'MILK'),
    ('Rice, water, made with 35 g hazlenuts per 100 g of product', 'TREE_NUTS'),
    ('Zucker, hergestellt aus 37 g Nutella je 100 g Produkt', 'TREE_NUTS'),
    ('Sucre, 18 g de noisetes utilisés pour 100 g de produit', 'TREE_NUTS'),
]


@pytest.mark.parametrize(
    ("text", "code", "verdict"),
    [
        ("Rice, water. Not suitable for coeliacs.", "GLUTEN", "AVOID"),  # a suitability denied: the product has gluten
        ("Rice, water. Not suitable for coeliacs.", "PEANUT", "SAFE"),
        ("Rice, water. Not suitable for vegetarians.", "PEANUT", "SAFE"),  # says nothing of allergens
        ("Rice, water. Not suitable for home freezing.", "MILK", "SAFE"),
        ("Rice, water. This product is not gluten free.", "PEANUT", "SAFE"),  # a warning naming gluten only
        ("Rice, water. This product is not gluten free.", "GLUTEN", "VERIFY"),
        ("Reis, Wasser. Nicht glutenfrei.", "GLUTEN", "VERIFY"),
        ("Rice, water. Not free of nuts.", "GLUTEN", "SAFE"),
        ("Rice, water. Not free of hazlenuts.", "GLUTEN", "VERIFY"),  # a denial naming what nothing reads
        ("Rice, water. Free from gluten.", "GLUTEN", "SAFE"),  # no negation: the claim stands
    ],
)
def test_a_denied_claim_is_read_for_what_it_says(text: str, code: str, verdict: str, shipped) -> None:
    assert check_label(text, [code], shipped).verdict == verdict


# the tenth round's second red team, on the fixed code: a homograph before a foreign word or one that is English
# food too, a denial across quotes, markup or a line break or answering after its object, a sentence lead hiding
# coeliacs, additive numbers run together or with their amount, a rind or blend statement before a damaged word, a
# heading declared by a note (a sample of its 646 texts: every tenth, and one of each shape)
RED_TEAM_TENTH_SECOND = [
    ('Rice, water, salt. Warm the tome fraîche in the oven for 3 minutes.', 'MILK'),
    ('Tomatoes, olive oil, basil, salt. Reheat the tome fraîche in a microwave for 30 seconds.', 'MILK'),
    ('Potatoes, garlic, salt. Warm the tome fraiche in the oven for 3 minutes.', 'MILK'),
    ('Rice, water, salt. Serve the tome fraiche immediately.', 'MILK'),
    ('Tomatoes, olive oil, basil, salt. Heat the Tome fraîche for 2 minutes in a hot oven.', 'MILK'),
    ('Potatoes, garlic, salt. Serve the Tome fraîche immediately.', 'MILK'),
    ('Rice, water, salt. Warm the pain frais for 2 minutes.', 'GLUTEN'),
    ('Tomatoes, olive oil, basil, salt. Store the pain frais in a cool dry place.', 'GLUTEN'),
    ('Potatoes, garlic, salt. Warm the pain sec for 2 minutes.', 'GLUTEN'),
    ('Rice, water, salt. Warm the pane fresco in the oven for 3 minutes.', 'GLUTEN'),
    ('Tomatoes, olive oil, basil, salt. Reheat the pane fresco in a microwave for 30 seconds.', 'GLUTEN'),
    ('Potatoes, garlic, salt. Warm the pan fresco in the oven for 3 minutes.', 'GLUTEN'),
    ('Rice, water, salt. Serve the pan fresco immediately.', 'GLUTEN'),
    ('Tomatoes, olive oil, basil, salt. Heat the burro fresco for 2 minutes in a hot oven.', 'MILK'),
    ('Potatoes, garlic, salt. Serve the burro fresco immediately.', 'MILK'),
    ('Rice, water, salt. Warm the pan tierno for 2 minutes.', 'GLUTEN'),
    ('Tomatoes, olive oil, basil, salt. Store the pan tierno in a cool dry place.', 'GLUTEN'),
    ('Potatoes, garlic, salt. Warm the pan duro for 2 minutes.', 'GLUTEN'),
    ('Potatoes, onion, dill. Heat the buckling in the oven for 4 minutes.', 'FISH'),
    ('Rice flour, water. Gluten free? No', 'GLUTEN'),
    ('Rice flour, water. Gluten free: <b>No</b>', 'GLUTEN'),
    ('Rice flour, water. This product is not (certified) gluten free.', 'GLUTEN'),
    ('Rice flour, water. Milk free (no).', 'MILK'),
    ('Rice flour, water. Milk free ... No', 'MILK'),
    ('Rice flour, water. Not <b>milk free</b>.', 'MILK'),
    ('Rice flour, water. Egg free / No', 'EGG'),
    ('Rice flour, water. This product is NOT\negg free.', 'EGG'),
    ('Rice flour, water. Peanut free? No.', 'PEANUT'),
    ('Rice flour, water. Peanut free: “No”', 'PEANUT'),
    ('Rice flour, water. This product is not «peanut free».', 'PEANUT'),
    ('Rice flour, water. Soy free (No)', 'SOY'),
    ('Rice flour, water. Soy free » No', 'SOY'),
    ('Rice flour, water. Not a “soy free” product.', 'SOY'),
    ('Rice flour, water. Sesame free | No', 'SESAME'),
    ('Rice flour, water. NOT\nSesame FREE', 'SESAME'),
    ('Rice flour, water. Not* sesame free', 'SESAME'),
    ("Rice flour, water. Nut free: 'No'", 'TREE_NUTS'),
    ('Rice flour, water. This product is not "nut free".', 'TREE_NUTS'),
    ('Rice flour, water. Is it fish free? No.', 'FISH'),
    ('Rice flour, water. Fish free * No', 'FISH'),
    ("Rice flour, water. Not a 'fish-free' product.", 'FISH'),
    ('Rice flour, water. Shellfish free [no]', 'SHELLFISH'),
    ('Rice flour, water. Not\nshellfish free', 'SHELLFISH'),
    ('Rice flour, water. NOT: shellfish free', 'SHELLFISH'),
    ('Rice flour, water. Mustard free: [No]', 'MUSTARD'),
    ('Rice flour, water. This product is not *mustard free*.', 'MUSTARD'),
    ('Rice flour, water. Celery free? No', 'CELERY'),
    ('Rice flour, water. Celery free: <b>No</b>', 'CELERY'),
    ('Rice flour, water. This product is not (certified) celery free.', 'CELERY'),
    ('Rice flour, water. Lupin free (no).', 'LUPIN'),
    ('Rice flour, water. Lupin free ... No', 'LUPIN'),
    ('Rice flour, water. Not <b>lupin free</b>.', 'LUPIN'),
    ('Rice flour, water. Suitable for people with a milk allergy: No', 'MILK'),
    ('Rice flour, water. Free from allergens: No', 'MILK'),
    ('Rice flour, water. Privo di allergeni: no', 'PEANUT'),
    ('Riz, eau, sel. Déconseillé aux coeliaques.', 'GLUTEN'),
    ('Riz, eau, sel. Nicht empfohlen für Zöliakiebetroffene.', 'GLUTEN'),
    ('Riz, eau, sel. Not suitable for children under 3 years or coeliacs.', 'GLUTEN'),
    ('Riz, eau, sel. Nicht geeignet für Säuglinge und Zöliakiebetroffene.', 'GLUTEN'),
    ('Riz, eau, sel. Do not give to children under 3 or coeliacs.', 'GLUTEN'),
    ('Cheese (milk, salt, rennet, preservative (1105 0.02 g)).', 'EGG'),
    ('Milk, salt, rennet. Rind not edible 3ggs.', 'EGG'),
    ('Sugar, Vegemite: Australia.', 'GLUTEN'),
    ('Rice flour, water. Celiaci: no', 'GLUTEN'),
    ('Rice flour, water. Allergen free: No', 'PEANUT'),
    ('Potatoes, onion, dill. Grill the buckling for 4 minutes each side.', 'FISH'),
    ('Water, sugar, mango, lemon juice. Keep frozen. Serve the cornets straight from the freezer.', 'GLUTEN'),
    ('Sugar, Nutella: Italy.', 'TREE_NUTS'),
    ('Sugar, Horlicks: UK.', 'MILK'),
    ('Rice flour, water. Coeliacs: no', 'GLUTEN'),
    ('Rice, water. Not recommended for coeliacs.', 'GLUTEN'),
    ('Milk, salt, rennet. 45% fat in dry matter p3anuts.', 'PEANUT'),
    ('Rice flour, water. Milk free: <b>No</b>', 'MILK'),
    ('Rice flour, water. Gluten free? No.', 'GLUTEN'),
    ('Rice flour, water. Gluten free (No)', 'GLUTEN'),
    ('Rice flour, water. This product is not "gluten free".', 'GLUTEN'),
    ('Rice flour, water. Not\ngluten free', 'GLUTEN'),
    ('Milk, salt, rennet, preservative (1105 20 mg/kg).', 'EGG'),
    ('Rice, water, emulsifiers (471 322), salt.', 'SOY'),
    ('Rice, water, 220-224.', 'SULPHITES'),
    ('Rice flour, water. Sans allergènes : non', 'GLUTEN'),
    ('Rice flour, water. Suitable for coeliacs: No', 'GLUTEN'),
    ('Tomatoes, olive oil, basil, salt. Warm the tome fraîche in the oven for 3 minutes.', 'MILK'),
    ('Tomatoes, olive oil, basil, salt. Warm the pane fresco in the oven for 3 minutes.', 'GLUTEN'),
    ('Rice, water, salt. Warm the pan duro in the oven for 3 minutes.', 'GLUTEN'),
]


# the tenth round's carriers: every wording it added, with an allergen synonym where a label could put one
TENTH_CARRIERS = [
    "Rice, water. Heat a little oil in a frying pan with {s} and cook for 5 minutes.",
    "Rice, water. Heat the pan, add {s} and cook for 5 minutes.",
    "Rice, water. Bottled by Acme Ltd with {s}.",
    "Rice, water. Inedible rind coated with {s}.",
    "Rice, water. Croûte non comestible {s}.",
    "Rice, water. Not free of {s}.",
    "Rice, water. {s} free: No.",
    "Rice, water. Prepared with 50 g of {s} per 100 g.",
    "Rice, water. 100 g of product made with 20 g of {s}.",
    "Rice, water, {s} 2.5 mg",
    "Rice, water, in der {s}",
    "Rice, water. Produced with the aid of {s}, traces may remain.",
    "Rice, water. Ab dem 6. Monat mit {s}.",
    "Rice, water, {s} D.O.P.",
    "Rice, water. Fanggebiet: {s}.",
    "Rice, water. Always supervise your baby while feeding {s}.",
    "Rice, water. Blend of honey from EU and non-EU countries, {s}.",
    "Rice, water. Crianza, {s}.",
    "Rice, water. 187 g de viande utilisés pour 100 g de {s}.",
]


SHIPPED = load_data_dir()  # one ontology for the property below (hypothesis takes no function-scoped fixture)


def _sure_synonyms() -> list[tuple[str, str]]:
    out = set()
    for syns in SHIPPED.synonyms.values():
        for syn in syns:
            for path in SHIPPED.allergen_paths(syn.canonical_id):
                if path.level.rank > RiskLevel.POSSIBLE.rank and path.code not in ("WHEAT", "MOLLUSCS", "CRUSTACEANS"):
                    out.add((path.code, syn.text))
    return sorted(out)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_sure_synonyms()), st.sampled_from(TENTH_CARRIERS))
def test_an_allergen_synonym_in_a_tenth_round_carrier_is_never_safe(pair: tuple[str, str], carrier: str) -> None:
    """A sweep of every such synonym in every carrier (272,460 texts) found two causes, both fixed: a denied
    multi-word name ("crème caramel free: No") and a name across an operator's "with" ("frutas con cáscara")."""
    code, synonym = pair
    text = carrier.format(s=synonym)
    assert check_label(text, [code], SHIPPED).verdict != "SAFE", text


# what the tenth round's sweep found
# the eleventh round's two red teams (helpers told what the round added, nothing of the measured data): an Indian
# operator line masked across its sentence end or over an additive's number or a misspelt name, new furniture over
# an additive's number, cooking headings over unread words, an adverb before a word that alone names a food or
# before the processing word of a longer name, words of what a food is made of alone in a list, a cut-off list
# ending in an ellipsis or a later line, a part word standing alone ("…, whole", "flower"), a heading of modifiers
# only settled by its components ("Enriched flower (niacin, iron)")
RED_TEAM_ELEVENTH = [
    ('Ingredients: dried apricots. Mfd. by: Acme Foods Pvt. Ltd. Permitted preservative (INS 223).', 'SULPHITES'),
    ('Ingredients: dried apricots. Mfd. by: Acme Foods Pvt. Ltd. class II preservative (INS 224).', 'SULPHITES'),
    ('Ingredients: dried apricots. Mfd. by: Acme Foods Pvt. Ltd. INS 220.', 'SULPHITES'),
    ('Ingredients: dried apricots. Mfd. by: Acme Foods Pvt. Ltd. (INS 220, 223).', 'SULPHITES'),
    ('Ingredients: dried apricots. Mfd. by: Acme Foods Pvt. Ltd. SO2.', 'SULPHITES'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. KMS.', 'SULPHITES'),
    ('Ingredients: rice, water, salt. Manufactured by: Acme Pvt Ltd. Preservative 220.', 'SULPHITES'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt Ltd, Pune, preservative (INS 223)', 'SULPHITES'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Emulsifier (INS 322).', 'SOY'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Enzyme (INS 1105).', 'EGG'),
    ('Ingredients: rice, water, salt. Mfd. by: Acme Foods Pvt. Ltd. 1105', 'EGG'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Sweetener (INS 966).', 'MILK'),
    ('Ingrédients : abricots secs. Fabriqué par : Acme Foods Pvt. Ltd. Conservateur (220).', 'SULPHITES'),
    ('Zutaten: Aprikosen. Hergestellt von: Acme Foods Pvt. Ltd. Konservierungsstoff 220.', 'SULPHITES'),
    ('Ingredienti: albicocche secche. Prodotto da: Acme Foods Pvt. Ltd. Conservante (220).', 'SULPHITES'),
    ('Ingredients: rice, water, salt. Mfd. by: Acme Foods Pvt. Ltd. Penauts, sugar.', 'PEANUT'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt Ltd, Pune, penauts', 'PEANUT'),
    ('Ingrédients : riz, sel. Fabriqué par : Acme Foods Pvt. Ltd. Arachydes.', 'PEANUT'),
    ('Zutaten: Reis, Salz. Hergestellt von: Acme Foods Pvt. Ltd. Erdnüse.', 'PEANUT'),
    ('Ingredientes: arroz, sal. Elaborado por: Acme Foods Pvt. Ltd. Cacauetes.', 'PEANUT'),
    ('Ingredienti: riso, sale. Prodotto da: Acme Foods Pvt. Ltd. Arachdi.', 'PEANUT'),
    ('Ingredients: sugar, cardamom. Mfd. by: Acme Sweets Pvt. Ltd. Malai, kesar.', 'MILK'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Akhrot giri.', 'TREE_NUTS'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Singdana.', 'PEANUT'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Jhinga masala.', 'SHELLFISH'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Machli.', 'FISH'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Skimed mlk powder.', 'MILK'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Whole wheet.', 'GLUTEN'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Soyabeen.', 'SOY'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Anchovey.', 'FISH'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Sesme.', 'SESAME'),
    ('Ingredients: rice, salt. Mfd. by: Acme Foods Pvt. Ltd. Eg powder.', 'EGG'),
    ('Ingredients: rice, water, salt. Mfd. by: Acme Foods Pvt. Ltd. Almnds', 'TREE_NUTS'),
    ('Rice, water, salt. Always read the label, 220.', 'SULPHITES'),
    ('Ingredients: rice, water, salt. Always read the label (preservative 223).', 'SULPHITES'),
    ('Rice, water, salt. Use only as directed (preservative 223)', 'SULPHITES'),
    ('Ingredients: rice, water, salt. Use only as directed emulsifier 322.', 'SOY'),
    ('Rice, water, salt. If symptoms persist, 220', 'SULPHITES'),
    ('Ingredients: rice, water, salt. If symptoms persist, see your doctor 1105.', 'EGG'),
    ('Ingredients: rice, water, salt. Follow the directions for use sweetener (966).', 'MILK'),
    ('Ingredients: rice, water, salt. Vitamin supplements should not replace a balanced diet (preservative 223).', 'SULPHITES'),
    ('Ingredients: rice, water, salt. Net Qty: 1 kg (preservative 223).', 'SULPHITES'),
    ('Ingredients: rice, water, salt. Net Qty: 1 kg 1105.', 'EGG'),
    ('Ingredients: rice, water, salt. Net quantity 500 g emulsifier 322.', 'SOY'),
    ('Ingredients: rice, water, salt. BHT added to packaging material to preserve freshness (preservative 223).', 'SULPHITES'),
    ('Ingredients: rice, water, salt. To serve: slice thinly (preservative 223).', 'SULPHITES'),
    ('Ingredients: rice, water, salt. To steam: steam for 8 minutes (preservative 223).', 'SULPHITES'),
    ('Ingredients: rice, water, salt. To heat: microwave for 2 minutes emulsifier 322.', 'SOY'),
    ('Ingredients: rice, water, salt. To reheat: microwave for 2 minutes 1105.', 'EGG'),
    ('Ingredients: rice, water, salt. To bake: bake for 12 minutes sweetener (966).', 'MILK'),
    ('Ingredients: rice, water, salt. To pan fry: fry for 3 minutes preservative 220.', 'SULPHITES'),
    ('Ingredients: rice, water, salt. To cook: boil for 10 minutes (preservative 223).', 'SULPHITES'),
    ('Ingredients: rice, water, salt. To heat: microwave for 2 min. Penauts, sugar.', 'PEANUT'),
    ('Ingredients: rice, water, salt. To serve: top with crushed penauts.', 'PEANUT'),
    ('Ingredients: rice, water, salt. To bake: brush with beaten eg.', 'EGG'),
    ('Ingredients: rice, water, salt. To bake: brush with eggwash.', 'EGG'),
    ('Sugar, salt, lightly dry roasted.', 'PEANUT'),
    ('Sugar, lightly dry roasted, salt', 'PEANUT'),
    ('Sugar, gently dry roasted, salt.', 'TREE_NUTS'),
    ('Pasta, finemente grattugiato, sale.', 'MILK'),
    ('Riso, sale, finemente grattugiato.', 'MILK'),
    ('Riz, légèrement soufflé, sel.', 'EGG'),
    ('Riz, finement broyé, sel.', 'GLUTEN'),
    ('Sucre, légèrement demi-sel, sel.', 'MILK'),
    ('Sucre, partiellement demi-écrémé, sel.', 'MILK'),
    ('Sucre, légèrement bouillie, sel.', 'GLUTEN'),
    ('Arroz, ligeramente tostada, sal.', 'GLUTEN'),
    ('Azúcar, parcialmente semidesnatada, sal.', 'MILK'),
    ('Zucker, leicht gefrorenes, Salz.', 'MILK'),
    ('Sugar, partially semi skimmed, salt.', 'MILK'),
    ('Sugar, lightly whole grain, salt.', 'GLUTEN'),
    ('Sugar, finely wholegrain, salt.', 'GLUTEN'),
    ('Sugar, nonfat dry, salt.', 'MILK'),
    ('Sugar, nonfat, salt.', 'MILK'),
    ('Sugar, non-fat, salt.', 'MILK'),
    ('Zucker, fettarme, Salz.', 'MILK'),
    ('Zucker, mager, Salz.', 'MILK'),
    ('Zucchero, magro, sale.', 'MILK'),
    ('Sucre, extrait sec dégraissé, sel.', 'MILK'),
    ('Sugar, anhydrous, salt.', 'MILK'),
    ('Sugar, pinhead, salt.', 'GLUTEN'),
    ('Sugar, dry...', 'PEANUT'),
    ('Zucker, fettarme...', 'MILK'),
    ('Sugar, whole...', 'MILK'),
    ('Sugar, whole ...', 'MILK'),
    ('Sugar, whole [...]', 'MILK'),
    ('Sugar, whole (...)', 'MILK'),
    ('Sugar, whole, 250g', 'MILK'),
    ('Sugar, whole\nBest before: see lid.', 'MILK'),
    ('Sugar, whole\nKeep refrigerated.', 'MILK'),
    ('Ingredients: rice, water, salt. Packed by: Acme Ltd. INS 220.', 'SULPHITES'),
    ('Rice, water. Keep refrigerated 220', 'SULPHITES'),
    ('Ingredients: rice, water, salt. Mfd. by: Acme Ltd., Pune, penauts', 'PEANUT'),
    ('Rice flour, sugar. Cover and microwave for 2 min. Penauts.', 'PEANUT'),
    ('Sugar, lightly dry roasted, sea salt', 'PEANUT'),
    ('Sugar, non dry roasted, sea salt', 'PEANUT'),
    ('Sugar, lightly dry-roasted, salt', 'PEANUT'),
    ('Snack mix (sugar, lightly dry roasted, salt)', 'PEANUT'),
    ('Sugar,\nlightly dry roasted,\nsea salt', 'PEANUT'),
    ('<p>Ingredients: sugar, lightly dry roasted, sea salt</p>', 'PEANUT'),
    ('Sugar, lightly semi skimmed, salt', 'MILK'),
    ('Sugar, non semi skimmed, salt', 'MILK'),
    ('Café, sucre, légèrement demi-écrémé, sel', 'MILK'),
    ('Sucre, légèrement demi-sel, farine', 'MILK'),
    ('Sucre, finement broyé, sel', 'MILK'),
    ('Sucre, légèrement soufflé, sel', 'EGG'),
    ('Zucchero, finemente grattugiato, sale', 'MILK'),
    ('Azúcar, ligeramente semidesnatada, sal', 'MILK'),
    ('Café, ligeramente cortados, azúcar', 'MILK'),
    ('Azúcar, ligeramente tostada, sal', 'GLUTEN'),
    ('Arroz, ligeramente picada, sal', 'TREE_NUTS'),
    ('Arroz, ligeramente rape, sal', 'FISH'),
    ('Zucker, leicht Gefrorenes, Salz', 'MILK'),
    ('Zucker, leicht Vollkorn, Salz', 'GLUTEN'),
    ('Sugar, lightly whole grain, salt', 'GLUTEN'),
    ('Gluten free! Ingredients: rice, finely whole grain, salt.', 'GLUTEN'),
    ('Sugar, non wholegrain, salt', 'GLUTEN'),
    ('Rice, lightly fermented black beans, garlic', 'SOY'),
    ('Riz, haricots noirs légèrement fermentés, ail', 'SOY'),
    ('Reis, leicht fermentierte schwarze Bohnen, Knoblauch', 'SOY'),
    ('Arroz, frijoles negros ligeramente fermentados, ajo', 'SOY'),
    ('Riso, fagioli neri leggermente fermentati, aglio', 'SOY'),
    ('Reis, leicht geräucherter Tofu, Salz', 'GLUTEN'),
    ('Reis, Tofu leicht geräuchert, Salz', 'GLUTEN'),
    ('Arroz, tofu ligeramente ahumado, sal', 'GLUTEN'),
    ('Riso, tofu leggermente affumicato, sale', 'GLUTEN'),
    ('Lettuce, lightly candied walnuts, dried cranberries', 'EGG'),
    ('Lettuce, lightly candied pecans, dried cranberries', 'MILK'),
    ('Lattuga, noci leggermente candite, mirtilli rossi', 'MILK'),
    ('Sugar, lightly candied peanuts, salt', 'MILK'),
    ('Farina, castagne leggermente candite, zucchero', 'SULPHITES'),
    ('Mehl, leicht kandierte Maronen, Zucker', 'SULPHITES'),
    ('Riz, bouillon légèrement déshydraté, sel', 'GLUTEN'),
    ('Sucre, fruits légèrement secs, sel', 'TREE_NUTS'),
    ('Zucchero, frutta leggermente secca, sale', 'TREE_NUTS'),
    ('Sucre, lécithine légèrement hydrolysée, sel', 'EGG'),
    ('Rice, lightly dried baby sardines, salt', 'SHELLFISH'),
    ('Crackers, finely chopped liver, onion', 'EGG'),
    ('Rice, lightly smoked tofu, salt', 'GLUTEN'),
    ('Riz, tofu légèrement fumé, sel', 'GLUTEN'),
    ('Ingredients: sugar, salt, dry\nStore in a cool, dry place.', 'PEANUT'),
    ('Ingredients: sugar, salt, dry\nMade in USA.', 'PEANUT'),
    ('Sugar, salt, dry\nVegan', 'PEANUT'),
    ('INGREDIENTS: SUGAR, CORN SYRUP, NONFAT\nKEEP REFRIGERATED.', 'MILK'),
    ('Ingredients: sugar, cocoa butter, nonfat...', 'MILK'),
    ('Ingredients: sugar, salt, cultured.', 'MILK'),
    ('Sugar, cultured nonfat, salt', 'MILK'),
    ('Zutaten: Zucker, Kakaobutter, fettarme.\nKühl lagern.', 'MILK'),
    ('Ingredients: Sugar, Cocoa Butter, Whole\nServes 2', 'MILK'),
    ('Sugar, salt, whole\nCalories 350', 'MILK'),
    ('Ingredients: sugar, salt, whole...', 'MILK'),
    ('Ingredients: sugar, salt, whole [...]', 'MILK'),
    ('Sugar, salt, whole\nBest before 12.05.2025', 'MILK'),
    ('Ingredients: sugar, cocoa butter, cocoa mass, whole\nNet wt. 3.5 oz', 'MILK'),
    ('Sucre, extrait sec dégraissé, sel', 'MILK'),
    ('Sugar, flower, salt', 'GLUTEN'),
    ('Sugar, organic flower, salt', 'GLUTEN'),
    ('Enriched flower (niacin, reduced iron, thiamine mononitrate, riboflavin, folic acid), sugar, salt', 'GLUTEN'),
    ('Unbleached enriched flower (niacin, iron), sugar', 'GLUTEN'),
]

# the eleventh round's third red team, on the fixed code (every third of the 333 of its 442 texts fixed; the rest are
# the residuals named in docs/allergens.md): part words as components
# ("Seasoning (flower, salt)") or after a conjunction, the other languages' "whole", cut lists defeated by a bracket,
# a later line or a spaced ellipsis, a list introducer or share note with nothing after it, "Å“uf", masks over a
# word nothing reads after a statement or a lower-case word after an operator line, "râpé" alone
RED_TEAM_ELEVENTH_SECOND = [
    ('Sauce (water, flower, salt)', 'GLUTEN'),
    ('Sugar, Seasoning (flower, salt, pepper)', 'GLUTEN'),
    ('Tortilla (flower, water, salt)', 'WHEAT'),
    ('Coating (flower, water)', 'GLUTEN'),
    ('Sugar, filling (sugar, flower)', 'GLUTEN'),
    ('Sauce (water, flower 20%, salt)', 'GLUTEN'),
    ('Sugar, Marinade (flowers, salt)', 'GLUTEN'),
    ('Rice, chocolate (sugar, cocoa mass, cocoa butter, whole)', 'MILK'),
    ('Rice, sauce (water, whole, salt)', 'MILK'),
    ('Sugar, corn (organic) flakes, salt', 'GLUTEN'),
    ('Sugar, corn (10%) flakes, salt', 'GLUTEN'),
    ('Sugar, salt, water and flower', 'GLUTEN'),
    ('Sugar, salt and flowers', 'GLUTEN'),
    ('Water - flower - salt', 'GLUTEN'),
    ('Wasser, Zucker und flower', 'GLUTEN'),
    ('Sugar, corn and flakes', 'GLUTEN'),
    ('Sugar - whole - salt', 'MILK'),
    ('Sucre, sel, entier', 'MILK'),
    ('Azúcar, sal, entero', 'MILK'),
    ('Zucker, Voll, Salz', 'MILK'),
    ('Sugar, low fat, salt', 'MILK'),
    ('Sugar, part skim, salt', 'MILK'),
    ('Zucker, vollfett, Salz', 'MILK'),
    ('Ingredients: sugar, salt, roasted. . .', 'PEANUT'),
    ('Ingredients: sugar, salt, roasted\nNet wt. 200 g', 'PEANUT'),
    ('Ingredients: sugar, salt, roasted\n(V)', 'PEANUT'),
    ('Ingredients: sugar, salt, roasted\n*Organic ingredients.', 'PEANUT'),
    ('Ingredients: sugar, salt, roasted\nServes 2', 'PEANUT'),
    ('Ingredients: sugar, salt, salted . . .', 'PEANUT'),
    ('Ingredients: sugar, salt, salted\nKeep refrigerated.', 'PEANUT'),
    ('Ingredients: sugar, salt, salted (V)', 'PEANUT'),
    ('Ingredients: sugar, salt, salted\nSuitable for vegetarians.', 'PEANUT'),
    ('Ingredients: sugar, salt, salted\nBest before: see lid.', 'PEANUT'),
    ('Ingredients: sugar, salt, salted\nAlways read the label.', 'PEANUT'),
    ('Ingredients: sugar, salt, chopped . . . .', 'TREE_NUTS'),
    ('Ingredients: sugar, salt, chopped\nwww.acme.com', 'TREE_NUTS'),
    ('Ingredients: sugar, salt, chopped\nProduct of Italy.', 'TREE_NUTS'),
    ('Ingredients: sugar, salt, chopped (see back of pack)', 'TREE_NUTS'),
    ('Ingredients: sugar, salt, chopped\nMfd. by: Acme Pvt. Ltd.', 'TREE_NUTS'),
    ('Ingredients: sugar, salt, toasted. . .', 'SESAME'),
    ('Ingredients: sugar, salt, toasted\nNet wt. 200 g', 'SESAME'),
    ('Ingredients: sugar, salt, toasted\n(V)', 'SESAME'),
    ('Ingredients: sugar, salt, toasted\n*Organic ingredients.', 'SESAME'),
    ('Ingredients: sugar, salt, toasted\nServes 2', 'SESAME'),
    ('Ingredients: water, sugar, powdered . . .', 'MILK'),
    ('Ingredients: water, sugar, pasteurised . . .', 'MILK'),
    ('Ingredients: water, sugar, evaporated . . .', 'MILK'),
    ('Ingredients: water, sugar, hydrolysed . . .', 'SOY'),
    ('Ingredients: water, sugar, fermented . . .', 'SOY'),
    ('Ingredients: water, sugar, blanched . . .', 'TREE_NUTS'),
    ('Ingredients: water, sugar, salt, unbleached', 'GLUTEN'),
    ('Ingredients: water, sugar, salt, unsalted', 'MILK'),
    ('Sugar, salt, less than', 'PEANUT'),
    ('Sugar, salt, contains less than', 'MILK'),
    ('Sugar, salt, less than 2% of', 'MILK'),
    ('Sucre, sel, moins de', 'MILK'),
    ('Zucker, Salz, weniger als 2%', 'EGG'),
    ('Zucchero, sale, meno di', 'MILK'),
    ('Farine de riz, Å“uf, sucre de canne, matiÃ¨re grasse vÃ©gÃ©tale', 'EGG'),
    ('Sucre, Å“uf, lÃ©gumes', 'EGG'),
    ('IngrÃ©dients : farine de riz, Å“uf, sucre, levure chimique', 'EGG'),
    ('Sucre, Å“uf (12%), sel', 'EGG'),
    ('Sugar, salt. Net Qty 200 g mlk', 'MILK'),
    ('Sugar, salt. BHT added to packaging material mlk', 'MILK'),
    ('Sugar, salt. Keep refrigerated mlk.', 'MILK'),
    ('Sugar, salt. Net vol 330 ml milc', 'MILK'),
    ('Sugar, salt. Store in a cool dry place milc.', 'MILK'),
    ('Sugar, salt. Net vol 330 ml eggz', 'EGG'),
    ('Sugar, salt. Store in a cool dry place eggz.', 'EGG'),
    ('Sugar, salt. Net vol 330 ml egs', 'EGG'),
    ('Sugar, salt. Mfd. by: Acme Foods Pvt. Ltd., egs', 'EGG'),
    ('Sugar, salt. Net quantity: 500 g egss', 'EGG'),
    ('Sugar, salt. Grade A Amber Color, Rich Taste egss', 'EGG'),
    ('Sugar, salt. Net quantity: 500 g whaet', 'GLUTEN'),
    ('Sugar, salt. Grade A Amber Color, Rich Taste whaet', 'GLUTEN'),
    ('Sugar, salt. Net Qty 200 g whet', 'GLUTEN'),
    ('Sugar, salt. BHT added to packaging material whet', 'GLUTEN'),
    ('Sugar, salt. Net Qty 200 g barely', 'GLUTEN'),
    ('Sugar, salt. BHT added to packaging material barely', 'GLUTEN'),
    ('Sugar, salt. Mindestens haltbar bis: siehe Deckel barely', 'GLUTEN'),
    ('Sugar, salt. Net vol 330 ml soyy', 'SOY'),
    ('Sugar, salt. Best before: ver tapa soyy', 'SOY'),
    ('Sugar, salt. Net vol 330 ml sojq', 'SOY'),
    ('Sugar, salt. Mindestens haltbar bis: siehe Deckel sojq', 'SOY'),
    ('Sugar, salt. Net vol 330 ml seasme', 'SESAME'),
    ('Sugar, salt. Mfd. by: Acme Foods Pvt. Ltd., seasme', 'SESAME'),
    ('Sugar, salt. Net quantity: 500 g sesmae', 'SESAME'),
    ('Sugar, salt. Grade A Amber Color, Rich Taste sesmae', 'SESAME'),
    ('Sugar, salt. Net Qty 200 g penaut', 'PEANUT'),
    ('Sugar, salt. BHT added to packaging material penaut', 'PEANUT'),
    ('Sugar, salt. Keep refrigerated penaut.', 'PEANUT'),
    ('Sugar, salt. Net vol 330 ml paenut', 'PEANUT'),
    ('Sugar, salt. Mfd. by: Acme Foods Pvt. Ltd., paenut', 'PEANUT'),
    ('Sugar, salt. Net quantity: 500 g almnod', 'TREE_NUTS'),
    ('Sugar, salt. Grade A Amber Color, Rich Taste almnod', 'TREE_NUTS'),
    ('Sugar, salt. Net Qty 200 g cahsew', 'TREE_NUTS'),
    ('Sugar, salt. BHT added to packaging material cahsew', 'TREE_NUTS'),
    ('Sugar, salt. Best before: see lid cahsew.', 'TREE_NUTS'),
    ('Sugar, salt. Net vol 330 ml wlanut', 'TREE_NUTS'),
    ('Sugar, salt. Mfd. by: Acme Foods Pvt. Ltd., wlanut', 'TREE_NUTS'),
    ('Sugar, salt. Net quantity: 500 g pecna', 'TREE_NUTS'),
    ('Sugar, salt. Grade A Amber Color, Rich Taste pecna', 'TREE_NUTS'),
    ('Sugar, salt. Net Qty 200 g fsh', 'FISH'),
    ('Sugar, salt. BHT added to packaging material fsh', 'FISH'),
    ('Sugar, salt. Best before: see lid fsh.', 'FISH'),
    ('Sugar, salt. Net vol 330 ml fihs', 'FISH'),
    ('Sugar, salt. Best before: ver tapa fihs', 'FISH'),
    ('Sugar, salt. Net vol 330 ml camarão', 'SHELLFISH'),
    ('Sugar, salt. Best before: ver tapa camarão', 'SHELLFISH'),
    ('Sugar, salt. Keep refrigerated parmezan.', 'MILK'),
    ('Sugar, salt. Net Qty 200 g shirmp', 'SHELLFISH'),
]

SWEEP_TENTH = [("Rice, water. crème caramel free: No.", "EGG"),
               ("Rice, water. Croûte non comestible frutas con cáscara.", "TREE_NUTS")]  # fmt: skip


# the twelfth round's red team (a helper told what the round added, nothing of the measured data): the texts its
# first rules let through — dictionary words that are foods, a heat grade as a list item, a colon after a list item,
# an additive's number before C or F, an L/i reading of a word one edit from another name — all fixed
RED_TEAM_TWELFTH = [
    ('Keep frozen pickerel (60%), water, salt.', 'FISH'),
    ('Keep refrigerated weakfish fillets 98%, salt', 'FISH'),
    ('Keep frozen tunnies (60%), water, salt.', 'FISH'),
    ('Store in a cool dry place flatfish, sugar, salt', 'FISH'),
    ('Sugar, salt. Keep refrigerated with sailfish.', 'FISH'),
    ('Azúcar, sal. Una vez abierto, consérvese en frigorífico con sunfish.', 'FISH'),
    ('Keep frozen quahaug (60%), water, salt.', 'MOLLUSCS'),
    ('Keep frozen quahaug (60%), water, salt.', 'SHELLFISH'),
    ('Keep frozen sherbet (60%), water, salt.', 'MILK'),
    ('Store in a cool dry place strudel, sugar, salt', 'GLUTEN'),
    ('Keep frozen spumoni (60%), water, salt.', 'MILK'),
    ('Water, salt. Keep refrigerated nutella.', 'TREE_NUTS'),
    ('Sugar, salt. Keep refrigerated with nutella.', 'MILK'),
    ('Keep frozen weisskase (60%), water, salt.', 'MILK'),
    ('Store in a cool dry place nusschen, sugar, salt', 'TREE_NUTS'),
    ('Sugar, salt. Keep refrigerated and serve with gougere.', 'EGG'),
    ('Sugar, salt. Keep refrigerated with mousses.', 'MILK'),
    ('Sugar, salt. Store in a cool dry place fritters', 'GLUTEN'),
    ('Sugar, salt. Keep refrigerated with canapes.', 'GLUTEN'),
    ('Sugar, salt. Store in a cool dry place muscatel', 'SULPHITES'),
    ('Sugar, salt. Keep refrigerated and serve with bordeaux.', 'SULPHITES'),
    ('Sugar, salt. Keep refrigerated with cheetos.', 'MILK'),
    ('Sugar, salt. Keep refrigerated with twinkies.', 'GLUTEN'),
    ('Water, salt. Keep refrigerated laiterie.', 'MILK'),
    ('Keep frozen pelicans (60%), water, salt.', 'TREE_NUTS'),
    ('Sugar, cocoa butter, MILD, cocoa mass', 'MILK'),
    ('Zucker, Kakaobutter, mild', 'MILK'),
    ('Sugar, salt, roasted: 40%', 'PEANUT'),
    ('Zucker, Salz, geröstet: 30%', 'TREE_NUTS'),
    ('Sugar, salt, toasted: 10%', 'SESAME'),
    ('Apricots, sugar. Keep refrigerated with preservative 220c', 'SULPHITES'),
    ('Water, sugar. Keep refrigerated (223c)', 'SULPHITES'),
    ('Water, sugar. Once opened keep refrigerated 223c 220c', 'SULPHITES'),
    ('Water, sugar. Keep refrigerated 1105c', 'EGG'),
    ('Apricots, sugar. Keep refrigerated 228 f', 'SULPHITES'),
    ("Sucre, Paim d'épices, sel", 'GLUTEN'),
    ('Sucre, sait entier, sel', 'MILK'),
    ('Zucker, Mals, Salz', 'GLUTEN'),
    ('Zucker, Malsmehl, Salz', 'GLUTEN'),
    ('Zucker, Milch, Taig', 'GLUTEN'),
    ('Zucchero, panl, sale', 'GLUTEN'),
    ('Zucchero, polio, sale', 'MOLLUSCS'),
    ('Sucre, fole, sel', 'FISH'),
    ('Wasser, Krauterbltter, Salz', 'MILK'),
]  # fmt: skip


# the twelfth round's second red team, on the fixed code: an operator line naming a food masked as a whole (the
# rule was dropped), a heat grade not standing on its own, a colon without a weight after it, a part word that may
# be what is left of a name after a conjunction — all fixed
RED_TEAM_TWELFTH_SECOND = [
    ('Sugar, salt. Marketed by: Sunrise Dairy Foods Ltd., Sector 18, Gurugram, eggz', 'EGG'),
    ('Sugar, salt. Marketed by: Sunrise Dairy Foods Ltd., Sector 18, Gurugram, soyy', 'SOY'),
    ('Sugar, salt. Marketed by: Sunrise Dairy Foods Ltd., Sector 18, Gurugram, a|mond', 'TREE_NUTS'),
    ('Sugar, salt. Marketed by: Sunrise Dairy Foods Ltd., Sector 18, Gurugram, p3anut', 'PEANUT'),
    ('Sugar, salt. Mfd. by: Amul Dairy, Anand, crabb', 'SHELLFISH'),
    ('Sugar, salt. Mfd. by: Amul Dairy, Anand, nutz', 'TREE_NUTS'),
    ('Sugar, salt. Distributed by Golden Peanut Co., Atlanta, mikl', 'MILK'),
    ('Sugar, salt. Imported by Euro Cheese Imports Inc., NJ, nutz', 'TREE_NUTS'),
    ('Sugar, salt. Manufactured by: Walnut Grove Foods, Walnut, CA, s3same', 'SESAME'),
    ('Sugar, salt. Packed by: Bread & Butter Bakery Ltd, Leeds, cel3ry', 'CELERY'),
    ('Sugar, salt. Marketed by Sunrise Dairy Foods - eggz', 'EGG'),
    ('Sugar, salt. Marketed by: Sunrise Dairy Foods Pvt. Ltd., No. 5, Gurugram eggz', 'EGG'),
    ('Sugar, salt. Made for kids: wheat flour, sugar, eggz', 'EGG'),
    ('Sugar, salt. Made for baking: wheat flour, soyy flour, salt', 'SOY'),
    ('Sugar, salt. Packed for freshness: sugar, peanuts, soyy', 'SOY'),
    ('Sugar, salt. Made for kids: rice flour, chese, salt', 'MILK'),
    ('Sugar, salt. Made for kids: rice flour, shrmp, salt', 'SHELLFISH'),
    ('Sugar, salt. Made for kids: rice flour, salmn, salt', 'FISH'),
    ('Sugar, salt. Made for kids: rice flour, miik, salt', 'MILK'),
    ('Sugar, salt. Made for kids: rice flour, E22O, salt', 'SULPHITES'),
    ('Sugar, salt. Brewed for Acme: barley malt, wheat, hops, soyy', 'SOY'),
    ('MILD, sugar, cocoa butter', 'MILK'),
    ('Sugar. MILD, cocoa butter, salt', 'MILK'),
    ('MILD; sugar; salt', 'MILK'),
    ('Sugar, cocoa butter. Contains: MILD', 'MILK'),
    ('Contains: MILD, SOY', 'MILK'),
    ('Contains: SOY and MILD', 'MILK'),
    ('Ingredients: sugar • cocoa butter • MILD', 'MILK'),
    ('Ingredients: sugar - cocoa butter - MILD', 'MILK'),
    ('Sugar, cocoa butter | MILD', 'MILK'),
    ('Sugar, cocoa butter, cocoa mass, emulsifier: MILD', 'MILK'),
    ('Ingredients: sugar, cocoa butter,   \nMILD', 'MILK'),
    ('Ingredients:\n• Sugar\n• Cocoa butter\n• MILD', 'MILK'),
    ('Ingredients:\n1. Sugar\n2. Cocoa butter\n3. MILD', 'MILK'),
    ('Sugar 45%\nCocoa butter 30%\nMILD 25%', 'MILK'),
    ('Sugar 40%, cocoa butter 20%. MILD 15%', 'MILK'),
    ('Sugar, cocoa butter.MILD', 'MILK'),
    ('Ingredients: sugar, cocoa butter, MILD.', 'MILK'),
    ('Ingredients:\n- Sugar\n- Cocoa butter\n- MILD\n- Salt', 'MILK'),
    ('Sugar, cocoa butter. Contains: MILD.', 'MILK'),
    ('Sugar, salt. Roasted:', 'PEANUT'),
    ('Sugar, salt. Roasted: …', 'PEANUT'),
    ('Sugar, salt. Roasted: (40%)', 'PEANUT'),
    ('Sugar, salt. Chopped roasted: 40%', 'TREE_NUTS'),
    ('Sugar, cocoa dried and flakes', 'GLUTEN'),
]  # fmt: skip


@pytest.mark.parametrize(("text", "code"), RED_TEAM_SEVENTH + RED_TEAM_TENTH + RED_TEAM_TENTH_SECOND + SWEEP_TENTH
                         + RED_TEAM_ELEVENTH + RED_TEAM_ELEVENTH_SECOND + RED_TEAM_TWELFTH
                         + RED_TEAM_TWELFTH_SECOND)
def test_what_the_red_teams_found_is_never_safe(text: str, code: str, shipped) -> None:
    assert check_label(text, [code], shipped).verdict != "SAFE"


@pytest.mark.parametrize(("text", "code", "verdict"), [
    ("Sugar, salt, less than", "MILK", "VERIFY"),  # a word announcing what follows, at the cut end
    ("Sugar, less than 1% - corn syrup.", "MILK", "SAFE"),
    ("Sugar, salt, less than 2% of", "MILK", "VERIFY"),  # a list introducer with no list after it
    ("Sugar, Seasoning (flower, salt)", "GLUTEN", "VERIFY"),  # a part word as a component
    ("Chamomile (flower), water", "GLUTEN", "SAFE"),  # all the brackets hold: the form of the name
    ("Rice. Keep refrigerated eggz.", "EGG", "VERIFY"),  # a word nothing reads after a statement
    ("Rice. Keep refrigerated.", "EGG", "SAFE"),
    ("Rice. Mfd. by: Acme Foods Pvt. Ltd., Pune, mlk", "MILK", "VERIFY"),  # a lower-case word after an operator
    ("Rice. Mfd. by: Acme Foods Pvt. Ltd., Plot 23, MIDC Bhosari, Pune 411026.", "MILK", "SAFE"),
    ("Water\nSalt\nFlower", "GLUTEN", "VERIFY"),  # a line holding only a part word joins no name
    ("Rice, sea\nsalt, water", "GLUTEN", "SAFE"),
    ("Sugar, salt, roasted (V)", "PEANUT", "VERIFY"),  # a bracket after a cut word closes nothing
    ("Sucre, Å“uf, sel", "EGG", "AVOID"),  # œuf in the wrong character set
])  # fmt: skip
def test_the_third_red_teams_fixes_keep_clean_labels_safe(text: str, code: str, verdict: str, shipped) -> None:
    """Each fix of the eleventh round's third red team, with the clean text it must leave SAFE beside it."""
    assert check_label(text, [code], shipped).verdict == verdict


@pytest.mark.parametrize(("text", "code", "verdict"), [
    # a processing word before a colon heads its value ("Égoutté : 440 g"), no list cut after it
    ("Haricots verts, eau, sel. Égoutté : 440 g", "PEANUT", "SAFE"),
    ("Haricots verts, eau, sel. Egoutte: 440 g", "PEANUT", "SAFE"),
    ("Sugar, salt, roasted", "PEANUT", "VERIFY"),
    ("Sugar, salt, roasted: peanuts", "PEANUT", "AVOID"),
    # a part word after a conjunction that follows a processing word is another form of the same food
    ("Lait entier, lait écrémé concentré ou en poudre, ferments lactiques.", "PEANUT", "SAFE"),
    ("Lait entier, lait écrémé concentré ou en poudre, ferments lactiques.", "MILK", "AVOID"),
    ("Salt and flower", "GLUTEN", "VERIFY"),  # no processing word before the conjunction
    ("Sugar, dried or whole", "MILK", "VERIFY"),  # a word of what a food is made of stays suspect
])  # fmt: skip
def test_a_heading_and_another_form_are_no_cut_list(text: str, code: str, verdict: str, shipped) -> None:
    """Twelfth round: two narrowings of the eleventh round's third red team, each beside the case it still catches."""
    assert check_label(text, [code], shipped).verdict == verdict


@pytest.mark.parametrize(("text", "verdict"), [
    ("Pommes de terre 95%, huile de tournesol 5%. Cuisson au four : 20 min à 220°C.", "SAFE"),
    ("Potatoes (95%), sunflower oil. Oven bake for 20-25 minutes at 220°C, turning halfway.", "SAFE"),
    ("Potatoes, sunflower oil. Oven bake for 20 minutes at 220 C.", "SAFE"),
    ("Rice, preservative (220)", "AVOID"),  # an additive's number
    ("Rice. Keep refrigerated. 220", "AVOID"),  # no unit: a statement never hides it
    ("Rice, colour (150c)", "SAFE"),  # a sub-letter of a code of its own: ammonia caramel, no sulphite
    ("Potatoes. Bake for 20 minutes at 220 C. Preservative 220.", "AVOID"),
])  # fmt: skip
def test_a_temperature_is_no_additive_number(text: str, verdict: str, shipped) -> None:
    """"220°C" (its degree sign gone from the key, "220c") is an oven's temperature, not E220 (sulphur dioxide)."""
    assert check_label(text, ["SULPHITES"], shipped).verdict == verdict
