"""Hand moves after the sixth round's blind audit of the allergen-free names (issue 8, sixth round).

Three blind auditors read every name the shipped data holds allergen-free (1,942 entries) and flagged those that, as
printed on a label in their language, name something that contains or commonly may contain a Big-9 allergen
(brief: ``ALLERGEN_FREE_AUDIT_BRIEF.md``). The flags accepted are below: each name leaves its allergen-free entry for
a new entry that carries what it may hold (a list of components after it settles a POSSIBLE one, see ``compound``),
or, for a word of two senses, is added to the allergen-bearing entry too (both senses are read). The flags declined,
and why, are in ``docs/allergens.md`` (sixth round): they name things whose allergen law makes the label name the
allergen (an unnamed starch, dextrin, gelatine or collagen, baking powder), or use a sense rare on ingredient lists.

A fourth blind reviewer read every modifier word (``MODIFIER_SENSES_BRIEF.md``) for a second sense that names an
allergen food: alone ("tostada" is toast, "soufflé" the egg dish, "Gefrorenes" ice cream,
"semi-skimmed" the milk) or in a fixed phrase ("salted black beans" are soybeans, "claw meat" is
crab). :data:`STANDALONE` adds those senses as names of the foods they name; such a word stays a modifier inside a
longer name ("pan tostado", "riz soufflé", "carne picada"), and alone reads as the food
(``ontology.STANDALONE_FOOD_SENSES`` keeps it from being dropped as a modifier that names an allergen).

Three more auditors read every allergen-bearing entry for a Big-9 allergen its recipe commonly holds but the entry
lacks (brief ``ALLERGEN_BEARING_AUDIT_BRIEF.md``; 216 flags). Accepted: what the usual recipe of the named food holds
(:data:`ADD_TO_ENTRY` for a whole entry; :data:`SPLITS` for the names of one dish inside a wider entry, which become an
entry of their own that contains the old one). Declined: cross-contact alone (the label's own "may contain" line says
that), wine and port (fining residues are declared when present), liquid stocks (the cubes are taken), and senses
rare on a label; nougat (its wafer paper is listed as an ingredient of its own, and turrón de Jijona has none).

Usage: ``python scripts/vocabulary/hand_audit_sixth.py`` (rewrites the data files in place; idempotent).
"""

from __future__ import annotations

import json
from pathlib import Path

from dinecheck.allergens.text import lookup_key

D = Path(__file__).resolve().parents[2] / "dinecheck" / "allergens" / "data" / "ingredients"
P = "POSSIBLE"
NOTE = "sixth round: moved by hand from an allergen-free entry after the blind audit of allergen-free names — "
SENSE_NOTE = "sixth round: the second sense of a modifier word, found by the blind review of the modifier words — "

# new id → (file, parent, category, allergens, names, the entries the names leave, why)
MOVES: dict[str, tuple[str, str | None, str, dict[str, str], dict[str, list[str]], tuple[str, ...], str]] = {
    "coconut_milk_powder": (
        "a_compounds.jsonl", "coconut_milk", "coconut_product", {"MILK": P},
        {"en": ["coconut milk powder", "coconut cream powder"], "fr": ["poudre de lait de coco"],
         "de": ["Kokosmilchpulver"], "es": ["leche de coco en polvo"], "it": ["latte di cocco in polvere"]},
        ("coconut_milk",), "powdered coconut milk is usually carried on sodium caseinate (milk protein)"),
    "mashed_potato": (
        "a_compounds.jsonl", "potato", "vegetable", {"MILK": P},
        {"en": ["mashed potato", "mashed potatoes", "potato mash"], "fr": ["purée de pommes de terre"],
         "de": ["Kartoffelpüree"], "es": ["puré de patata", "puré de patatas"], "it": ["purè di patate"]},
        ("potato",), "prepared and instant mash is commonly made with milk, butter or milk powder"),
    "crisped_rice": (
        "a_compounds.jsonl", "puffed_rice", "grain", {"GLUTEN": P},
        {"en": ["crisped rice", "rice crispies", "rice crisps"], "fr": ["riz croustillant"], "de": ["Reiscrisps"]},
        ("puffed_rice",), "crisped rice (cereal and chocolate-bar kind) is commonly made with barley malt extract"),
    "breakfast_corn_flakes": (
        "a_compounds.jsonl", "corn", "grain", {"GLUTEN": P},
        {"en": ["corn flakes", "cornflakes", "maize flakes"], "fr": ["pétales de maïs", "flocons de maïs"],
         "de": ["Maisflocken", "Cornflakes"], "es": ["copos de maíz"], "it": ["fiocchi di mais"]},
        ("corn_flakes_cereal",), "breakfast corn flakes commonly hold barley malt extract or flavouring"),
    "farofa": (
        "a_compounds.jsonl", "cassava_flour", "prepared_food", {"MILK": P},
        {"en": ["farofa"], "pt": ["farofa"]},
        ("cassava_flour",), "farofa is cassava flour toasted in butter or other fat, often with bacon or egg"),
    "bread_improver": (
        "a_compounds.jsonl", None, "bakery", {"WHEAT": P, "GLUTEN": P, "SOY": P},
        {"en": ["flour improver", "dough improver", "bread improver"], "fr": ["améliorant de panification"],
         "es": ["mejorante", "mejorante panario"], "de": ["Backmittel"], "it": ["miglioratore per panificazione"]},
        ("flour_treatment_agent",), "a bread improver is a mix, usually on a wheat-flour base, often with soya flour "
        "(the formal class names 'flour treatment agent' and kin stay a class: the law makes the additive named)"),
    "legumes_generic": (
        "a_compounds.jsonl", None, "legume", {"SOY": P, "PEANUT": P, "LUPIN": P},
        {"fr": ["légumineuses", "légumineuse"], "de": ["Hülsenfrüchte", "Leguminosen"], "es": ["legumbres", "legumbre"],
         "it": ["legumi"], "nl": ["peulvruchten"]},
        ("pulses",), "the general word for legumes covers soybeans, peanuts and lupin (English 'pulses' and French "
        "'légumes secs' exclude them; English 'legumes' folds to French 'légumes', vegetables, and stays out)"),
    "chilli_paste": (
        "a_compounds.jsonl", "chilli", "condiment", {"SHELLFISH": P, "FISH": P, "SOY": P, "WHEAT": P, "GLUTEN": P},
        {"en": ["chilli paste", "chili paste"]},
        ("chilli",), "Asian chilli pastes (nam prik pao, sambal terasi, gochujang, doubanjiang) commonly hold shrimp "
        "paste, fish sauce, soy or wheat"),
    # the second senses of modifier words that name no entry yet (no allergen-free entry loses a name)
    "tostada": ("a_compounds.jsonl", None, "bakery", {"WHEAT": P, "GLUTEN": P, "MILK": P},
                {"es": ["tostada"]}, (), "Spanish 'tostada' alone is a slice of toast (Mexican: a fried corn tortilla)"),
    "souffle": ("a_compounds.jsonl", None, "prepared_food", {"EGG": P, "MILK": P, "WHEAT": P, "GLUTEN": P},
                {"fr": ["soufflé"], "en": ["soufflé", "souffle"]}, (), "'soufflé' alone is the baked egg dish"),
    "picada": ("a_compounds.jsonl", None, "condiment", {"TREE_NUTS": P, "WHEAT": P, "GLUTEN": P, "MILK": P},
               {"es": ["picada"]}, (), "Spanish 'picada' alone is a pounded nut-and-bread sauce (Catalonia) or a "
               "cheese-and-cold-cut platter (Argentina)"),
    "dry_roasted_nuts": ("a_compounds.jsonl", None, "nut_mix", {"PEANUT": P, "TREE_NUTS": P},
                         {"en": ["dry roasted", "dry-roasted"]}, (), "British 'dry roasted' alone means dry roasted "
                         "peanuts"),
    "chopped_liver": ("a_compounds.jsonl", None, "prepared_food", {"EGG": P},
                      {"en": ["chopped liver"]}, (), "chopped liver is made with hard-boiled egg"),
}  # fmt: skip

# second senses of modifier words, and fixed phrases, added to the allergen-bearing entries they name (entry id →
# names); the names stay wherever else they are. Left out: US "American"/"Swiss" (cheese), Spanish "curado" (cheese)
# and "tostado" (a sandwich), French "râpé" (grated cheese), "brazil" alone (the nut): those words stand inside other
# names and statements in their first sense ("American shad", "Swiss plait flour", "curado más de 6 meses", "tostado
# en España", "hígado de rape", "Produced in Brazil")
STANDALONE: dict[str, dict[str, list[str]]] = {
    "brazil_nut": {"en": ["brazils"]},
    "g_danish_pastry": {"en": ["danish", "danishes"]},
    "shortbread": {"fr": ["broyé", "broyé du Poitou"]},
    "ice_cream": {"de": ["Gefrorenes"]},  # Austrian
    "g_porridge": {"fr": ["bouillie"]},
    "milk_drink_flavoured": {"es": ["malteada", "malteado"]},  # a milkshake (Mexico, Colombia)
    "g_crumble": {"it": ["sbriciolata"]},
    "cheese": {"it": ["grattugiato"]},  # grated cheese
    "butter": {"fr": ["demi-sel", "demi sel"]},  # beurre demi-sel
    "milk": {"en": ["semi-skimmed"], "fr": ["demi-écrémé"], "es": ["semidesnatada", "semidescremada"]},
    "pesto": {"it": ["genovese"]},  # pesto alla genovese …
    "sponge_cake": {"it": ["genovese"]},  # … and pasta genovese (a sponge): both senses are read
    "g_caffe_latte": {"en": ["irish coffee"]},  # with cream
    "crab": {"en": ["claw meat", "crab claw meat"]},
    "fermented_black_beans": {"en": ["salted black beans"]},  # douchi: black soybeans
}

# words of two senses: the name stays where it is and is added to the allergen-bearing entry too
HOMOGRAPHS: dict[str, tuple[str, dict[str, list[str]], str]] = {
    "g_sponge_finger": ("g_allergenic.jsonl", {"en": ["ladies fingers", "lady's finger", "lady finger"]},
                        "'ladies fingers' is okra in British and Indian English and sponge fingers elsewhere"),
}
# the allergen-bearing audit: an allergen the usual recipe holds, added to the whole entry (POSSIBLE unless said)
ADD_TO_ENTRY: dict[str, dict[str, str]] = {
    "panettone": {"TREE_NUTS": P},  # colomba's almond glaze, roscón's almonds, stollen's marzipan
    "wafer": {"EGG": P},  # cones, tuiles, cigarettes russes
    "beer": {"WHEAT": P},  # a common brewing grain
    "candied_nuts": {"PEANUT": P},  # caramelised "nuts" are often peanuts
    "cocktail_sauce_us": {"FISH": P},  # Worcestershire sauce
    "fruit_bread": {"TREE_NUTS": P},  # Früchtebrot, vruchtenbrood with almond paste
    "furikake": {"SOY": P, "WHEAT": P, "GLUTEN": P, "EGG": P, "MILK": P, "SHELLFISH": P},  # soy sauce, egg, shrimp
    "macarons": {"MILK": P},  # buttercream and ganache fillings
    "mornay_sauce": {"EGG": P},  # finished with yolks
    "muesli": {"WHEAT": P, "SOY": P},  # wheat flakes, clusters
    "g_lumache": {"EGG": P},  # like the other dried pasta
    "malted_cereal_drinks": {"WHEAT": P},  # Horlicks, Bournvita
    "nougatine": {"PEANUT": P},  # nut brittle is often peanut
    "pastry_cream": {"WHEAT": P, "GLUTEN": P},  # thickened with flour
    "remoulade": {"FISH": P},  # anchovy in the French sauce
    "sesame_dressing": {"EGG": P},  # goma dressings with yolk
    "sour_cream_dip": {"EGG": P},  # mayonnaise-based dips
    "stock_cube": {"WHEAT": P, "GLUTEN": P, "MILK": P},  # wheat flour, lactose in cubes and powders
    "gravy": {"MILK": P},  # granules with lactose or whey
    "worcestershire_sauce": {"SOY": P, "WHEAT": P},
    "brownie": {"TREE_NUTS": P},  # walnuts, pecans
    "g_mantecado": {"SESAME": P},  # ajonjolí
    "malt": {"WHEAT": P},  # malted cereals may be wheat
    "vacherin": {"EGG": P},  # the meringue dessert
    "shortbread": {"EGG": P},  # sablés, pasta frolla
    "taramasalata": {"WHEAT": P, "GLUTEN": P},  # thickened with bread
    "rice_wine": {"WHEAT": P, "GLUTEN": P},  # Shaoxing wine is brewed with wheat
    "speculoos": {"MILK": P, "EGG": P, "TREE_NUTS": P},  # Butter-, Mandelspekulatius
}  # fmt: skip

# the names of one dish inside a wider entry: new id → (the old entry, names, what the dish adds)
SPLITS: dict[str, tuple[str, dict[str, list[str]], dict[str, str]]] = {
    "lobster_bisque": ("lobster", {"en": ["lobster bisque"], "fr": ["bisque de homard"], "it": ["bisque di astice"],
                                   "es": ["crema de bogavante"], "de": ["Hummersuppe"]},
                       {"MILK": P, "WHEAT": P, "GLUTEN": P}),
    "meringue_dessert": ("meringue", {"it": ["meringata"], "en": ["pavlova"]}, {"MILK": P}),
    "salsa_verde_anchovy": ("anchovy_condiments", {"en": ["salsa verde with anchovies"],
                                                   "it": ["salsa verde con acciughe"]},
                            {"WHEAT": P, "GLUTEN": P, "EGG": P}),
    "dumplings_unspecified": ("bread_dumplings", {"en": ["dumplings"]}, {"SHELLFISH": P}),
    "breakfast_cereal": ("cereal_unspecified", {"en": ["breakfast cereal", "breakfast cereals"],
                                                "de": ["Frühstückscerealien", "Frühstückszerealien"],
                                                "es": ["cereales de desayuno"], "fr": ["céréales du petit déjeuner"],
                                                "it": ["cereali per la colazione"]},
                         {"MILK": P, "SOY": P, "TREE_NUTS": P, "PEANUT": P}),
    "dashi_powder": ("dashi", {"en": ["hondashi", "dashi powder"]}, {"MILK": P}),
    "instant_noodles": ("ramen", {"en": ["cup noodles", "instant noodles", "pot noodle", "mee goreng noodles"],
                                  "de": ["Instantnudeln"], "es": ["fideos instantáneos"],
                                  "fr": ["nouilles instantanées"], "it": ["noodles istantanei"]},
                        {"MILK": P, "FISH": P, "SHELLFISH": P, "SESAME": P}),
    "fried_noodles": ("noodles", {"en": ["chow mein", "lo mein"], "de": ["Chow Mein", "gebratene Nudeln"],
                                  "fr": ["nouilles sautées"], "es": ["fideos salteados"], "it": ["noodles saltati"]},
                      {"SESAME": P, "SHELLFISH": P}),
    "escargots_prepared": ("snail", {"fr": ["escargots de bourgogne"]}, {"MILK": P}),
    "unagi_sauce": ("teriyaki_sauce", {"en": ["eel sauce", "unagi sauce"]}, {"FISH": P}),
    "seasoned_tofu": ("tofu", {"en": ["marinated tofu", "smoked tofu"], "fr": ["tofu mariné", "tofu fumé"],
                               "de": ["Räuchertofu", "Tofu geräuchert"], "es": ["tofu ahumado"],
                               "it": ["tofu affumicato"]}, {"WHEAT": P, "GLUTEN": P}),
    "flan_pastry": ("creme_brulee", {"fr": ["flan pâtissier"], "en": ["flan"]}, {"WHEAT": P, "GLUTEN": P}),
    "chowder": ("fish_soup", {"en": ["fish chowder", "seafood chowder"]}, {"MILK": P}),
    "praline_feuilletine": ("praline", {"fr": ["praliné feuilleté"]}, {"WHEAT": P, "GLUTEN": P}),
    "prawn_cocktail": ("shrimp", {"en": ["prawn cocktail"]}, {"EGG": P}),
    "mutabal": ("baba_ganoush", {"en": ["mutabal"], "fr": ["moutabal"]}, {"MILK": P}),
    "manjar_blanco": ("dulce_de_leche", {"es": ["manjar blanco"]}, {"TREE_NUTS": P}),
    "flapjack": ("oatcake", {"en": ["flapjack", "flapjacks"]}, {"EGG": P}),
    "hazelnut_cream": ("hazelnut_paste", {"en": ["hazelnut cream"], "fr": ["crème de noisette"],
                                          "es": ["crema de avellana"]}, {"MILK": P, "SOY": P}),
    "rouille": ("aioli", {"en": ["rouille"], "fr": ["rouille", "sauce rouille"]}, {"WHEAT": P, "GLUTEN": P}),
    "shrimp_fritters": ("shrimp_paste", {"fr": ["beignets de crevette"]}, {"WHEAT": P, "GLUTEN": P, "EGG": P}),
    "prawn_crackers_wheat": ("shrimp_paste", {"de": ["Garnelenchips"], "es": ["galletas de gambas"],
                                              "id": ["krupuk udang"]}, {"WHEAT": P, "GLUTEN": P}),
    "walnut_bread": ("bread", {"fr": ["pain aux noix"]}, {"TREE_NUTS": "DEFINITE"}),
    "chocolate_spread": ("chocolate", {"en": ["chocolate spread"], "fr": ["pâte à tartiner au chocolat"],
                                       "de": ["Schokocreme"], "it": ["crema al cioccolato"],
                                       "es": ["crema de chocolate"]}, {"TREE_NUTS": P}),
    "peanut_curry_paste": ("curry_paste_thai", {"en": ["panang curry paste", "massaman curry paste"]},
                           {"PEANUT": P}),
    "bhatura": ("chapati", {"en": ["bhatura"]}, {"MILK": P}),
    "brandade": ("cod", {"fr": ["brandade de morue"]}, {"MILK": P}),
    "yoghurt_salad_cream": ("salad_cream", {"de": ["Joghurt-Salatcreme"]}, {"MILK": P}),
    "halwa": ("halva", {"fr": ["halwa"], "de": ["Halwa"]}, {"MILK": P, "WHEAT": P, "GLUTEN": P}),
    "tarator": ("tahini_sauce", {"en": ["tarator"]}, {"MILK": P, "TREE_NUTS": P, "WHEAT": P, "GLUTEN": P}),
    "fruit_cake": ("cake", {"en": ["fruit cake"]}, {"TREE_NUTS": P}),
    "german_macaroons": ("macarons", {"de": ["Makronen", "Mandelmakronen"]}, {"WHEAT": P, "GLUTEN": P}),
}  # fmt: skip

# names that leave an allergen-free entry for an existing one: source id → (file, target id, names)
RELOCATED = {
    "fruit": ("a_tree_nuts.jsonl", "dry_fruits_or_nuts", {"it": ["frutta secca essiccata"]}),  # nuts too
    "tree_nuts": ("a_tree_nuts.jsonl", "mixed_nuts", {"es": ["frutos secos"]}),  # Spanish nut mixes hold peanuts
    "cereal_unspecified": ("g_staples.jsonl", "g_cereal_bar", {"en": ["cereal bars"], "es": ["barritas de cereales"],
                                                                  "fr": ["barres de céréales"],
                                                                  "it": ["barrette ai cereali"]}),
}


def _load(name: str) -> list[dict]:
    return [json.loads(line) for line in (D / name).read_text("utf-8").splitlines() if line.strip()]


def _save(name: str, entries: list[dict]) -> None:
    (D / name).write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")


def _entry(entries: list[dict], eid: str) -> dict:
    """The entry of id ``eid``, appended empty when there is none yet (the script runs again over its own output)."""
    entry = next((e for e in entries if e["id"] == eid), None)
    if entry is None:
        entry = {"id": eid}
        entries.append(entry)
    return entry


def _add_names(entry: dict, names: dict[str, list[str]]) -> None:
    for lang, ns in names.items():
        have = entry["names"].setdefault(lang, [])
        have.extend(n for n in ns if n not in have)


def main() -> None:
    leaving: dict[str, set[str]] = {}  # entry id → lookup keys of the names that leave it (in every language)
    for _file, _parent, _cat, _al, names, sources, _why in MOVES.values():
        for src in sources:
            leaving.setdefault(src, set()).update(lookup_key(n) for ns in names.values() for n in ns)
    for src, names, _adds in SPLITS.values():
        leaving.setdefault(src, set()).update(lookup_key(n) for ns in names.values() for n in ns)
    for src, (_file, _target, langs) in RELOCATED.items():
        leaving.setdefault(src, set()).update(lookup_key(n) for ns in langs.values() for n in ns)
    for path in sorted(D.glob("*.jsonl")):
        entries = _load(path.name)
        changed = False
        for e in entries:
            keys = leaving.get(e["id"])
            if not keys:
                continue
            for field in ("names", "inflections"):  # a name leaves with its inflected forms, in any language
                for lang, have in e.get(field, {}).items():
                    kept = [n for n in have if lookup_key(n) not in keys]
                    if kept != have:
                        e[field][lang] = kept
                        changed = True
            regional = [r for r in e.get("regional", []) if lookup_key(r["text"]) not in keys]
            if regional != e.get("regional", regional):
                e["regional"] = regional
                changed = True
        emptied = [e for e in entries if e["id"] in leaving and not any(e["names"].values())]
        if emptied:  # every name left ("corn_flakes_cereal"): the entry goes
            entries = [e for e in entries if e not in emptied]
            changed = True
        if changed:
            _save(path.name, entries)
    for gid, (fname, parent, category, allergens, names, sources, why) in MOVES.items():
        entries = _load(fname)
        entry = _entry(entries, gid)
        entry.update({"category": category, "allergens": allergens, "names": names,
                      "note": (NOTE if sources else SENSE_NOTE) + why})
        if parent:
            entry["parent"] = parent
        _save(fname, entries)
    for gid, (fname, names, why) in HOMOGRAPHS.items():
        entries = _load(fname)
        entry = next(e for e in entries if e["id"] == gid)
        _add_names(entry, names)
        if why not in entry.get("note", ""):
            entry["note"] = f"{entry.get('note', '')}; sixth round: {why}".lstrip("; ")
        _save(fname, entries)
    for path in sorted(D.glob("*.jsonl")):  # second senses, and the allergen-bearing audit's whole entries
        entries = _load(path.name)
        hit = [e for e in entries if e["id"] in STANDALONE or e["id"] in ADD_TO_ENTRY]
        for e in hit:
            _add_names(e, STANDALONE.get(e["id"], {}))
            for code, level in ADD_TO_ENTRY.get(e["id"], {}).items():
                e.setdefault("allergens", {}).setdefault(code, level)
        if hit:
            _save(path.name, entries)
    entries = _load("a_compounds.jsonl")  # … and the dishes split out of wider entries
    for sid, (src, names, adds) in SPLITS.items():
        note = (f"sixth round: split by hand out of {src!r} after the blind audit of the allergen-bearing entries: "
                "the usual recipe of this dish adds what its allergens say")
        _entry(entries, sid).update({"category": "prepared_food", "allergens": adds, "names": names, "contains": [src],
                                     "note": note})
    _save("a_compounds.jsonl", entries)
    for fname, target, langs in RELOCATED.values():
        entries = _load(fname)
        _add_names(next(e for e in entries if e["id"] == target), langs)
        _save(fname, entries)


if __name__ == "__main__":
    main()
