"""Names added in the eighth round of issue 8 (a data-authoring tool, not used at run time).

Each from a general source, each with its reason:

* "whole grain" / "wholegrain" / "Vollkorn" alone name an unnamed cereal (GLUTEN, WHEAT POSSIBLE); inside a longer
  name they stay quality words (``ontology.STANDALONE_FOOD_SENSES``). They were a furniture note ("Whole Grain" as a
  pack stamp), so an item "whole grain" was SAFE for GLUTEN.
* The class names of the Australia New Zealand Food Standards Code (Schedule 7) the data lacked: "mineral salt",
  "intense sweetener", "colour fixative", "antifoam" (with the usual French, German, Spanish and Italian wording of
  the first two).
* "frutas de cáscara": the Spanish Annex II name of tree nuts ("frutos de cáscara") with the noun's other gender,
  as labels write it too (it read as fruit: SAFE for TREE_NUTS).
* The designations of natural mineral waters and their gas (Directive 2009/54/EC Annex I) as processing words:
  "eau minérale naturelle gazeuse renforcée au gaz de la source" is mineral water.
* "juice" alone is a fruit or vegetable juice (it was unknown); "dressing" alone a salad dressing; "1000 island" the
  Thousand Island dressing (a name after an operator line was hidden: "Hersteller: Muster GmbH, 1000 island dressing"
  was SAFE for EGG).

Usage: ``python scripts/vocabulary/hand_eighth.py [--dry-run]`` (rewrites the data files in place; idempotent). Run
after ``hand_seventh.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hand_seventh import add_noted, rewrite_entries  # noqa: E402  (a sibling script)

NOTE = "eighth round: "
ADD_NAMES: dict[str, tuple[dict[str, list[str]], str]] = {
    "cereal_unspecified": ({"en": ["whole grain", "wholegrain"], "de": ["Vollkorn"]},
                           "'whole grain' alone is an unnamed cereal (inside a longer name a quality word)"),
    "minerals": ({"en": ["mineral salt"], "fr": ["sel minéral"], "de": ["Mineralsalz"], "es": ["sal mineral"],
                  "it": ["sale minerale"]}, "'mineral salt' is a class name of the Food Standards Code (AU/NZ)"),
    "sweetener_unspecified": (
        {"en": ["intense sweetener", "intense sweeteners"], "fr": ["édulcorant intense", "édulcorants intenses"],
         "de": ["Intensivsüßstoff", "Intensivsüßungsmittel"], "es": ["edulcorante intenso", "edulcorantes intensos"],
         "it": ["edulcorante intensivo", "edulcoranti intensivi"]},
        "'intense sweetener' is a class name of the Food Standards Code (AU/NZ)"),
    "colour_retention_agent": ({"en": ["colour fixative", "color fixative"]},
                               "'colour fixative' is a class name of the Food Standards Code (AU/NZ)"),
    "antifoaming_agent": ({"en": ["antifoam", "antifoam agent", "anti-foam agent"]},
                          "'antifoam' is the Codex class name's short form"),
    "tree_nuts": ({"es": ["frutas de cáscara", "fruta de cáscara", "frutas con cáscara"]},
                  "the Spanish Annex II name 'frutos de cáscara' as labels also write it (a red-team helper's find)"),
    "fruit_juice": ({"en": ["juice"], "de": ["Saft"], "es": ["zumo", "jugo"], "it": ["succo"]},
                    "'juice' alone is fruit or vegetable juice (the juice-content line of 21 CFR 101.30: 'Contains "
                    "27% juice'); not French 'jus', which is also a gravy"),
    "g_thousand_island_dressing": ({"en": ["1000 island dressing", "1000 island", "1000 islands dressing"]},
                                   "'1000 island' is how labels also write Thousand Island dressing"),
    "g_salad_dressing": ({"en": ["dressing"]},
                         "'dressing' alone is a salad dressing (or, in the US, a stuffing): every allergen POSSIBLE"),
    "modifier_processing": (
        {"en": ["naturally carbonated", "fortified with gas from the spring", "with added carbon dioxide"],
         "fr": ["naturellement gazeuse", "renforcée au gaz de la source", "avec adjonction de gaz carbonique"],
         "de": ["kohlensäurehaltig", "mit eigener Quellkohlensäure versetzt", "mit Kohlensäure versetzt"],
         "es": ["naturalmente gaseosa", "reforzada con gas del mismo manantial", "con gas carbónico añadido"],
         "it": ["naturalmente gassata", "rinforzata con gas della stessa sorgente",
                "con aggiunta di anidride carbonica"]},
        ""),  # the designations of natural mineral waters (Directive 2009/54/EC Annex I): how the water is gassed
}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()

    def edit(e: dict) -> int:
        return add_noted(e, *ADD_NAMES[e["id"]], NOTE) if e["id"] in ADD_NAMES else 0

    print(f"{rewrite_entries(edit, args.dry_run)} names added")


if __name__ == "__main__":
    main()
