"""Write the country names of ISO 3166-1 in the five label languages, and the subdivision names of ISO 3166-2, into
``label_furniture.toml`` (issue 8, seventh and eighth rounds; a data-authoring tool, not used at run time).

Source: the Debian ``iso-codes`` package (``/usr/share/iso-codes/json/iso_3166-1.json`` and its gettext catalogues
``iso_3166-1.mo`` for fr, de, es, it): the official short names and common names of every country and territory.
The ontology's origin words held 252 names of the usual producing countries; labels name any country ("Raspberries
(Serbia)", "Made in Singapore", "Produit de Bulgarie", "Himbeeren aus Serbien").

The names become the ``countries`` array, read as places (:func:`dinecheck.allergens.furniture.is_place`): an item that
is only a country is provenance, an origin line may name it, and a name may end with one after of/from/de/aus/di…
("rice from Cambodia"). Never as a word before a name ("Singapore noodles" stays unknown: a dish named after a place
is not that place's food). A name is left out when:

* it holds a comma or a bracket (the inverted official forms, "Korea, Republic of": the tokenizer cuts them there);
* it is an origin word of the ontology already, or any modifier;
* it, or any word of it, is a name the ontology reads (French "Grenade" is a pomegranate, Spanish "Chile" a chilli),
  or it mentions an allergen ("Saint-Pierre-et-Miquelon": a saint-pierre is a John Dory, a fish);
* it is one of :data:`FOOD_SENSES`: a country name that is also a food or drink in one of the five languages the
  ontology does not hold under that name (Spanish "malta" is malt, a gluten cereal; "Jamaica" a hibiscus drink).

The names of ISO 3166-1's subdivisions (``iso_3166-2.json``: states, provinces, regions, counties — "Product of
Quebec", "Packed in Andhra Pradesh"; each form of a bilingual or bracketed name, without footnote marks, an inverted
official form by its first part: "Murcia, Región de" → Murcia) become the ``regions`` array, left out by the same rules and when shorter than
four letters or a country name already. A region is read in an origin line only (after "made in", "product of" …),
never alone nor at the end of a name: many are also foods or dictionary words ("Chihuahua", a cheese; "Bologna";
"Devon"; "Lancashire"), and an item that is only such a word must stay unknown.

Usage: ``python scripts/vocabulary/countries.py [--iso-codes DIR] [--write]`` (without ``--write`` it reports).
"""

from __future__ import annotations

import argparse
import gettext
import json
import re
import sys
from pathlib import Path

from dinecheck.allergens.normalize import resolve_key
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.phrases import _mentions
from dinecheck.allergens.text import lookup_key

sys.path.insert(0, str(Path(__file__).resolve().parent))
from furniture_block import replace_block  # noqa: E402  (a sibling script)

BEGIN = "# countries: ISO 3166-1 short and common names in en/fr/de/es/it (Debian iso-codes), written by"
END = "# end of countries"
LANGS = ("fr", "de", "es", "it")
# malt (es "malta"), chilli (es "chile"), pomegranate (es "granada", fr "grenade"), a hibiscus drink (es "jamaica"),
# cinchona (it "china"), coffee ("java"), the dairy breeds ("jersey", "guernsey"), a biscuit ("samoa")
MIN_REGION_CHARS = 4  # "Ain", "Gao", "Ica": a short name is too often a word or an abbreviation of another
FOOD_SENSES = frozenset({"malta", "chile", "chili", "granada", "grenade", "jamaica", "china", "java", "jersey",
                         "guernsey", "samoa"})


def country_names(iso_dir: Path, locale_dir: Path) -> list[str]:
    data = json.loads((iso_dir / "iso_3166-1.json").read_text("utf-8"))["3166-1"]
    catalogues = [gettext.translation("iso_3166-1", str(locale_dir), [lang], fallback=True) for lang in LANGS]
    out: list[str] = []
    for c in data:
        english = [c["name"], *([c["common_name"]] if "common_name" in c else [])]
        out.extend(english)
        for cat in catalogues:
            out.extend(cat.gettext(n) for n in english)
    return list(dict.fromkeys(out))


def region_names(iso_dir: Path) -> list[str]:
    """The names of ISO 3166-2 subdivisions (states, provinces, regions, counties …) as their countries write them;
    a bilingual name ("Valencia / València") gives each of its forms."""
    data = json.loads((iso_dir / "iso_3166-2.json").read_text("utf-8"))["3166-2"]
    out: list[str] = []
    for sub in data:
        for part in sub["name"].split(" / "):
            out.extend(_forms(part))
    return [n for n in dict.fromkeys(out) if len(lookup_key(n)) >= MIN_REGION_CHARS]


_CODE = re.compile(r"\s+[A-Z]{2}-[A-Z0-9]{1,3}$")  # "[Caerdydd GB-CRD]": the code of the other form


def _forms(name: str) -> list[str]:
    """The forms a subdivision's name is written in: without ISO 3166-2's footnote mark ("Nafarroa*"), each side of
    a bracketed second form ("Lleida [Lérida]", "Cardiff [Caerdydd GB-CRD]"), an inverted official form by its first
    part ("Murcia, Región de" → Murcia; "Bristol, City of" → Bristol)."""
    name = name.replace("*", "").strip()
    m = re.fullmatch(r"(.+?)\s*\[(.+)\]", name)
    forms = [m.group(1), _CODE.sub("", m.group(2))] if m else [name]
    return [f.split(",", 1)[0].strip() if "," in f and "(" not in f else f for f in forms]


def plan(names: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    onto = load_data_dir()
    kept: list[str] = []
    refused: list[tuple[str, str]] = []
    seen: set[str] = set()
    for name in names:
        key = lookup_key(name)
        if key in seen:
            continue
        seen.add(key)
        words = key.split(" ")
        if re.search(r"[,()]", name):
            why = "inverted or bracketed form"
        elif key in onto.modifiers:
            why = f"a modifier already ({onto.modifiers[key]})"
        elif key in FOOD_SENSES or lookup_key(name.split(" ")[0]) in FOOD_SENSES:
            why = "a food sense"
        elif resolve_key(key, onto)[0] or any(resolve_key(w, onto)[0] for w in words):
            why = "a name the ontology reads"
        elif _mentions(key, onto):  # "Saint-Pierre-et-Miquelon": saint-pierre is a fish (John Dory)
            why = "it mentions an allergen"
        else:
            kept.append(name.lower())
            continue
        refused.append((name, why))
    return kept, refused


def write(kept: list[str], regions: list[str]) -> None:
    block = (f"{BEGIN}\n# scripts/vocabulary/countries.py (its docstring says which are left out): places, never a word"
             f" before a name\ncountries = [\n" + "".join(f"  {json.dumps(k, ensure_ascii=False)},\n" for k in kept)
             + "]\n# the subdivisions of ISO 3166-2 (states, provinces, regions, counties), the same way\nregions = [\n"
             + "".join(f"  {json.dumps(k, ensure_ascii=False)},\n" for k in regions) + f"]\n{END}\n")  # fmt: skip
    replace_block(BEGIN, END, block)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iso-codes", type=Path, default=Path("/usr/share/iso-codes/json"))
    ap.add_argument("--locale", type=Path, default=Path("/usr/share/locale"))
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    kept, refused = plan(country_names(args.iso_codes, args.locale))
    countries = {lookup_key(k) for k in kept} | {lookup_key(n) for n, _why in refused}
    regions, refused_regions = plan([n for n in region_names(args.iso_codes) if lookup_key(n) not in countries])
    for name, why in (*refused, *refused_regions):
        print(f"left out {name!r}: {why}")
    print(f"kept {len(kept)} country names, {len(regions)} region names")
    if args.write:
        write(kept, regions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
