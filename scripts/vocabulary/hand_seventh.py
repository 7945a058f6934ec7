"""Names added in the seventh round of issue 8 (a data-authoring tool, not used at run time).

Two sources, both general:

* :data:`ADD_NAMES` / :data:`ADD_MODIFIERS`: the terms a labelling regime prescribes that the data lacked — the
  Indian FSSAI wording of flavourings and colours ("added flavours (natural and nature identical flavouring
  substances)", "permitted synthetic food colour", "liquid glucose"), written from the regulations' wording, each
  with its reason. Every name goes to the entry whose allergens it shares.
* ``seventh/enumbers.jsonl``: the additives of EU Regulation (EC) No 1333/2008 Annex II with their label names in the
  five languages, written by a helper from general knowledge (brief ``ENUMBER_BRIEF.md``; it saw nothing of the
  project or its labels). :func:`enumber_names` adds a name only where nothing reads it yet, only to the entry that
  already holds that E-number (a number no entry holds is listed, never guessed), and never a name a word of which
  names an allergen or a food the entry is not.

:data:`ADD_ALLERGENS` adds what a usual recipe holds where a check of the round found it missing.

Usage: ``python scripts/vocabulary/hand_seventh.py [--dry-run]`` (rewrites the data files in place; idempotent).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path

from dinecheck.allergens.text import lookup_key

HERE = Path(__file__).resolve().parent
D = HERE.parents[1] / "dinecheck" / "allergens" / "data" / "ingredients"
NOTE = "seventh round: "

# entry id → (names by language, why); each name means exactly that entry's ingredient
ADD_NAMES: dict[str, tuple[dict[str, list[str]], str]] = {
    "artificial_flavouring": (
        {"en": ["nature identical flavouring substances", "nature identical flavouring substance",
                "nature identical flavour", "nature identical flavours", "nature identical flavor",
                "nature identical flavors", "nature identical flavoring", "nature identical flavorings",
                "artificial flavouring substances", "artificial flavouring substance",
                "artificial flavoring substances", "synthetic flavouring substances"]},
        "the FSSAI (India) classes of added flavour: 'natural', 'nature identical' and 'artificial flavouring "
        "substances'"),
    "colour": (
        {"en": ["synthetic colour", "synthetic colours", "synthetic color", "synthetic colors", "synthetic food colour",
                "synthetic food colours", "synthetic food color", "synthetic food colors"]},
        "the FSSAI (India) wording 'synthetic food colour'"),
    "glucose_syrup": ({"en": ["liquid glucose"]}, "'liquid glucose' is glucose syrup (Indian and British usage)"),
    "palm_olein": ({"en": ["palmolein oil", "palm olein oil"]}, "palm olein is an oil; labels add the word"),
}  # fmt: skip

# entry id → allergens its usual recipe adds (found by gluing every allergen synonym: German "Cocktailsauce" is
# the Marie Rose sauce, whose usual recipe has Worcestershire sauce — anchovies — like the English cocktail sauce)
ADD_ALLERGENS: dict[str, dict[str, str]] = {"marie_rose_sauce": {"FISH": "POSSIBLE"}}

# modifier entry id → words by language, each a quality word that never names a food
ADD_MODIFIERS: dict[str, dict[str, list[str]]] = {
    "modifier_quality": {
        "en": ["permitted",  # FSSAI: "permitted emulsifier", "permitted natural colour"
               "microbial"],  # "microbial rennet", "enzymes microbiennes": the source of an enzyme
        "fr": ["microbien", "microbienne", "microbiens", "microbiennes",
               # the rind of the French cheese types ("à pâte molle" is no modifier: "pâte" is also a dough)
               "à croûte fleurie", "à croûte lavée", "à croûte naturelle"],
        # (not the fat classes of the German cheese regulation, "Magerstufe" …: alone, a modifier is a note, and
        # such a word alone still says cheese — found by a red-team helper)
        "de": ["mikrobiell", "mikrobielle", "mikrobieller", "mikrobielles", "mikrobiellen"],
        "es": ["microbiano", "microbiana", "microbianos", "microbianas"],
        "it": ["microbico", "microbica", "microbici", "microbiche"],
    },
    "modifier_part": {"en": ["ingredients", "ingredient"]},  # "Contains: soy ingredients" (what is made of soy)
    "modifier_processing": {  # "exhausted vanilla pods": pods whose extract was taken (ice cream labels)
        "en": ["exhausted",
               "made"],  # "cheese made with skim milk": the conjunction leaves "cheese made"
        "fr": ["épuisé", "épuisée", "épuisés", "épuisées",
               "récolté", "récoltée", "récoltés", "récoltées", "récolté à la main", "récoltée à la main",
               "récoltés à la main", "récoltées à la main"],  # harvested (by hand)
        "es": ["agotado", "agotada", "agotados", "agotadas"], "it": ["esausto", "esausta", "esausti", "esauste"],
    },
}  # fmt: skip


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _save(path: Path, entries: list[dict]) -> None:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")


def _add(entry: dict, names: dict[str, list[str]]) -> int:
    added = 0
    for lang, ns in names.items():
        have = entry["names"].setdefault(lang, [])
        keys = {lookup_key(n) for n in have}
        for n in ns:
            if lookup_key(n) not in keys:
                have.append(n)
                keys.add(lookup_key(n))
                added += 1
    return added


def add_noted(entry: dict, names: dict[str, list[str]], why: str, note: str) -> int:
    """:func:`_add`, and the reason appended to the entry's note (once) when a name was added."""
    n = _add(entry, names)
    if n and why and (note + why) not in entry.get("note", ""):
        entry["note"] = f"{entry.get('note', '')}; {note}{why}".lstrip("; ")
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    plan: dict[str, tuple[dict[str, list[str]], str]] = dict(ADD_NAMES)
    for eid, names in ADD_MODIFIERS.items():
        plan[eid] = (names, "")
    numbers, new, numbered = enumber_names()
    if not args.dry_run:
        for entry in new:
            codes = sorted(entry.get("allergens", {}))
            path = D / (ALLERGEN_FILE[codes[0]] if codes else "f_additives.jsonl")
            _save(path, [*_load(path), entry])
    for eid, (names, why) in numbers.items():
        have, note = plan.get(eid, ({}, ""))
        merged = {lang: [*have.get(lang, []), *ns] for lang, ns in {**have, **names}.items()}
        plan[eid] = (merged, note or why)

    def edit(e: dict) -> int:
        changed = 0
        for code, level in ADD_ALLERGENS.get(e["id"], {}).items():
            if code not in e.get("allergens", {}):
                e.setdefault("allergens", {})[code] = level
                changed += 1
        if e["id"] in numbered and not e.get("e_number"):
            e["e_number"] = numbered[e["id"]]
            changed += 1
        if e["id"] in plan:
            changed += add_noted(e, *plan[e["id"]], NOTE)
        return changed

    print(f"{len(new)} entries and {rewrite_entries(edit, args.dry_run)} names added")


def rewrite_entries(edit: Callable[[dict], int], dry_run: bool) -> int:
    """Apply ``edit`` (it returns how many changes it made) to every entry of every data file; save the files it
    changed unless ``dry_run``; the number of changes."""
    total = 0
    for path in sorted(D.glob("*.jsonl")):
        entries = _load(path)
        changed = sum(edit(e) for e in entries)
        if changed and not dry_run:
            _save(path, entries)
        total += changed
    return total


ENUMBERS = HERE / "seventh" / "enumbers.jsonl"
# numbers no entry held, read from the helper's line and checked by hand (EU 1333/2008 Annex II, Codex INS): new
# entries of f_additives.jsonl, each with the allergens of what it is made from (oat gum is oats; plant sterols are
# mostly from soybean oil); a modified starch is allergen-free like the modified starches the data had (EU and US
# law make a wheat starch name its wheat)
P = "POSSIBLE"
_STARCH: dict[str, str] = {}
NEW_ENTRIES: dict[str, tuple[str, str, str | None, dict[str, str]]] = {
    # E-number → (id, category, parent, allergens)
    "E103": ("alkannin", "colour", "colour", {}), "E105": ("fast_yellow_ab", "colour", "colour", {}),
    "E111": ("orange_ggn", "colour", "colour", {}), "E125": ("ponceau_sx", "colour", "colour", {}),
    "E126": ("ponceau_6r", "colour", "colour", {}), "E130": ("indanthrene_blue", "colour", "colour", {}),
    "E152": ("black_7984", "colour", "colour", {}), "E160f": ("beta_apo_8_carotenoic_ester", "colour", "colour", {}),
    "E161a": ("flavoxanthin", "colour", "colour", {}), "E161c": ("cryptoxanthin", "colour", "colour", {}),
    "E161d": ("rubixanthin", "colour", "colour", {}), "E161e": ("violaxanthin", "colour", "colour", {}),
    "E161f": ("rhodoxanthin", "colour", "colour", {}), "E201": ("sodium_sorbate", "preservative", None, {}),
    "E236": ("formic_acid", "preservative", None, {}), "E237": ("sodium_formate", "preservative", None, {}),
    "E238": ("calcium_formate", "preservative", None, {}), "E264": ("ammonium_acetate", "acid_regulator", None, {}),
    "E342": ("ammonium_phosphate", "acid_regulator", None, {}),
    "E411": ("oat_gum", "thickener", None, {"GLUTEN": "DEFINITE"}),
    "E430": ("polyoxyethylene_8_stearate", "emulsifier", None, {}),
    "E443": ("brominated_vegetable_oil", "emulsifier", None, {}),
    "E478": ("lactylated_glycerol_esters", "emulsifier", None, {}),
    "E499": ("stigmasterol_rich_sterols", "thickener", None, {"SOY": P}),
    "E925": ("chlorine", "flour_treatment", None, {}), "E926": ("chlorine_dioxide", "flour_treatment", None, {}),
    "E1401": ("acid_treated_starch", "starch", "modified_starch", _STARCH),
    "E1402": ("alkaline_treated_starch", "starch", "modified_starch", _STARCH),
    "E1403": ("bleached_starch", "starch", "modified_starch", _STARCH),
    "E1405": ("enzyme_treated_starch", "starch", "modified_starch", _STARCH),
    "E1421": ("starch_acetate_vinyl", "starch", "modified_starch", _STARCH),
    "E1423": ("acetylated_distarch_glycerol", "starch", "modified_starch", _STARCH),
    "E1430": ("distarch_glycerol", "starch", "modified_starch", _STARCH),
    "E1443": ("hydroxypropyl_distarch_glycerol", "starch", "modified_starch", _STARCH),
}  # fmt: skip
# E342 is a Codex INS number (not EU): the helper's list has no line for it
EXTRA_LINES = [{"e": "E342", "names": {"en": ["ammonium phosphate", "ammonium phosphates", "monoammonium phosphate",
                                              "diammonium phosphate"],
                                       "fr": ["phosphate d'ammonium", "phosphates d'ammonium"],
                                       "de": ["Ammoniumphosphat", "Ammoniumphosphate"],
                                       "es": ["fosfato de amonio", "fosfatos de amonio"],
                                       "it": ["fosfato di ammonio", "fosfati di ammonio"]}, "sources": ""}]  # fmt: skip


# the caramel colours (E150a–d) are made by heating sugars: "caramel" in their names is the colour, not the milk
# confection (a name that says "sulphite" is still refused: the data keeps E150b and E150d allergen-free)
CARAMEL_WORDS = frozenset({"caramel", "caramelo", "caramello", "karamell", "zuckerkulor"})
# the f_*.jsonl files hold allergen-free entries only: an entry with allergens lives in the file of its allergen
ALLERGEN_FILE = {"GLUTEN": "a_cereals.jsonl", "SOY": "a_soy.jsonl"}


def _refusal(name: str, target_codes: set[str], onto, function_words: frozenset[str], caramel: bool = False) -> str | None:
    """Why a helper-written name may not join its entry (None: it may)."""
    from dinecheck.allergens.normalize import resolve_key

    key = lookup_key(name)
    words = key.split(" ")
    if re.search(r"[,;()\[\]:+]|\s-\s|\.\s", name) or re.search(r"(?<![^\W_])[A-Za-z]\.", name):
        return "a separator or an abbreviation"
    if len(key) <= 3 or key in function_words or key in onto.modifiers:
        return "a short, function or modifier word"
    if resolve_key(key, onto)[0]:
        return "read already"
    for size in range(1, min(3, len(words)) + 1):
        for i in range(len(words) - size + 1):
            gram = " ".join(words[i : i + size])
            if caramel and gram in CARAMEL_WORDS:
                continue
            named = {p.code for s in resolve_key(gram, onto)[0] for p in onto.allergen_paths(s.canonical_id)}
            if named - target_codes:
                return f"{gram!r} names {sorted(named - target_codes)}"
    return None


def enumber_names() -> tuple[dict[str, tuple[dict[str, list[str]], str]], list[dict], dict[str, str]]:
    """``{entry id: (names, why)}`` from the E-number list, the new entries to create, and the numbers of entries
    that lack one."""
    from dinecheck.allergens.furniture import furniture
    from dinecheck.allergens.normalize import resolve_key
    from dinecheck.allergens.ontology import load_data_dir
    from dinecheck.allergens.tokenize import canonical_key

    onto = load_data_dir()
    function_words = furniture().function_words
    by_number: dict[str, str] = {}
    for path in sorted(D.glob("*.jsonl")):
        for e in _load(path):
            if e.get("e_number"):
                by_number.setdefault(canonical_key(e["e_number"]), e["id"])
    why = "label names of its E-number in the five languages (ENUMBER_BRIEF.md, helper-written, filtered)"
    plan: dict[str, tuple[dict[str, list[str]], str]] = {}
    new: list[dict] = []
    numbered: dict[str, str] = {}  # an entry that lacks its number: id → number
    refused: list[tuple[str, str, str]] = []
    for line in [*map(json.loads, ENUMBERS.read_text("utf-8").splitlines()), *EXTRA_LINES]:
        number = canonical_key(line["e"])
        target = by_number.get(number)
        if target is None:  # an entry of the names that lacks its number ("dextrin", "brominated vegetable oil")
            known = {s.canonical_id for ns in line["names"].values() for n in ns
                     for s in resolve_key(lookup_key(n), onto)[0]}  # fmt: skip
            if len(known) == 1:
                target = known.pop()
                numbered[target] = line["e"]
        if target is None and line["e"] in NEW_ENTRIES:
            eid, category, parent, allergens = NEW_ENTRIES[line["e"]]
            if eid in onto.ingredients:
                numbered[eid] = line["e"]
            else:
                clean = [n for n in line["names"]["en"] if not re.search(r"[,;()\[\]:]", n)][:1]
                entry = {"id": eid, "category": category, "names": {"en": clean},
                         "e_number": line["e"], "note": f"{NOTE}{line['e']}, added from the E-number list"}
                if parent:
                    entry["parent"] = parent
                if allergens:
                    entry["allergens"] = allergens
                new.append(entry)
            target = eid
        if target is None:
            refused.append((line["e"], "", "no entry holds this number"))
            continue
        codes = {p.code for p in onto.allergen_paths(target)} if target in onto.ingredients else set(
            NEW_ENTRIES[line["e"]][3])
        names: dict[str, list[str]] = {}
        for lang, ns in line["names"].items():
            for n in ns:
                reason = _refusal(n, codes, onto, function_words, caramel=number.startswith("e150"))
                if reason is None:
                    names.setdefault(lang, []).append(n)
                elif reason != "read already":
                    refused.append((line["e"], n, reason))
        if names:
            plan[target] = (names, why)
    for number, name, reason in refused:
        print(f"left out {number} {name!r}: {reason}")
    return plan, new, numbered


if __name__ == "__main__":
    main()
