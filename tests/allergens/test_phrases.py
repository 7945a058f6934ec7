"""Risk phrases before tokenisation: five languages, longest first, lists resolved to allergens, absence claims."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from dinecheck.allergens.ontology import LANGUAGES, RiskLevel, load_data_dir
from dinecheck.allergens.phrases import find_phrases, fold_with_map
from dinecheck.allergens.pipeline import check_label
from dinecheck.allergens.text import lookup_key as lookup

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "allergens_mini"
SHIPPED = Path(str(resources.files("dinecheck.allergens") / "data" / "risk_phrases.jsonl"))


@pytest.fixture(scope="module")
def onto():
    return load_data_dir(MINI)


def summary(text: str, onto) -> list[tuple]:
    return [(h.phrase, h.type, h.level.value, h.allergens, h.unresolved) for h in find_phrases(text, onto).hits]


def test_may_contain_nuts_names_tree_nuts(onto) -> None:
    assert summary("sugar. May contain nuts.", onto) == [("may contain", "CROSS_CONTAMINATION", "POSSIBLE", ("TREE_NUTS",), ())]


def test_longest_phrase_wins_and_phrases_do_not_overlap(onto) -> None:
    assert summary("may contain traces of peanuts and sesame", onto) == [
        ("may contain traces of", "CROSS_CONTAMINATION", "TRACE", ("PEANUT", "SESAME"), ())
    ]


@pytest.mark.parametrize(
    ("text", "phrase", "codes"),
    [
        ("Peut contenir des traces de fruits à coque et de sésame.", "peut contenir des traces de", ("TREE_NUTS", "SESAME")),
        ("Kann Spuren von Senf und Sellerie enthalten.", "kann Spuren von … enthalten", ("MUSTARD", "CELERY")),
        ("Puede contener trazas de leche y soja", "puede contener trazas de", ("MILK", "SOY")),
        ("Può contenere tracce di arachidi, latte", "può contenere tracce di", ("PEANUT", "MILK")),
    ],
)
def test_five_languages(text: str, phrase: str, codes: tuple, onto) -> None:
    [(got, _type, level, allergens, unresolved)] = summary(text, onto)
    assert (got, level, allergens, unresolved) == (phrase, "TRACE", codes, ())


def test_generic_phrase_and_unreadable_items(onto) -> None:
    [hit] = find_phrases("Produced in a facility that also processes.", onto).hits
    assert hit.type == "FACILITY" and hit.allergens == () and hit.generic
    [hit] = find_phrases("may contain peanuts, gizmo", onto).hits
    assert hit.allergens == ("PEANUT",) and hit.unresolved == ("gizmo",) and hit.generic


def test_contains_statement_is_definite_and_keeps_its_list_as_ingredients(onto) -> None:
    scan = find_phrases("Contains: milk, soy", onto)
    assert [(h.phrase, h.level, h.allergens) for h in scan.hits] == [("contains", RiskLevel.DEFINITE, ("MILK", "SOY"))]
    assert scan.masks == ((0, 8),)  # only the keyword is hidden from the tokenizer


def test_cross_contamination_masks_phrase_and_list_up_to_the_sentence_end(onto) -> None:
    text = "milk, sugar. May contain nuts (almonds). Salt"
    scan = find_phrases(text, onto)
    [(a, b)] = scan.masks
    assert text[a:b] == "May contain nuts (almonds)"
    assert scan.hits[0].span == (a, b)


def test_not_suitable_names_the_allergen(onto) -> None:
    assert summary("Not suitable for peanut allergy sufferers", onto) == [
        ("not suitable for … allergy sufferers", "NOT_SUITABLE", "DEFINITE", ("PEANUT",), ())
    ]


@pytest.mark.parametrize(
    "text",
    ["gluten free", "Gluten-free", "sans gluten", "senza glutine", "glutenfrei", "free from nuts", "sin gluten",
     "suitable for people with milk allergy", "Suitable for vegetarians"],
)
def test_absence_and_suitability_claims_are_not_risk_phrases(text: str, onto) -> None:
    scan = find_phrases(text, onto)
    assert scan.hits == ()
    assert scan.claims == (text,)
    assert scan.masks == ((0, len(text)),)


def test_an_absence_claim_does_not_swallow_a_following_risk_phrase(onto) -> None:
    scan = find_phrases("free from nuts but may contain traces of peanuts", onto)
    assert [(h.phrase, h.allergens) for h in scan.hits] == [("may contain traces of", ("PEANUT",))]


def test_free_range_is_not_a_claim(onto) -> None:
    assert find_phrases("free range egg", onto).claims == ()


def test_spans_refer_to_the_raw_text_even_when_folding_changes_lengths(onto) -> None:
    text = "Œufs  ﬁne, PEUT   CONTENIR des traces de sésame"
    [hit] = find_phrases(text, onto).hits
    assert text[hit.span[0] : hit.span[1]] == "PEUT   CONTENIR des traces de sésame"
    folded, index = fold_with_map(text)
    assert folded.startswith("oeufs fine, peut contenir") and index is not None and len(index) == len(folded)


def test_shipped_phrase_file_covers_five_languages_and_every_type() -> None:
    rows = [json.loads(line) for line in SHIPPED.read_text(encoding="utf-8").splitlines() if line.strip()]
    for lang in LANGUAGES:
        types = {r["type"] for r in rows if r["lang"] == lang}
        assert types == {"CROSS_CONTAMINATION", "FACILITY", "NOT_SUITABLE", "CONTAINS"}, lang
    assert all(RiskLevel(r["level"]) for r in rows)
    shipped = load_data_dir()
    assert len(shipped.risk_phrases) == len(rows)


@pytest.mark.parametrize("text", ["contains 2% or less of", "Contains less than 1% of the following",
                                  "less than 2% of", "2% or less of", "1.5 percent or less of the following"])  # fmt: skip
def test_list_introducers_are_masked_silently(text: str, onto) -> None:
    scan = find_phrases(f"{text} salt", onto)
    assert (scan.hits, scan.claims, scan.masks) == ((), (), ((0, len(text)),))
    # with no list after it, the list was cut: nothing is masked, and the words stay to be read (VERIFY)
    assert find_phrases(text, onto).masks == ()


@pytest.mark.parametrize(
    "text",
    ["Allergy advice: for allergens, including cereals containing gluten, see ingredients in bold",
     "Allergènes : voir les ingrédients en gras", "Allergens: see bold", "ALLERGENE: SIEHE FETTDRUCK"],
)
def test_an_allergen_pointer_whose_emphasis_is_lost_applies_to_every_profile_allergen(text: str, onto) -> None:
    """Issue 8, item 4: "allergens: see bold" names no allergen; in plain text the bold is gone, so the notice
    applies to every profile allergen (masked, and reported as a generic hit)."""
    scan = find_phrases(text, onto)
    assert scan.masks == ((0, len(text)),) and scan.claims == ()
    assert [(h.type, h.level, h.allergens, h.generic) for h in scan.hits] == [
        ("ALLERGEN_NOTICE", RiskLevel.POSSIBLE, (), True)]
    r = check_label(f"Sugar, salt. {text}.", ["PEANUT"], load_data_dir())
    assert r.verdict == "VERIFY" and [(f.code, f.level) for f in r.findings] == [("PEANUT", RiskLevel.POSSIBLE)]


@pytest.mark.parametrize("text", ["Sugar, _milk_ powder. Allergens: see bold.",
                                  "Sugar, *milk* powder. Allergens: see bold.",
                                  "Sugar, MILK powder. Allergy advice: see ingredients in bold."])  # fmt: skip
def test_an_allergen_pointer_is_settled_by_the_emphasis_the_text_still_shows(text: str, onto) -> None:
    assert find_phrases(text, onto).hits == ()
    shipped = load_data_dir()
    assert check_label(text, ["PEANUT"], shipped).verdict == "SAFE"
    assert check_label(text, ["MILK"], shipped).verdict == "AVOID"


def test_every_shipped_phrase_is_found_and_reads_its_list() -> None:
    shipped = load_data_dir()
    for p in shipped.risk_phrases:
        text = p.phrase.replace("…", "sesame") if "…" in p.phrase else f"{p.phrase} sesame"
        text = f"sugar. {text}. salt"
        hits = find_phrases(text, shipped).hits
        assert [(h.phrase, h.type, h.allergens, h.unresolved) for h in hits] == [
            (hits[0].phrase, p.type, ("SESAME",), ())
        ], text
        assert lookup(hits[0].phrase) == lookup(p.phrase), text  # this phrase, or an identical one of another language


def test_absence_claim_masks_its_first_object_and_caps_the_rest_of_its_sentence(onto) -> None:
    text = "Free from nuts, gluten and milk. Salt"
    scan = find_phrases(text, onto)
    assert scan.claims == ("Free from nuts",)
    assert [text[a:b] for a, b in scan.capped] == [", gluten and milk"]
    text = "sugar, dairy and gluten free"
    scan = find_phrases(text, onto)
    assert scan.claims == ("gluten free",) and [text[a:b] for a, b in scan.capped] == [" dairy and "]


def test_storage_and_nutrition_sentences_are_masked_up_to_the_next_phrase(onto) -> None:
    text = "milk. Keep refrigerated. Store in a cool place, may contain peanuts. Bien secouer avant de boire"
    scan = find_phrases(text, onto)
    assert scan.statements == ("Keep refrigerated", "Store in a cool place", "Bien secouer avant de boire")
    assert [h.allergens for h in scan.hits] == [("PEANUT",)]
    # an origin line: the shipped ontology knows the place as an origin (the mini one does not)
    assert find_phrases("Made in France", load_data_dir()).statements == ("Made in France",)
    assert find_phrases("Made in France", onto).statements == ()
    # manufacturing wording that speaks of shared production is never a statement
    assert find_phrases("Made in a kitchen that uses sesame", onto).statements == ()


def test_generic_facility_heads_catch_wording_variants(onto) -> None:
    shipped = load_data_dir()
    [hit] = find_phrases("wheat. Produced in a facility that uses peanuts.", shipped).hits
    assert (hit.type, hit.allergens) == ("FACILITY", ("PEANUT",))
    [hit] = find_phrases("MANUFACTURED IN A FACILITY THAT AI SO PROCESSES SESAME", shipped).hits
    assert hit.type == "FACILITY" and hit.generic  # OCR-garbled list: applies to every profile allergen


def test_a_statement_or_boilerplate_never_swallows_the_next_item(onto) -> None:
    scan = find_phrases("sugar, keep refrigerated, peanuts", onto)
    assert [scan_text for scan_text in scan.statements] == ["keep refrigerated"]
    text = "Allergy advice: see ingredients in bold, peanuts"
    [(a, b)] = find_phrases(text, onto).masks
    assert text[a:b] == "Allergy advice: see ingredients in bold"


def test_packing_and_usage_statements(onto) -> None:
    scan = find_phrases("Boire dans les 3 jours. voir bouchon. Emballé en UK pour Food & Drinks Ltd. milk", onto)
    assert scan.statements == ("Boire dans les 3 jours", "voir bouchon", "Emballé en UK pour Food & Drinks Ltd")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Baked in a bakery that uses sesame.", ("SESAME",)),
        ("Produced in a factory which also processes peanuts and milk.", ("PEANUT", "MILK")),
        ("Made on a line that also handles soy.", ("SOY",)),
        ("This product is elaborated in line that also process soy.", ("SOY",)),
        ("Packed in an environment where nuts are also handled.", ()),  # a warning whose list reads nothing
        ("Produced in a mill that also handles wheat.", ("GLUTEN",)),
        ("Made in an establishment that uses sesame.", ("SESAME",)),
    ],
)
def test_a_shared_production_warning_in_any_wording(text: str, named: tuple[str, ...]) -> None:
    hits = find_phrases(text, load_data_dir()).hits
    assert [h.type for h in hits] == ["FACILITY"] and set(hits[0].allergens) >= set(named)


def test_a_site_that_does_not_handle_an_allergen_is_no_warning() -> None:
    assert [h.type for h in find_phrases("Packed on a site that does not handle gluten.", load_data_dir()).hits] == []


@pytest.mark.parametrize(("text", "code"), [("AKG, sin gle gloucester, salt", "EGG"), ("sugar, no ugat", "TREE_NUTS")])
def test_a_claim_word_that_is_half_of_a_split_word_is_no_claim(text: str, code: str) -> None:
    """"sin gle gloucester" is Single Gloucester split by a space (OCR, a line break), not "without gle gloucester":
    the split-synonym property found it SAFE for EGG. A claim head whose last word, joined to the next, names an
    allergen food is read as that word."""
    assert check_label(text, [code], load_data_dir()).verdict != "SAFE"
    assert check_label("sugar, sin leche", ["MILK"], load_data_dir()).verdict == "SAFE"  # a claim is still one


def test_a_list_introducer_without_contains_keeps_its_list() -> None:
    onto = load_data_dir()
    assert check_label("salt, less than 2% of dried garlic, dried onion", ["PEANUT"], onto).verdict == "SAFE"
    assert check_label("salt, 2% or less of: garlic, whey", ["MILK"], onto).verdict == "AVOID"
    assert check_label("salt, less than 2% of peanut flour", ["PEANUT"], onto).verdict == "AVOID"


def test_a_dairy_is_no_facility_word() -> None:
    """"Made in a dairy that also processes nuts": the dairy stays a word that names milk."""
    assert check_label("Sugar. Made in a dairy that also processes nuts.", ["MILK"], load_data_dir()).verdict != "SAFE"


def test_not_a_source_of_is_a_claim_that_hides_only_its_object() -> None:
    onto = load_data_dir()
    assert check_label("Water, sugar. Not a source of lactose.", ["MILK"], onto).verdict == "SAFE"
    assert check_label("Water, sugar. Not a source of lactose, whey.", ["MILK"], onto).verdict != "SAFE"


def test_a_wine_fining_statement_names_its_allergens_and_only_them() -> None:
    """FSANZ Standard 1.2.3 wording: "Produced with the aid of egg and milk products, traces may remain"."""
    text = "Grapes, preservative (220). Produced with the aid of egg and milk products, traces may remain."
    onto = load_data_dir()
    assert check_label(text, ["PEANUT"], onto).verdict == "SAFE"
    for code in ("EGG", "MILK"):
        result = check_label(text, [code], onto)
        assert result.verdict == "VERIFY"
        assert [(f.code, f.level) for f in result.findings] == [(code, RiskLevel.TRACE)], result.to_json()


@pytest.mark.parametrize(
    ("text", "code", "verdict"),
    [
        ("Rice, water. No soy. No gluten.", "SOY", "SAFE"),  # "no" opening a sentence: a claim, like "free from"
        ("Rice, water. No soy, no gluten, no dairy.", "PEANUT", "SAFE"),
        ("Rice, water. No soy lecithin, soy flour.", "SOY", "VERIFY"),  # the further objects stay, held at POSSIBLE
        ("Rice, grade No. 1 peanuts", "PEANUT", "VERIFY"),  # "No." of a number opens no claim
        ("Rice, water, peanuts no", "PEANUT", "VERIFY"),  # nor does a "no" that opens nothing
        ("Avena. A pesar del cuidado, no se descarta la presencia de alérgenos.", "PEANUT", "VERIFY"),  # "not"
        ("No soy, no gluten", "FISH", "VERIFY"),  # a label of claims only lists no ingredient
        ("Rice, water. Naturally free of gluten.", "PEANUT", "SAFE"),  # "free of" opens the claim, not "naturally free"
        ("Rice, water. Naturalmente privo di glutine.", "PEANUT", "SAFE"),
    ],
)
def test_no_and_privo_di_are_claims_of_absence(text: str, code: str, verdict: str) -> None:
    assert check_label(text, [code], load_data_dir()).verdict == verdict


@pytest.mark.parametrize(
    ("text", "code", "verdict"),
    [
        ("Rice, water. Heat a little oil in a frying pan and cook for 5 minutes.", "GLUTEN", "SAFE"),  # English "pan"
        ("Rice, water. Add to a frying pan with a little oil and cook for 10 minutes.", "MILK", "SAFE"),
        ("Rice, water. Once opened, transfer the pan to a non-metallic container.", "GLUTEN", "VERIFY"),  # no compound
        ("Rice, water. Pan fry for 5 minutes.", "GLUTEN", "SAFE"),  # an instruction lead with it
        ("Arroz, agua. Calentar el pan 5 minutos.", "GLUTEN", "VERIFY"),  # Spanish prose: "pan" is bread
        ("Rice, water. Serve with the pan de molde.", "GLUTEN", "VERIFY"),  # a Spanish function word: not English
        ("Rice, water. Heat the pain au chocolat for 5 minutes.", "GLUTEN", "VERIFY"),  # a longer name holds it
        ("Rice, water. Heat the pan with milk for 5 minutes.", "MILK", "VERIFY"),  # the rest is still asked
        ("Rice, water. Serve with pan.", "GLUTEN", "VERIFY"),  # nothing makes it an English noun: Spanish bread
        ("Rice, water. Warm the pan duro for 2 minutes.", "GLUTEN", "VERIFY"),  # a Spanish word after it
        ("Rice, water. Heat a little oil in a frying pan, add the rice and cook for 5 minutes.", "GLUTEN", "SAFE"),
        ("Rice, water. Cook from frozen in a pan with a little oil for 8 minutes.", "GLUTEN", "SAFE"),  # a vessel
        ("Rice, water. Add to a pan of boiling water and cook for 10 minutes.", "GLUTEN", "SAFE"),
        ("Rice, water. Place in a pan duro.", "GLUTEN", "VERIFY"),  # a Spanish word after it
        ("Rice, water. Serve with a pan.", "GLUTEN", "VERIFY"),  # no preposition of place before it
    ],
)
def test_an_english_word_in_english_prose_is_no_foreign_food_name(text: str, code: str, verdict: str) -> None:
    assert check_label(text, [code], load_data_dir()).verdict == verdict


def test_english_homographs_name_food_in_other_languages_only() -> None:
    """The shipped list (scripts/vocabulary/english_homographs.py) holds one-word names carrying an allergen, none of
    whose synonyms is English or of no language; an English food word ("curd", "butter") is never one of them."""
    from dinecheck.allergens.furniture import english_homographs

    onto = load_data_dir()
    words = english_homographs()
    assert "pan" in words  # a kitchen utensil in English, bread in Spanish
    assert not words & {"curd", "butter", "milk", "bread", "sole", "brie", "buckling", "cornet", "pain", "tome"}
    for word in words:
        syns = onto.synonyms[word]
        assert all(s.lang not in ("en", None) for s in syns), word
        assert any(onto.allergen_paths(s.canonical_id) for s in syns), word


def test_an_english_homograph_is_read_again_once_the_ontology_has_it_in_english(tmp_path: Path) -> None:
    """A user's English synonym "pan" (say, a flatbread) makes the word a mention again in English prose."""
    import shutil

    from dinecheck.allergens import ontology as ontology_module

    data = tmp_path / "data"
    shutil.copytree(resources.files(ontology_module.__package__) / "data", data)
    with (data / "ingredients" / "g_staples.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"id": "test_pan_flatbread", "category": "bread", "allergens": {"GLUTEN": "DEFINITE"},
                            "names": {"en": ["pan"]}}) + "\n")  # fmt: skip
    text = "Rice, water. Heat a little oil in a frying pan and cook for 5 minutes."
    assert check_label(text, ["GLUTEN"], load_data_dir(data)).verdict != "SAFE"


@pytest.mark.parametrize(("text", "claim"), [
    ("Rice. Contains no added gluten, wheat, milk, egg or preservatives.", "Contains no"),
    ("Rice with no added peanuts, milk.", "Rice. Contains no"),
    ("Rice. No added peanuts.", "No"),
])  # fmt: skip
def test_no_added_is_a_claim_of_absence_like_contains_no(text: str, claim: str) -> None:
    """"Contains no added …", "with no added …" (and "No added …" opening a sentence) name what was not added: read
    as the same claim without "added" — its objects are no ingredients."""
    onto = load_data_dir()
    plain = text.replace("Rice with no added", "Rice. Contains no").replace("Contains no added", "Contains no")
    plain = plain.replace("No added", "No")
    assert claim in plain
    for code in ("PEANUT", "MILK", "EGG", "FISH", "GLUTEN"):
        assert check_label(text, [code], onto).verdict == check_label(plain, [code], onto).verdict, code
    assert check_label(text, ["FISH"], onto).verdict == "SAFE"


@pytest.mark.parametrize(("text", "code", "verdict"), [
    ("Rice. Packed in a factory that only handles oats.", "PEANUT", "SAFE"),  # a dedicated site names its food
    ("Rice. Packed in a factory that only handles oats.", "GLUTEN", "VERIFY"),
    ("Rice. Packed in a factory that handles only peanuts.", "PEANUT", "VERIFY"),
    ("Rice flour, water. Made in a factory that does not handle nuts.", "PEANUT", "SAFE"),  # a claim of absence
    ("Riz. Fabriqué dans un atelier qui ne manipule pas d'arachides.", "PEANUT", "SAFE"),
    ("Rice. Made in a factory that does not handle peanuts, but handles milk.", "MILK", "VERIFY"),
    ("Made in a factory that does not handle nuts.", "FISH", "VERIFY"),  # a claim alone is no list
    ("Orange juice. May contain pulp.", "PEANUT", "SAFE"),  # what the product itself may show
    ("Red lentils. May contain small stones.", "PEANUT", "SAFE"),
    ("Orange juice. May contain pulp and nuts.", "PEANUT", "VERIFY"),
])  # fmt: skip
def test_a_site_statement_says_what_it_handles_and_what_it_does_not(text: str, code: str, verdict: str) -> None:
    assert check_label(text, [code], load_data_dir()).verdict == verdict
