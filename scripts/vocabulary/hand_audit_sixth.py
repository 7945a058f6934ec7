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

Usage: ``python scripts/vocabulary/hand_audit_sixth.py`` (rewrites the data files in place; idempotent).
"""

from __future__ import annotations

import json
from pathlib import Path

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
# names that leave an allergen-free entry for an existing one: source id → (file, target id, names)
RELOCATED = {"fruit": ("a_tree_nuts.jsonl", "dry_fruits_or_nuts", {"it": ["frutta secca essiccata"]})}  # nuts too


def _load(name: str) -> list[dict]:
    return [json.loads(line) for line in (D / name).read_text("utf-8").splitlines() if line.strip()]


def _save(name: str, entries: list[dict]) -> None:
    (D / name).write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")


def _add_names(entry: dict, names: dict[str, list[str]]) -> None:
    for lang, ns in names.items():
        have = entry["names"].setdefault(lang, [])
        have.extend(n for n in ns if n not in have)


def main() -> None:
    leaving: dict[str, dict[str, set[str]]] = {}
    for _file, _parent, _cat, _al, names, sources, _why in MOVES.values():
        for src in sources:
            for lang, ns in names.items():
                leaving.setdefault(src, {}).setdefault(lang, set()).update(ns)
    for src, (_file, _target, langs) in RELOCATED.items():
        for lang, ns in langs.items():
            leaving.setdefault(src, {}).setdefault(lang, set()).update(ns)
    for path in sorted(D.glob("*.jsonl")):
        entries = _load(path.name)
        changed = False
        for e in entries:
            for lang, ns in leaving.get(e["id"], {}).items():
                kept = [n for n in e["names"].get(lang, []) if n not in ns]
                if kept != e["names"].get(lang, []):
                    e["names"][lang] = kept
                    changed = True
            regional = [r for r in e.get("regional", []) if r["text"] not in leaving.get(e["id"], {}).get(r["lang"], ())]
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
        entry = next((e for e in entries if e["id"] == gid), None)
        if entry is None:
            entry = {"id": gid}
            entries.append(entry)
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
    for path in sorted(D.glob("*.jsonl")):
        entries = _load(path.name)
        hit = [e for e in entries if e["id"] in STANDALONE]
        for e in hit:
            _add_names(e, STANDALONE[e["id"]])
        if hit:
            _save(path.name, entries)
    for fname, target, langs in RELOCATED.values():
        entries = _load(fname)
        _add_names(next(e for e in entries if e["id"] == target), langs)
        _save(fname, entries)


if __name__ == "__main__":
    main()
