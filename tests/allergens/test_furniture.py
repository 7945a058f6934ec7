"""Label furniture pasted with the ingredient list: instructions, origin lines, nutrition tables, packaging lines,
addresses and quantity statements are not ingredients — and never hide a word that names an allergen."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinecheck.allergens.furniture import common_words, furniture, nutrition_item, sentence_end
from dinecheck.allergens.normalize import resolve_key, unknown_words
from dinecheck.allergens.ontology import RiskLevel, load_data_dir
from dinecheck.allergens.phrases import find_phrases
from dinecheck.allergens.pipeline import PROFILE_ALL, check_label
from dinecheck.allergens.suggest import one_edit_variants
from dinecheck.allergens.tokenize import tokenize

ONTO = load_data_dir()
LIST = "Rice, water, salt. "


def check(text: str, code: str = "PEANUT"):
    return check_label(text, [code], ONTO)


@pytest.mark.parametrize(
    "furniture",
    [
        "Nutrition information per 100g: Energy 2250kJ/540kcal, Fat 31g, of which saturates 19g, Carbohydrate 55g, "
        "of which sugars 52g, Fibre 3g, Protein 6g, Salt 0.1g",
        "Valeurs nutritionnelles pour 100 g : énergie 1650 kJ / 390 kcal ; matières grasses 2 g dont acides gras "
        "saturés 0,5 g ; glucides 85 g dont sucres 30 g ; protéines 6 g ; sel 0,2 g",
        "Nutrition facts\nCalories 120\nTotal fat 3g\nSodium 150mg\nProtein 2g",
        "Microwave: pierce film, heat on full power for 2 minutes, stand for 1 minute. Oven: preheat to 180C, bake for "
        "20 minutes.",
        "Serve chilled. Shake before use. Once opened keep in the fridge and consume within 5 days.",
        "Faites cuire 10 minutes dans l'eau bouillante, égouttez et servez.",
        "Made in Italy.",
        "Fabriqué en France.",
        "1 of your 5 a day. Packaged in a protective atmosphere. Net weight 500g.",
        "www.example.co.uk, info@example.com",
        "Cook from frozen.",
        # frozen-food statements (Directive 89/108/EEC), keeping, infusing, uses, honey (third round)
        "Frozen product. Do not refreeze once defrosted.", "Produit surgelé. Ne pas recongeler un produit décongelé.",
        "Tiefgefroren. Nach dem Auftauen nicht wieder einfrieren.",
        "Producto congelado. No volver a congelar una vez descongelado.",
        "Prodotto surgelato. Non ricongelare il prodotto scongelato.",
        "Una volta scongelato non ricongelare.", "Après ouverture, à consommer sous 3 jours.",
        "Steep for 3-5 minutes.", "3-5 Minuten ziehen lassen.", "Mit kochendem Wasser übergießen.",
        "Verter agua hirviendo sobre la bolsita.", "Versare acqua bollente sulla bustina.",
        "Ideal for frying.", "Idéal pour la friture.", "Ideal zum Braten.", "Ideal para freír.",
        "Ideale per friggere.", "La cristallisation est un phénomène naturel.",
        "Kristallisation ist ein natürlicher Vorgang.", "Store at room temperature.", "Store below 25°C.",
        # Dutch (Belgian and Dutch labels)
        "Ten minste houdbaar tot: zie deksel. Koel en droog bewaren.", "Verpakt onder beschermende atmosfeer.",
        # German and Dutch instructions put the verb last
        "In der Pfanne 5 Minuten goldbraun braten.", "Etwas Öl erhitzen.", "Im Backofen bei 200 °C 10 Minuten backen.",
        "10 minuten in de oven bakken.", "Heat for a further 30 secs.",
    ],
)
def test_furniture_after_a_clean_list_leaves_it_safe(furniture: str) -> None:
    r = check(LIST + furniture)
    assert r.verdict == "SAFE", r.to_json()


def test_a_quantity_statement_is_a_note() -> None:
    for text in ("187 g de viande utilisés pour la préparation de 100 g de produit",
                 "Prepared with 50g of fruit per 100g", "hergestellt aus 120 g Fleisch je 100 g"):  # fmt: skip
        assert [t.role for t in tokenize(text)][-1] == "note", text
    assert [t.role for t in tokenize("flour 100g")] == ["ingredient"]
    # a nutrient word with a mass is a nutrition row even without its heading (sixth round): a note
    assert [t.role for t in tokenize("sugar 100g")] == ["note"]


def test_a_quantity_statement_naming_an_allergen_is_still_read() -> None:
    assert check("sugar, milk 30 g per 100 g", "MILK").verdict != "SAFE"


def test_purpose_and_preservation_wording() -> None:
    assert check("calcium disodium edta (used to protect quality), salt").verdict == "SAFE"
    assert [t.key for t in tokenize("canola oil preserved by TBHQ")] == ["canola oil", "tbhq"]


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        ("Rice, salt. Serve with peanut sauce.", "PEANUT", "AVOID"),  # the allergen word is never masked
        ("Rice. Add milk and stir.", "MILK", "VERIFY"),  # no cue of an instruction: "Add milk" is read
        ("Rice. Add 200 ml milk and stir for 2 minutes.", "MILK", "VERIFY"),  # only the verb is masked
        ("Tomatoes, salt. Made in Italy in a plant where nuts are used.", "PEANUT", "VERIFY"),
        ("Tomatoes, salt. Made in a factory that also handles allergens.", "PEANUT", "VERIFY"),
        ("Rice. Nutrition facts per 100g: protein 6g, peanut butter 20g", "PEANUT", "AVOID"),  # read, its amount aside
        # "Eiweiß" is protein in a nutrition table but also egg white: never masked (read as egg white, amount aside)
        ("Zucker. Nährwerte pro 100 g: Brennwert 1500 kJ, Fett 3 g, Eiweiß 6 g, Salz 0,1 g", "EGG", "AVOID"),
    ],
)
def test_furniture_never_hides_an_allergen(text: str, code: str, expected: str) -> None:
    assert check(text, code).verdict == expected


def test_instructions_only_open_sentences_and_never_a_name() -> None:
    scan = find_phrases("Spread (vegetable oils, water), mix of seeds, heat", ONTO)
    assert scan.statements == ()
    assert [t.text for t in tokenize("Mix of seeds, salt")] == ["Mix of seeds", "salt"]


@pytest.mark.parametrize("text", ["Salt. Made in Italy.", "Salt. Produced in the UK.", "Salt. Made in France and Italy.",
                                  "Sel. Fabriqué en France.", "Salz. Hergestellt in Deutschland."])  # fmt: skip
def test_an_origin_line_naming_places_is_masked(text: str) -> None:
    assert check(text).verdict == "SAFE"


@pytest.mark.parametrize("text", ["salt. Made in Italy for a company whose long name goes on",
                                  "salt. Made in Italy with zorbleflap", "salt. Made in zorbleflap"])  # fmt: skip
def test_an_origin_line_with_more_than_places_is_not_masked(text: str) -> None:
    assert find_phrases(text, ONTO).statements == ()
    assert check(text).verdict == "VERIFY"


@pytest.mark.parametrize("text", ["Raspberries (Serbia), sugar.", "Salt. Made in Singapore.", "rice from Cambodia",
                                  "Framboises de Serbie, sucre. Produit de Bulgarie.", "Himbeeren aus Serbien",
                                  "Raspberries. Origin: Serbia, Bulgaria"])  # fmt: skip
def test_any_country_is_a_place(text: str) -> None:
    """ISO 3166-1 names in the five languages (``countries`` in label_furniture.toml): alone, after an origin lead, or
    ending a name after a connector."""
    assert check(text).verdict == "SAFE", check(text).to_json()


@pytest.mark.parametrize("text", ["Blueberries. Product of Canada / Produit du Canada.",
                                  "Rice. Made in Italy / Fabriqué en Italie / Hergestellt in Italien.",
                                  "Choucroute. Milchsauer vergoren.", "Fromage blanc. Garder réfrigéré.",
                                  "Yaourt. Voir date limite de consommation sur le couvercle."])  # fmt: skip
def test_origin_lines_in_several_languages_and_storage_and_process_notes(text: str) -> None:
    assert check(text).verdict == "SAFE", check(text).to_json()
    assert check("Rice. Made in Italy / zorbleflap.").verdict == "VERIFY"


def test_a_country_never_opens_a_name_and_never_hides_a_food_sense() -> None:
    # "Singapore noodles" (prawns, egg, soy) is a dish named after a place, not noodles from there
    assert check("Singapore noodles", "SHELLFISH").verdict == "VERIFY"
    assert check("bebida de malta", "GLUTEN").verdict == "AVOID"  # Spanish "malta" is malt, not Malta
    assert check("jus de grenade", "PEANUT").verdict == "SAFE"  # French "grenade" is a pomegranate, read as one
    places = furniture().places
    assert {"serbia", "singapore", "bulgarie", "serbien", "camboya", "cambogia"} <= places
    assert not places & {"malta", "grenade", "granada", "anguilla", "curacao", "jersey"}
    assert [p for p in places if resolve_key(p, ONTO)[0]] == []  # no place is a name the ontology reads


@pytest.mark.parametrize("text", ["Blueberries. Product of Quebec.", "Bleuets. Produit du Québec.",
                                  "Rice. Packed in Andhra Pradesh, India.", "Oranges. Grown in Valencia.",
                                  "Honey. Made in New Zealand from local and imported ingredients.",
                                  "Tuna, salt. Caught in the Western Central Pacific Ocean using pole and line.",
                                  "Tuna, salt. Caught in the Western Central Pacific Ocean (FAO 71) using pole and line.",
                                  "Black tea. Blended and packed in England.",
                                  "Honey. Do not feed to infants under 12 months of age."])  # fmt: skip
def test_a_region_is_a_place_in_an_origin_line(text: str) -> None:
    """ISO 3166-2 subdivisions (``regions``), origins of several words ("New Zealand") and a bracketed fishing area
    inside a longer line, two verbs before the place; the honey advisory for infants."""
    assert check(text).verdict == "SAFE", check(text).to_json()


def test_a_region_alone_or_ending_a_name_stays_unknown() -> None:
    """Many subdivisions are also foods ("Chihuahua", a cheese; "Bologna"; "Lancashire"): only an origin line reads
    them."""
    assert check("Water, Chihuahua, salt", "MILK").verdict == "VERIFY"
    assert check("Water, salt. Made in Chihuahua.", "MILK").verdict == "SAFE"
    assert check("Rice from Valencia, salt", "MILK").verdict == "VERIFY"  # ending a name: unknown (a country reads)
    assert check("Rice from Spain, salt", "MILK").verdict == "SAFE"
    assert check("Water, Quebec", "MILK").verdict == "VERIFY"
    assert {"quebec", "andhra pradesh", "chihuahua"} <= furniture().regions


@pytest.mark.parametrize("text", ["Water, salt. Cut green beans, zorbleflap.", "Salt. Cut beans, zorbleflap.",
                                  "Salt. Steam distilled zorbleflap oil."])  # fmt: skip
def test_a_list_opening_with_an_instruction_word_is_not_an_instruction(text: str) -> None:
    """An instruction needs a cue (a time, an appliance, a moment …) or to be at most three words without a comma."""
    assert check(text).verdict == "VERIFY" and any("zorbleflap" in u for u in check(text).unmatched)


def test_a_nutrition_table_ends_at_the_first_row_that_is_not_one() -> None:
    r = check("Nutrition: fat 3g, zorbleflap, salt 1g, zorbleflip 2g")
    # the items after it are read again ("salt 1g" is a row of its own, a note; "zorbleflip 2g" is no row)
    assert r.verdict == "VERIFY" and r.unmatched == ("zorbleflap", "zorbleflip 2g")


def _allergen_synonyms() -> list[tuple[str, str]]:
    out = set()
    for syns in ONTO.synonyms.values():
        for s in syns:
            for p in ONTO.allergen_paths(s.canonical_id):
                if p.level in (RiskLevel.DEFINITE, RiskLevel.DERIVED) and s.text.isascii():
                    out.add((p.code, s.text))
    return sorted(out)


SYNONYMS = _allergen_synonyms()
CARRIERS = ["Serve with {s}.", "Cook with {s} for 2 minutes.", "Made in {s}.", "Produced in France with {s}.",
            "Nutrition information per 100g: fat 3g, {s} 2g.", "Nutrition: fat 3g, {s}.", "Microwave: heat {s}.",
            "Do not {s}.", "Faites cuire avec {s}.", "Net weight {s}.", "1 of your 5 a day {s}.",
            "Once opened, {s} and use within 3 days.", "Colour: {s}.", "Colours ({s}).", "Warning: may contain stones, {s}.",
            "Caught in {s}.", "Made in Italy from {s}.", "Fan 170C {s}.", "Keep refrigerated, {s}.",
            "Typical mineral analysis mg/l: calcium 80, {s} 12.", "Oven cook from chilled: {s} for 20 mins.",
            "2 capsules {s} per day.", "L-{s}", "Origine du {s} : France.", "Pour {s} 100 g.", "{s} 45 mins",
            "Drained weight {s} 240g.", "Nutrition: fat 3g, {s}, salt 1g.", "High in {s}.",
            "In der Pfanne mit {s} 5 Minuten braten.", "{s} 3 Minuten ziehen lassen.", "{s} kochen.", "les {s}",
            "Store at {s}.", "Nach dem Auftauen {s}.", "Serve with ({s}) for 2 minutes.", "Cook for 2 minutes ({s}).",
            "Mix 12% ({s}), salt.", "Serve with {s}, 2 minutes.", "This product may contain {s}.",
            "Ideal for {s}.", "Idéale pour {s}.", "Due to manufacturing methods, {s}.", "Aufbacken bei 200 °C mit {s}.",
            "Best served with {s}.", "Cannot guarantee {s} free.", "Acidity {s}.", "tuna in {s}", "{s} in water",
            "thon à l'{s}", "Ce produit {s}."]  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SYNONYMS), st.sampled_from(CARRIERS), st.sampled_from(["", "Rice, water. ", "salt\n"]))
def test_an_allergen_synonym_inside_furniture_is_never_safe(pair, carrier, before) -> None:
    code, synonym = pair
    text = before + carrier.format(s=synonym)
    assert check(text, code).verdict != "SAFE", text


@pytest.mark.parametrize(
    "furniture",
    [
        "Oven cook from chilled: 190C/Fan 170C/Gas 5 for 45 mins.",
        "Once opened, refrigerate and use within 3 days.",
        "Caught in the North East Atlantic.",
        "Made in Australia from at least 90% Australian ingredients.",
        "Typical mineral analysis mg/l: Calcium 80, Magnesium 26, Bicarbonate 360. pH at source 7.2",
        "Drained weight: 240g. 4.5% vol.",
        "Warning: may contain stones.",
        "Peut contenir des noyaux.",
        "GB-ORG-05 UK Agriculture.",
        "Origine du porc : France.",
        "2 comprimés par jour. Ne pas dépasser la dose journalière recommandée.",
        "High in fibre.",
        "Temps de cuisson : 11 min.",
        "Although every care has been taken to remove stones, some may remain.",
        "Whilst every care has been taken to remove bones, some may remain.",
        "Malgré le soin apporté au dénoyautage, des noyaux peuvent subsister.",
        "Trotz sorgfältiger Kontrolle können Steine verbleiben.",
        "Contains less than 0.5% alcohol.",
        "Open can with care.",
        "*Organically grown ingredients.",
        "Contains 27% juice.",
        "Unopened, store in a cool dry place.",
        "Avant ouverture, à conserver dans un endroit frais et sec.",
        "N° de lot : voir couvercle.",
        "Energy-reduced. Recyclable packaging. Halal certified.",
        "Kann bei übermäßigem Verzehr abführend wirken.",
    ],
)
def test_more_furniture_after_a_clean_list_leaves_it_safe(furniture: str) -> None:
    r = check(LIST + furniture)
    assert r.verdict == "SAFE", r.to_json()


def test_a_warning_naming_a_hazard_and_an_allergen_keeps_the_allergen() -> None:
    r = check("Olives, salt. May contain stones and peanuts.")
    assert r.verdict == "VERIFY" and [(f.code, f.level) for f in r.findings] == [("PEANUT", RiskLevel.POSSIBLE)]
    assert check("Olives, salt. May contain stones and zorbleflap.").verdict == "VERIFY"  # unreadable: generic
    # a stone advisory's tail is no cover for an allergen, named or misspelt
    assert check("Olives. Whilst every care has been taken to remove stones, traces of peanuts may remain.").verdict \
        == "VERIFY"
    assert check("Olives. Whilst every care has been taken to remove stones, pcanuts may remain.").verdict == "VERIFY"


def test_an_additive_number_without_its_e_reads_as_the_e_number() -> None:
    # a number alone is a note keyed by its E-number: read when that names an allergen (E1105 lysozyme: egg)
    assert [(t.key, t.role) for t in tokenize("emulsifiers (481, 472e), preservative 220")] == [
        ("emulsifiers", "ingredient"), ("e481", "note"), ("e472e", "ingredient"), ("e220", "ingredient")]
    assert check("Milk, salt, rennet, preservative (1105)", "EGG").verdict != "SAFE"
    assert check("Sugar, emulsifiers 476, 322", "SOY").verdict != "SAFE"
    assert [t.key for t in tokenize("sugar 100g")] == ["sugar 100g"]  # an amount is no additive number
    # the Codex INS number as Indian and Gulf labels print it
    assert [t.key for t in tokenize("acidity regulator (INS 330), INS No. 211, INS150d, ins 1422")] == [
        "acidity regulator", "e330", "e211", "e150d", "e1422"]  # fmt: skip
    assert check("sugar, emulsifier (INS 322)", "SOY").verdict == "VERIFY"  # lecithin: soy possible
    assert [t.key for t in tokenize("insulin 330")] == ["insulin 330"]  # only the word INS


@pytest.mark.parametrize("text", ["Rice. Deep fry from frozen at 170C for 6-8 min.",
                                  "Rice. Oven bake at 200°C / Gas 6 for 12-14 minutes.",
                                  "Riz. Cuisson au four 12 minutes à 180 °C, retourner à mi-cuisson."])  # fmt: skip
def test_an_instruction_with_a_time_and_a_heat_is_a_note_whatever_its_first_word(text: str) -> None:
    assert check(text).verdict == "SAFE", check(text).to_json()


def test_a_timed_instruction_never_hides_an_allergen_or_an_unknown_word() -> None:
    assert check("Rice. Deep fry in peanut oil at 170C for 6 min.", "PEANUT").verdict != "SAFE"
    assert check("Fischstäbchen unaufgetaut 8-10 Min", "FISH").verdict != "SAFE"
    assert check("Rice, zorbleflap 10 minutes").verdict == "VERIFY"  # a time alone is no instruction


@pytest.mark.parametrize("text", ["Rice. Add milk to taste.", "Rice. Heat 200 ml milk in the microwave for 2 minutes.",
                                  "Flocons d'avoine. Faire chauffer 2 minutes avec du lait."])  # fmt: skip
def test_an_instruction_naming_an_allergen_warns_of_it_and_hides_nothing_else(text: str) -> None:
    """The allergen an instruction names may be the consumer's part or the product's: it is POSSIBLE (a
    ``PREPARATION`` hit), never dropped; the instruction's other words are masked like any instruction's."""
    milk = check(text, "MILK")
    assert milk.verdict == "VERIFY" and [(f.code, f.level) for f in milk.findings] == [("MILK", RiskLevel.POSSIBLE)]
    assert [h.type for h in milk.risk_phrases] == ["PREPARATION"] and milk.unmatched == ()
    assert check(text, "PEANUT").verdict == "SAFE"


def test_a_us_preservative_s_stated_function_is_a_note() -> None:
    assert check("Sugar, sodium bisulfite (to promote color retention), BHT (to retard rancidity)").verdict == "SAFE"
    assert check("Sugar, milk (to promote color retention)", "MILK").verdict == "AVOID"


@pytest.mark.parametrize("text", ["Sugar, strawberries. Frutta utilizzata: 60 g per 100 g.",
                                  "Azúcar, fresas. Fruta utilizada: 45 g por 100 g.",
                                  "Sucre, fraises. Fruits mis en œuvre : 50 g pour 100 g."])  # fmt: skip
def test_the_jam_directive_wording_is_a_note(text: str) -> None:
    assert check(text).verdict == "SAFE", check(text).to_json()


def test_cooking_times_and_temperatures_alone_are_notes() -> None:
    assert [t.role for t in tokenize("45 mins, Fan 170C, Gas 5, 800W")] == ["note"] * 4
    assert [t.role for t in tokenize("5 eggs")] == ["ingredient"]


def test_a_hyphen_join_never_drops_an_allergen_a_word_names() -> None:
    assert check("Tri-Calcium Phosphate, salt").verdict == "SAFE"
    r = check("pea-nut flour, salt", "PEANUT")
    assert r.verdict != "SAFE"


def test_not_suitable_for_customers_with_an_allergy_names_that_allergen_only() -> None:
    r = check_label("Rice. Not suitable for customers with an allergy to peanuts due to manufacturing methods.",
                    ["PEANUT", "MILK"], ONTO)  # fmt: skip
    assert [(f.code, f.level) for f in r.findings] == [("PEANUT", RiskLevel.DEFINITE)]


def test_an_instruction_after_a_comma_needs_a_cue() -> None:
    assert check("Salt. Once opened, cut green beans, zorbleflap.").verdict == "VERIFY"


def test_names_that_begin_with_a_furniture_word_are_never_hidden() -> None:
    """Exhaustive over the risky synonyms: every allergen synonym whose first word is also an instruction, note or
    statement word ("stir fry sauce", "toast", "mix di frutta secca"), in every carrier, is never SAFE."""
    from dinecheck.allergens.text import lookup_key

    f = furniture()
    first_words = {w.split(" ")[0] for w in (*f.instructions, *f.notes, *f.statements, *f.sentences)}
    risky = [(c, s) for c, s in SYNONYMS if lookup_key(s).split(" ")[0] in first_words]
    assert len(risky) > 20
    false_safe = [(c, text) for c, s in risky for carrier in CARRIERS
                  for text in (carrier.format(s=s), "Rice, water. " + carrier.format(s=s))
                  if check(text, c).verdict == "SAFE"]  # fmt: skip
    assert false_safe == []


def test_a_rewrite_never_drops_what_a_word_surely_names() -> None:
    """"L-Casein" once read as "L. casei" (a bacterium) by an inflection rewrite: SAFE for MILK."""
    assert check("L-Casein", "MILK").verdict == "AVOID"


# furniture words that reach an allergen only through a rewrite of the ontology, never as a name: "store" (→ "Stör",
# sturgeon, by the -e rewrite) and "lagern" (German "to store" → "lager", beer, by the -n rewrite)
REWRITE_ARTEFACTS = ("store", "lagern")


def test_no_furniture_entry_names_an_allergen() -> None:
    """A furniture mask hides its own words: none of them may name an allergen (the rest of a masked region is
    checked at run time)."""
    from dinecheck.allergens.phrases import _mentions

    f = furniture()
    naming = []
    for name in ("statements", "checked_statements", "sentences", "advisories", "instructions", "notes",
                 "origin_leads", "places", "regions",
                 "origin_words", "physical_hazards", "nutrition_heads", "nutrition_words", "quantity_words"):  # fmt: skip
        for entry in getattr(f, name):
            words = [w for w in entry.split() if w not in REWRITE_ARTEFACTS]
            if words and _mentions(" ".join(words), ONTO):
                naming.append((name, entry))
    assert naming == []


@pytest.mark.parametrize("fragment", ["les", "Not", "eine", "mg", "de la", "and the", "di", "kcal"])
def test_a_fragment_of_function_words_or_units_is_a_note(fragment: str) -> None:
    r = check(f"Water, sugar, {fragment}")
    assert r.verdict == "SAFE" and r.unmatched == (), r.to_json()


def test_a_function_word_fragment_never_hides_a_word_the_ontology_reads() -> None:
    # French "son" is bran: "de son" is no fragment of prose but wheat bran, even beside function words
    r = check("Water, sugar, de son", "GLUTEN")
    assert r.verdict != "SAFE" and [f.code for f in r.findings] == ["GLUTEN"]
    # and no function word of the data is a name the shipped ontology reads
    assert [w for w in sorted(furniture().function_words) if ONTO.lookup(w)] == []


def test_a_verb_last_instruction_naming_an_allergen_is_read() -> None:
    r = check("Zucker. Mit Butter 5 Minuten braten.", "MILK")
    assert r.verdict == "VERIFY" and r.unmatched == ("Butter 5 Minuten braten",)
    assert check("Zucker, Mehl kochen", "GLUTEN").verdict != "SAFE"  # "Mehl" is flour: never an instruction
    # an ingredient list item does not end with an instruction verb: nothing else is taken for one
    assert check("Zucker, Erdbeeren, Salz", "MILK").verdict == "SAFE"


@pytest.mark.parametrize(
    ("text", "code"),
    [("Rice. Serve with (peanuts) for 2 minutes.", "PEANUT"), ("Rice. Cook for 2 minutes (with butter).", "MILK"),
     ("Rice. Serve with nuts, 2 minutes.", "PEANUT"), ("water, mix 12% (vol au vent), salt", "EGG")],
)  # fmt: skip
def test_punctuation_next_to_an_allergen_name_never_lets_furniture_hide_it(text: str, code: str) -> None:
    """A masked region is checked word by word for allergen names: brackets and commas around a name ("(peanuts)",
    "nuts,") are no part of it (found by the compound property: "mix 12% (vol au vent)" once lost the pastry)."""
    r = check(text, code)
    assert r.verdict != "SAFE" and code in [f.code for f in r.findings], r.to_json()


@pytest.mark.parametrize(
    "table",
    ["Valori nutrizionali per 100 g: Energia 502 kJ, Grassi 2,1 g, Carboidrato 16 g, Proteina 7,0 g, Sale 0,6 g",
     "Información nutricional por 100 g: Grasa 3 g, Proteína 5 g, Sal 0,2 g"],
)
def test_a_nutrition_row_may_name_its_nutrient_in_the_singular(table: str) -> None:
    """Italian and Spanish tables write "Proteina"/"Proteína" as often as the plural; both are rows, not ingredients
    (the OFF import reads the singular as a name of its protein entry, which Germans call "Eiweiß")."""
    assert check(f"Riso, sale. {table}", "EGG").verdict == "SAFE"


@pytest.mark.parametrize("text", [
    "sugar. This product may contain traces of nuts.", "sucre. Ce produit peut contenir des traces de fruits à coque.",
    "Zucker. Dieses Produkt kann Spuren von Nüssen enthalten.",
    "azúcar. Este producto puede contener trazas de frutos de cáscara.",
    "zucchero. Questo prodotto può contenere tracce di frutta a guscio.", "sugar. Our products may contain nuts.",
])  # fmt: skip
def test_the_subject_of_a_warning_is_no_ingredient(text: str) -> None:
    """"This product" / "Ce produit" / "Dieses Produkt" left before "may contain …" is the warning's subject: the
    warning counts for the nuts it names, and a milk allergy gets SAFE."""
    assert check_label(text, ["MILK"], ONTO).verdict == "SAFE"
    r = check_label(text, ["TREE_NUTS"], ONTO)
    assert r.verdict == "VERIFY" and [f.code for f in r.findings] == ["TREE_NUTS"]


@pytest.mark.parametrize("text", [
    "sugar. Cannot guarantee nut free.", "sugar. We cannot guarantee this product is nut free.",
    "sugar. We cannot guarantee that this product is free from nuts.",
])  # fmt: skip
def test_a_guarantee_refused_is_a_warning_for_what_it_names(text: str) -> None:
    """"Cannot guarantee nut free" names nuts that may be there: they used to be lost (only the unknown words kept
    the label VERIFY), and masking those words as furniture would have made it SAFE."""
    r = check_label(text, ["TREE_NUTS", "MILK"], ONTO)
    assert r.verdict == "VERIFY" and r.unmatched == ()
    assert [(f.code, f.level) for f in r.findings] == [("TREE_NUTS", RiskLevel.POSSIBLE)]
    assert check_label(text, ["MILK"], ONTO).verdict == "SAFE"


def test_a_refused_guarantee_reads_its_list_up_to_the_last_free() -> None:
    """Found by the exhaustive carrier check: the list of "cannot guarantee … free" ended at the first "free", so
    "gluten free tamari free" left "tamari free" to be read as an absence claim (SAFE for SOY)."""
    r = check_label("Rice, water. Cannot guarantee gluten free tamari free.", ["SOY"], ONTO)
    assert r.verdict == "VERIFY" and [(f.code, f.level) for f in r.findings] == [("SOY", RiskLevel.POSSIBLE)]


@pytest.mark.parametrize("text", [
    "Weizenmehl, Wasser. Aufbacken bei 200 °C für 5 Minuten.", "sugar. Best served chilled.",
    "semola di grano duro. Cottura 8 minuti in acqua salata.", "huile de tournesol. Idéale pour la friture.",
    "cider vinegar. Acidity 5%", "sugar. Due to manufacturing methods, may contain sesame.",
    "Salz, Gewürze. Gekühlt bei max. +7 °C lagern.",  # "lagern" stays a statement, not a first-infinitive instruction
    "sugar. Contains a bioengineered food ingredient.", "sugar. Partially produced with genetic engineering.",
    "sugar. Colour may vary. Contents may settle during shipping.", "sugar. Best if used by date on cap.",
    "sugar. Kosher pareve.", "sugar. This pack contains 4 servings.", "sugar. Each pack contains 2 portions.", "sardines, salt. Warning: contains small bones.",
])  # fmt: skip
def test_instructions_suggestions_and_notes_are_furniture(text: str) -> None:
    r = check_label(text, ["PEANUT"], ONTO)
    assert r.verdict == "SAFE" and r.unmatched == (), r.review_reasons


def test_a_suggestion_that_names_an_allergen_keeps_it() -> None:
    assert check_label("sugar. Ideal for peanut lovers.", ["PEANUT"], ONTO).verdict != "SAFE"
    assert check_label("sugar. This pack contains peanuts.", ["PEANUT"], ONTO).verdict == "AVOID"
    assert check_label("sugar. This pack contains: Zorblax.", ["PEANUT"], ONTO).unmatched == ("Zorblax",)
    r = check_label("sugar. Manufactured on shared equipment with tree nuts.", ["TREE_NUTS", "PEANUT"], ONTO)
    assert r.unmatched == () and [(f.code, f.level) for f in r.findings] == [("TREE_NUTS", RiskLevel.POSSIBLE)]
    assert check_label("Mehl. Mit Erdnüssen servieren.", ["PEANUT"], ONTO).verdict != "SAFE"


def test_a_company_name_alone_is_a_note_unless_it_names_an_allergen() -> None:
    assert check_label("sugar, salt, Greenfield Larder Ltd", ["PEANUT"], ONTO).verdict == "SAFE"
    assert check_label("sugar, Acme Foods GmbH", ["MILK"], ONTO).verdict == "SAFE"
    r = check_label("sugar, Peanut Company Ltd", ["PEANUT"], ONTO)
    assert r.verdict == "VERIFY" and r.unmatched == ("Peanut Company Ltd",)
    assert check_label("sugar, Ltd", ["PEANUT"], ONTO).verdict == "VERIFY"  # a legal form alone names nothing


@pytest.mark.parametrize("text", [
    "sugar, salt. Consumer careline 0800 123 456.", "sucre, sel. Service client : 01 23 45 67 89.",
    "Zucker, Salz. Unser Verbraucherservice: 0800 123.", "azúcar, sal. Servicio de atención al consumidor 900 123.",
    "zucchero, sale. Numero verde 800 123 456.", "sugar, salt. All rights reserved.",
])  # fmt: skip
def test_helper_written_leads_are_furniture(text: str) -> None:
    """The fifth round's leads (``statements_general`` / ``sentences_general``, merged by scripts/merge_furniture.py)."""
    assert check_label(text, ["PEANUT"], ONTO).verdict == "SAFE"


def test_a_lead_that_may_dress_a_food_was_never_merged() -> None:
    """"Carefully selected …" may begin the ingredient list itself: the merge refuses such leads, so what follows
    stays an ingredient (unknown here, so VERIFY)."""
    assert "carefully selected" not in furniture().sentences + furniture().statements
    assert check_label("Carefully selected zorblax beans, sugar.", ["PEANUT"], ONTO).verdict == "VERIFY"


LEADS = sorted({*furniture().statements, *furniture().sentences, *furniture().instructions})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SYNONYMS), st.sampled_from(LEADS), st.sampled_from(["{l} {s}.", "{l}: {s}, salt.",
                                                                          "Rice, water. {l} {s} and sugar."]))
def test_an_allergen_synonym_after_any_furniture_lead_is_never_safe(pair, lead, form) -> None:
    """Every lead of the furniture vocabulary, hand- or helper-written, followed by an allergen synonym."""
    code, synonym = pair
    text = form.format(l=lead, s=synonym)
    assert check(text, code).verdict != "SAFE", text


@pytest.mark.parametrize("row", ["Fat 3.2g", "20g PROTEIN", "Salz 0,03 g", "Kohlenhydrate 12 g", "Energy 250 kcal",
                                 "matières grasses 3,2 g", "proteínas 5 g", "Vitamin C 12mg"])  # fmt: skip
def test_a_nutrition_row_without_its_heading_is_a_note(row: str) -> None:
    """A row of a nutrition table pasted without its heading names no ingredient (sixth round)."""
    result = check_label(f"Rice, water, {row}, salt", list(PROFILE_ALL), ONTO)
    assert result.verdict == "SAFE" and result.unmatched == ()


@pytest.mark.parametrize(("row", "code"), [("Lactose < 0.1 g", "MILK"), ("milk protein 3 g", "MILK"),
                                           ("Eiweiß 11 g", "EGG"), ("fish oil 500mg", "FISH"),
                                           ("whey protein 20g", "MILK")])  # fmt: skip
def test_a_nutrition_like_row_that_names_an_allergen_is_read(row: str, code: str) -> None:
    assert check_label(f"Rice, water, {row}, salt", [code], ONTO).verdict != "SAFE"


@pytest.mark.parametrize("text", ["Eau minérale naturelle gazeuse renforcée au gaz de la source.",
                                  "Acqua minerale naturale rinforzata con gas della stessa sorgente.",
                                  "Natural mineral water, naturally carbonated."])
def test_the_designations_of_natural_mineral_waters_are_read(text: str) -> None:
    """Directive 2009/54/EC Annex I: how a natural mineral water is gassed describes the water."""
    assert check(text).verdict == "SAFE", check(text).to_json()
    assert check("Water. Naturally carbonated peanut drink.").verdict != "SAFE"
    assert check("Water, sugar. Contains less than 0.5% peanuts.").verdict != "SAFE"


@pytest.mark.parametrize("text", ["Zutaten: Wasser, Zucker. Hersteller: Muster GmbH, Musterstraße 1, 12345 Musterstadt.",
                                  "Ingredientes: agua, azúcar. Fabricado por: Ejemplo S.L., 28001 Madrid, España.",
                                  "Ingredienti: acqua, zucchero. Prodotto da: Esempio S.r.l., 20100 Milano, Italia.",
                                  "Ingredients: water, sugar. Questions or comments? Call 1-800-555-0199."])
def test_an_operator_line_runs_to_its_sentence_end_past_a_dotted_company_form(text: str) -> None:
    assert check(text).verdict == "SAFE", check(text).to_json()


def test_an_operator_line_never_hides_a_named_food() -> None:
    assert check("Zutaten: Wasser. Hersteller: Muster GmbH, 1000 island dressing.", "EGG").verdict == "AVOID"
    assert check("Ingredients: water. Fabricado por: Ejemplo S.L. Contains peanuts.").verdict == "AVOID"
    assert check("Zutaten: Wasser. Hersteller: Erdnuss GmbH.").verdict != "SAFE"


@pytest.mark.parametrize("text", ["Tomatoes. Once opened, transfer to a non-metallic container.",
                                  "Potatoes, sunflower oil. Spread evenly on a tray, avoiding any overlap, and cook for 20 "
                                  "minutes."])  # fmt: skip
def test_an_instruction_in_ordinary_words_is_masked(text: str) -> None:
    """Words of ordinary prose that name no food ("container", "evenly", "tray": WordNet) let an
    instruction be read as one."""
    assert check(text).verdict == "SAFE", check(text).to_json()


def test_ordinary_words_never_read_a_food_or_a_misread_allergen() -> None:
    words = common_words()
    assert {"tray", "utensils", "evenly", "stirring", "container"} <= words
    # a word with a sense among foods, plants, animals or substances is never one
    assert not {"toast", "spread", "roll", "date", "cream", "sole", "whey", "butter", "cube", "soup"} & words
    assert not {"single", "angel"} & words  # words of a food name of several words ("single cream", "angel food cake")
    assert not unknown_words("place the utensils on a tray", ONTO)
    # nor a word one edit from a one-word name that carries an allergen ("whet", "fist", "mild"): it may be misread
    allergen_words = [k for k, syns in ONTO.synonyms.items()
                      if " " not in k and any(ONTO.allergen_paths(s.canonical_id) for s in syns)]  # fmt: skip
    assert not {v for k in allergen_words for v in one_edit_variants(k)} & words
    assert unknown_words("stir in the whet for 2 minutes", ONTO)
    assert check("Rice, water. Stir in the whet for 2 minutes.", "GLUTEN").verdict != "SAFE"
    assert check("Rice, water. Heat the fist for 2 minutes.", "FISH").verdict != "SAFE"
    # an instruction whose word nothing reads still stays unmasked (the product's name)
    assert check("Rice. Cook the yorkshires for 4 min at 220C.").verdict == "VERIFY"
    assert check("Rice. Do not wash raw peanuts before cooking.").verdict != "SAFE"


@pytest.mark.parametrize("text", ["Rice. Made in Trinidad and Tobago.", "Rice. Produit de Bosnie-Herzégovine et de Serbie.",
                                  "Rice. Made in Bosnia and Herzegovina, Croatia and Serbia.",
                                  "Reis. Hergestellt in Trinidad und Tobago."])  # fmt: skip
def test_a_country_whose_name_holds_a_conjunction_is_one_place(text: str) -> None:
    assert check(text).verdict == "SAFE", check(text).to_json()
    assert check(text.rstrip(".") + " and peanuts.").verdict == "AVOID"


def test_a_mask_asks_each_piece_between_punctuation_whether_it_names_an_allergen() -> None:
    """"raw chicken, meat floss": read across the comma, "chicken meat" took the "meat" of "meat floss" (with soy)."""
    assert check("Rice, water. Do not wash raw chicken before cooking, meat floss.", "SOY").verdict != "SAFE"
    assert check("Rice, water. Once opened, transfer to a container, meat floss.", "SOY").verdict != "SAFE"


@pytest.mark.parametrize(("text", "allergen"), [
    ("Café soluble. Dissoudre 1 à 2 cuillères dans une tasse d'eau chaude.", "lait"),
    ("Arroz. Hervir en abundante agua durante 15 minutos.", "leche"),
    ("Riso. Bollire in abbondante acqua salata per 15 minuti.", "latte"),
    ("Kartoffeln. Schälen und in Salzwasser 20 Minuten kochen.", "Milch"),
])  # fmt: skip
def test_instruction_verbs_of_the_other_label_languages_open_instructions(text: str, allergen: str) -> None:
    assert check(text, "MILK").verdict == "SAFE", check(text, "MILK").to_json()
    with_allergen = text.rstrip(".") + f" {allergen}."
    assert check(with_allergen, "MILK").verdict != "SAFE"


def test_a_verb_right_after_a_masked_instruction_goes_on_with_it() -> None:
    assert check("Rice flour, water. Soak in hot water for 5-7 minutes, drain and add to your stir fry.").verdict \
        == "SAFE"
    assert check("Riz, eau. Faites cuire 10 minutes dans l'eau bouillante, égouttez et servez.").verdict == "SAFE"
    assert check("Rice. Cook for 5 minutes, drain, add peanuts.").verdict != "SAFE"
    assert check("Rice. Cook for 5 minutes, drain, peanuts.").verdict == "AVOID"
    assert check("Rice. Cook for 5 minutes, drain the yorkshires.").verdict == "VERIFY"  # a word nothing reads


_FILLER = " ".join(["and stir gently"] * 100)
# the ninth round's red team (a helper told what the round added, nothing of the measured data): one text per cause
RED_TEAM_NINTH = [
    ("Rice, water. Do not serve with <b>peanuts</b>.", "PEANUT"),  # markup around a word in a mask
    ("Rice, water. Cook for 5 minutes with milk².", "MILK"),  # a mark stuck to a word
    ("Rice, water. Do not serve with mil\u200bk.", "MILK"),  # an invisible character inside a word
    ("Rice, water. Do not serve with pea&shy;nuts.", "PEANUT"),  # an entity of one
    ("Rice, water. Do not serve with 8UTTER.", "MILK"),  # letters and a digit: no word nothing reads
    ("Rice, water. Cook for 5 minutes with 2eggs.", "EGG"),  # a number run into a word
    ("Rice, water. Do not wash raw chicken, meat floss or milk.", "SOY"),  # the mask's statement named only milk
    ("Rice, water. Do not serve with egg or cr ab.", "SHELLFISH"),  # a name split by a space
    ("Rice, water. Do not serve with milk or 50le.", "FISH"),  # an OCR glyph
    ("Rice, water. Do not wash raw chicken - meat floss.", "SOY"),  # a dash between pieces
    (f"Rice, water. Do not serve {_FILLER} with peanuts.", "PEANUT"),  # longer than the word hints read
    ("Rice, water. Do not mix with diary products.", "MILK"),  # two letters swapped
    ("Riz, eau, poiss", "FISH"),  # "-s" on a word ending in "s": poisson cut off
    ("Rice, water, pean starch.", "PEANUT"),  # a word cut off before another word
    ("Rice, pea&shy;nuts", "PEANUT"),  # in a list too
    ("Rice, mil\u200bk", "MILK"),
    # a second red team, on the fixed code
    ("Rice, water. Do not serve with che<o:p></o:p>ese.", "MILK"),  # a namespaced tag, tags back to back
    ("Rice, che<o:p></o:p>ese", "MILK"),
    ("Rice, water. Do not serve with che'ese.", "MILK"),  # an apostrophe inside a word
    ("Rice, water. Do not serve with che\nese.", "MILK"),  # a line break inside a word ends the sentence, not it
    ("Rice, water. Cook for 5 minutes and serve with 'peanuts'.", "PEANUT"),  # quotes
    ("Rice, water. Do not serve with peanut\u02bcs.", "PEANUT"),  # a possessive
    ("Rice, water. Cook for 5 minutes and serve with m i l k.", "MILK"),  # letters spaced out
    ("Rice, water. Do not serve with lean pork floss.", "SOY"),  # names overlapping ("lean pork", "pork floss")
    (f"Rice, water. Do not serve with milk {_FILLER} {_FILLER} or peanuts.", "PEANUT"),  # long, naming another
    ("Arroz, agua, que\nso", "MILK"),  # a word broken across a line with no hyphen
    ("Rice, water, w\nheat", "GLUTEN"),
]


@pytest.mark.parametrize(("text", "code"), RED_TEAM_NINTH)
def test_red_team_ninth_round_is_never_safe(text: str, code: str) -> None:
    assert check(text, code).verdict != "SAFE", check(text, code).to_json()


@pytest.mark.parametrize(
    "furniture",
    [
        "Ab dem 6. Monat.",  # a German ordinal: its period ends no sentence
        "Nach dem 5. Monat. Glas im Wasserbad erwärmen.",
        "From 6 months.",
        "Always supervise your baby while feeding.",
        "48% Fett i. Tr.",
        "Rinde nicht zum Verzehr geeignet.",
        "Croûte non comestible.",
        "Corteza no comestible.",
        "Rind not edible.",
        "Blend of honey from EU and non-EU countries.",
        "Apples from more than one country.",
        "Bottled by Viña Los Alerces, Valle Central, Chile.",
        "Crianza. 13,5% vol.",
        "2.1 UK units per bottle. 4.5% ABV",
    ],
)
def test_tenth_round_furniture_is_no_ingredient(furniture: str) -> None:
    """Wording of baby foods, cheeses, honey blends and drinks, written from the rules that require it."""
    assert check(LIST + furniture, "MILK").verdict == "SAFE", check(LIST + furniture, "MILK").to_json()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Rice, water. Ab dem 6. Monat Milch.", "MILK"),  # the ordinal joins the sentence; the mask still spares milk
        ("Rice, water. Nach dem 5. Monat mit Erdnüssen.", "PEANUT"),
        ("Rice, water, dry", "MILK"),  # "dry milk" cut off: no wine category that begins a name carrying an allergen
        ("Rice, water, sweet", "MILK"),  # "sweet whey"
        ("Rice, water, dulce", "MILK"),  # "dulce de leche"
        ("Rice, water. Rind not edible (coated with milk protein).", "MILK"),
        ("Rice, water. Bottled by the almond farm.", "TREE_NUTS"),
    ],
)
def test_tenth_round_furniture_never_hides_an_allergen(text: str, code: str) -> None:
    assert check(text, code).verdict != "SAFE", check(text, code).to_json()


@pytest.mark.parametrize("text", [
    LIST + "Mfd. by: Acme Foods Pvt. Ltd., Plot 23, Industrial Area, Pune 411026.",
    LIST + "Marketed by: Acme Foods Pvt Ltd, Pune 411026",
    LIST + "Always read the label. Use only as directed.",
    LIST + "Net Qty: 1 kg.",
    LIST + "Serves 2.",
    LIST + "Nutrition Facts: Serving size 1 tray (227g), Calories 350, Total Fat 12g, Sodium 780mg.",
    LIST + "To steam: place in a lined steamer and steam over high heat for 8-10 minutes.",
    LIST + "To heat: remove lid, cover with film and microwave on full power for 2 minutes.",
    "Still water. Bottled at source.",
    "Manuka honey. UMF 10+. MGO 263+.",
    LIST + "Vitamin D3 (cholecalciferol), 400 IU.",
    LIST + "BHT added to packaging material to preserve product freshness.",
    "Apple cider vinegar. Raw, unfiltered, with the mother.",
    "Pure maple syrup. Grade A Amber Color, Rich Taste.",
    "Rice, less than 1% - corn syrup, dextrin.",
    "Water, sodium benzoate (less than 0.1% as a preservative).",
])  # fmt: skip
def test_eleventh_round_furniture_is_no_ingredient(text: str) -> None:
    """Indian operator lines ("Pvt. Ltd."), the TGA's supplement statements, the net quantity's abbreviation, the
    servings of a pack, the US panel's "Calories 350", cooking headings with "to", a natural mineral water's "bottled
    at source", what is left of a share once its figure is read, honey and maple-syrup grades, a dose in IU, an
    antioxidant in the packaging and a vinegar's mother."""
    r = check_label(text, PROFILE_ALL, ONTO)
    assert r.verdict == "SAFE" and r.unmatched == (), (text, r.review_reasons)


def test_pvt_is_a_legal_form_only_before_ltd_and_an_operator_line_never_hides_an_allergen() -> None:
    """French "PVT" is textured vegetable protein: only "Pvt. Ltd." is the company form."""
    assert check_label(LIST + "Distributed by: Acme PVT, Pune.", ["SOY"], ONTO).verdict != "SAFE"
    r = check_label(LIST + "Mfd. by: Peanut Foods Pvt. Ltd., Pune.", ["PEANUT"], ONTO)
    assert r.verdict != "SAFE" and [f.code for f in r.findings] == ["PEANUT"]
    assert check_label(LIST + "Serves 2 with milk.", ["MILK"], ONTO).verdict == "AVOID"
    assert check_label("Rice, less than 1% - milk.", ["MILK"], ONTO).verdict == "AVOID"


def test_calories_with_a_number_is_a_nutrition_row_and_nothing_more() -> None:
    assert nutrition_item("calories 350") and nutrition_item("fat 3.2g")
    assert not nutrition_item("milk calories 350") and not nutrition_item("calories")


def test_an_abbreviation_goes_on_only_before_a_comma_a_number_or_another_abbreviation() -> None:
    """"Pvt. Ltd., Pune" and "ca. 5 g" go on; after "Ltd." or "min." a word may open the next sentence ("…Pvt. Ltd.
    Peanuts, sugar.", "microwave for 2 min. Stir.") — the mask must end there, never swallow it."""
    t = "acme foods pvt. ltd., pune 411026. peanuts"
    assert sentence_end(t, 0, len(t)) == t.index("411026.") + 6
    t = "acme foods pvt. ltd. peanuts, sugar."
    assert sentence_end(t, 0, len(t)) == t.index("ltd.") + 3
    t = "microwave for 2 min. stir well."
    assert sentence_end(t, 0, len(t)) == t.index("min.") + 3
    t = "weight ca. 5 g per serving. salt"
    assert sentence_end(t, 0, len(t)) == t.index("serving.") + 7


@pytest.mark.parametrize(("text", "code"), [
    ("Mfd. by: Acme Foods Pvt Ltd, Pune, penauts", "PEANUT"),  # a word one edit (a swap) from a name
    ("Rice, water. Keep refrigerated 220", "SULPHITES"),  # an additive's number without its E
    ("Rice, water. Packed by: Acme Ltd. INS 220.", "SULPHITES"),
])  # fmt: skip
def test_a_mask_never_hides_an_additive_number_or_a_misspelt_allergen_name(text: str, code: str) -> None:
    assert check_label(text, [code], ONTO).verdict != "SAFE"


@pytest.mark.parametrize("text", ["Wasser, Senfsaat, Salz. Mittelscharf.", "Tomatoes, Onions, Salt. MILD",
                                  "Tomatoes, chillies, vinegar. Extra hot", "Tomates, oignons, sel. Doux"])  # fmt: skip
def test_a_heat_grade_alone_is_a_designation(text: str) -> None:
    assert check(text, "PEANUT").verdict == "SAFE", check(text, "PEANUT").to_json()
    assert check(text + ", peanuts", "PEANUT").verdict == "AVOID"
    # as an item of a list it may be a name misread ("MILD" for milk): unknown
    assert check("Sugar, cocoa butter, MILD, cocoa mass", "MILK").verdict == "VERIFY"
    assert check("Zucker, Kakaobutter, mild", "MILK").verdict == "VERIFY"


def test_a_subdivision_is_read_in_every_form_iso_3166_2_gives_it() -> None:
    """scripts/vocabulary/countries.py: no footnote mark, each side of a bracketed form, an inverted official form by
    its first part ("Murcia, Región de")."""
    regions = furniture().regions
    assert not any(ch in name for name in regions for ch in "*[]")
    assert {"lleida", "lerida", "nafarroa", "murcia", "cataluna", "catalunya"} <= regions
    assert check("Tomates, sal. Producto de Lérida.", "PEANUT").verdict == "SAFE"


@pytest.mark.parametrize("text", ["Crevettes 97 %, sel. Pays d'élevage : Équateur.",
                                  "Pork, salt. Country of birth: Ireland. Country of rearing: United Kingdom.",
                                  "Schweinefleisch, Salz. Geburtsland: Dänemark. Aufzuchtland: Deutschland."])  # fmt: skip
def test_the_country_of_birth_rearing_or_slaughter_is_provenance(text: str) -> None:
    """EU 1337/2013 Art. 5 and 1379/2013 Art. 38 name where an animal was born, reared, slaughtered or farmed."""
    assert check(text, "PEANUT").verdict == "SAFE", check(text, "PEANUT").to_json()
    assert check("Sel, eau. Pays d'élevage : Équateur, crabe.", "SHELLFISH").verdict == "AVOID"
