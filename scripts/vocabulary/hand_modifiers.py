"""Hand edits of the modifier data (issue 8, fifth round), run after the fourth round's two commands (README).

* Drops the mechanical non-words the first round's inflection of multi-word phrases wrote ("en morceause", "pur
  juses", "in scaglii", Italian "secci"/"secce" for secchi/secche): they matched no text, but they are no words.
* Adds two small families from general sources: salt iodisation, a fortification process like "enriched" (the
  dictionaries' forms of iodised/iodé/jodiert/yodado/iodato), and the certification words of the RSPO supply-chain
  models for palm oil (Identity Preserved, Segregated, Mass Balance). None names an allergen, a negation or a number;
  the ontology drops on load any modifier that would.

Sixth round (:data:`ADD_SIXTH`): processing words the modifier list lacked, found by checking the *concepts* of the
Open Food Facts processing taxonomy (a general source) against the reader: every one of its names, in the five
languages, was put around three plain heads and the ones not read were listed. The words below are written from
general knowledge, with every inflection, for the concepts that only say how a food was cut, dried, pressed, smoked,
heated, concentrated or graded (uncooked, unpasteurised, untreated, nibbed, steel cut, oak smoked, desalted, enriched,
double concentrated, semi-dried, mechanically separated, cold-extracted …). The concepts that *add* something
unnamed stay out, as before: fried (batter, frying oil), mashed and purée (milk, butter), marinated, pickled and
brined (a marinade or brine of its own), flavoured, coated, covered and oiled (an unnamed coat), "cuisiné" (a cooked
dish), confit (cooked in fat); and so do the taxonomy's misspellings ("rehidritado", "conjelada"). A blind reviewer
then judged every word (``MODIFIER_SIXTH_REVIEW_BRIEF.md``); the 55 it rejected (enriched in four languages, uncured,
sugared, Spanish cortado/fundido, "frutti secchi" …) are not added.

Usage: ``python scripts/vocabulary/hand_modifiers.py`` (rewrites ``m_modifiers.jsonl`` in place; idempotent).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATH = HERE.parents[1] / "dinecheck" / "allergens" / "data" / "ingredients" / "m_modifiers.jsonl"
# the blind review of ADD_SIXTH (MODIFIER_SIXTH_REVIEW_BRIEF.md): only the words it accepted are added
SIXTH_REVIEW = HERE / "modifiers" / "sixth_round_review.jsonl"

BOGUS = {
    "fr": {"en morceause", "en morceauses", "en dése", "en déss", "en déses", "en tranchese", "en tranchess",
           "en trancheses", "en lamellese", "en lamelless", "en lamelleses", "en floconse", "en floconss",
           "en floconses", "pur juse", "pur juss", "pur juses"},
    "es": {"en rodajases", "en polva", "en polvas", "en trozoses", "en dadoses", "en láminases", "en coposes",
           "en conservaes"},
    "it": {"in scaglii", "in purei", "a fetti", "secci", "secce"},
}  # fmt: skip

ADD = {
    "modifier_processing": {
        "en": ["iodised", "iodized"],
        "fr": ["iodé", "iodée", "iodés", "iodées"],
        "de": ["jodiert", "jodierte", "jodierter", "jodiertes", "jodierten", "jodiertem"],
        "es": ["yodado", "yodada", "yodados", "yodadas"],
        "it": ["iodato", "iodata", "iodati", "iodate"],
    },
    "modifier_quality": {
        "en": ["rspo", "rspo certified", "rspo certified sustainable", "certified sustainable", "mass balance",
               "rspo mass balance", "segregated", "rspo segregated", "identity preserved"],
    },
}  # fmt: skip

# sixth round: the inflected forms of each concept (en, fr, de, es, it)
_FR4 = ("", "e", "s", "es")
_DE6 = ("", "e", "er", "es", "en", "em")
_ES4 = ("o", "a", "os", "as")
_IT4 = ("o", "a", "i", "e")


def _inflect(stems: tuple[str, ...], endings: tuple[str, ...]) -> list[str]:
    """Each stem with each ending: at its "{}" when it has one ("cuit{} au naturel"), else at its end."""
    return [stem.format(end) if "{}" in stem else stem + end for stem in stems for end in endings]


def _fr(*stems: str) -> list[str]:
    return _inflect(stems, _FR4)


def _de(*stems: str) -> list[str]:
    return _inflect(stems, _DE6)


def _es(*stems: str) -> list[str]:
    return _inflect(stems, _ES4)


def _it(*stems: str) -> list[str]:
    return _inflect(stems, _IT4)


_WOODS = ("oak", "beech", "hickory", "mesquite", "alder", "alderwood", "apple wood", "applewood", "cherry wood",
          "cherrywood", "fruitwood", "hardwood", "natural hardwood", "wood", "natural wood", "beechwood", "oakwood")
ADD_SIXTH = {
    "modifier_processing": {
        "en": ["uncooked", "unfrozen", "unpasteurised", "unpasteurized", "untoasted", "lightly toasted",
               "unsmoked", "not smoked", "double smoked", "naturally smoked", "lightly smoked", "dry smoked",
               "cold smoked", "hot smoked", "naturally wood smoked", *(f"{w} smoked" for w in _WOODS),
               "steel cut", "regular cut", "finely cut", "hand cut", "nibbed", "melted", "unenriched",
               "bromated", "unbromated", "un-bromated", "half salted", "half-salted", "lightly sea salted",
               "desalted", "untreated", "unwaxed", "nixtamalized", "nixtamalised", "sundried", "semi dried",
               "semi-dried", "double concentrated", "triple concentrated", "partially reconstituted",
               "mechanically separated", "mechanically pressed", "naturally pressed", "cold extracted",
               "cold-extracted", "unsulphured", "unsulfured", "sugared", "unsugared", "uncured"],
        "fr": [*_fr("décoquillé", "semi-séché", "semi séché", "semi-déshydraté", "semi déshydraté", "enrichi",
                    "dessalé", "présalé", "non traité", "traité{} en salaison", "légèrement fumé", "fumé{} au bois de hêtre",
                    "fumé{} naturellement", "cuit{} au naturel", "séparé{} mécaniquement", "finement tamisé",
                    "non pasteurisé"),
               "en lanières", "en granules", "à partir de concentré", "pression à froid", "obtenu par pression à froid",
               "obtenue par pression à froid", "de première pression à froid",
               "double concentré", "triple concentré", "doublement concentré"],
        "de": [*_de("feingeschnitten", "handgeschnitten", "gerollt", "granuliert", "frischgemahlen", "pulverisiert",
                    "gepulvert", "ungeschält", "kaltextrahiert", "eingedickt", "luftgetrocknet", "abgepresst",
                    "direkt gepresst", "ungefroren", "gegart", "ungekocht", "dampfgegart", "angereichert",
                    "ungesalzen", "ungesüßt", "ungezuckert", "ungeschwefelt", "unbehandelt", "ungebleicht", "gepökelt",
                    "ungepökelt", "zweifach konzentriert", "doppelt konzentriert", "dreifach konzentriert",
                    "an der Sonne getrocknet", "sonnengetrocknet", "unpasteurisiert", "buchenholzgeräuchert",
                    "buchenrauchgeräuchert", "kaltgeräuchert", "heißgeräuchert"),
               "einfach konzentriert", "erste kalte pressung", "aus erster kalter pressung", "in würfeln"],
        "es": [*_es("cortad", "desengrasad", "semisecad", "hinchad", "fundid", "enriquecid", "bromad", "endulzad",
                    "desodorizad", "nixtamalizad", "prensad{} mecánicamente", "separad{} mecánicamente",
                    "doble ahumad"),
               "cortados finos", "cortadas finas", "procedente de concentrado", "a base de concentrado",
               "doble concentrado", "triple concentrado", "semiseco", "semiseca", "semisecos", "semisecas",
               "a la parrilla", "a la brasa", "a la plancha", "ahumado con leña", "ahumada con leña",
               "ahumados con leña", "ahumadas con leña"],
        "it": [*_it("grigliat", "arricchit", "cott{} al naturale", "dissalat", "affumicat{} naturalmente",
                    "non trattat", "non pastorizzat"),
               "secchi", "secche", "doppio concentrato", "triplo concentrato",
               "alla griglia", "ai ferri"],
    },
}  # fmt: skip


# words of the earlier rounds' lists that name a product once read alone: "cortado" is also the espresso with milk
# ("café cortado" had read as coffee); it is now a name of g_caffe_latte, and the ontology would drop it on load anyway
DROP_SIXTH = {"es": {"cortado"}}


def _accepted_sixth() -> dict[str, dict[str, list[str]]]:
    """ADD_SIXTH without the words its reviewer rejected (a word it did not judge is not added either)."""
    verdicts = {(r["lang"], r["word"]): r["verdict"] for r in map(json.loads, SIXTH_REVIEW.read_text("utf-8").splitlines())}
    return {eid: {lang: [w for w in words if verdicts.get((lang, w)) == "accept"] for lang, words in langs.items()}
            for eid, langs in ADD_SIXTH.items()}  # fmt: skip


def main() -> None:
    entries = [json.loads(line) for line in PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    for entry in entries:
        names = entry["names"]
        for lang, bogus in (*BOGUS.items(), *DROP_SIXTH.items()):
            if lang in names:
                names[lang] = [n for n in names[lang] if n not in bogus]
        for add in (ADD, _accepted_sixth()):
            for lang, words in add.get(entry["id"], {}).items():
                have = names.setdefault(lang, [])
                have.extend(w for w in words if w not in have)
    PATH.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")


if __name__ == "__main__":
    main()
