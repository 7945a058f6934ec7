"""Write the English kitchen-utensil words that are food names of the ontology in other languages only,
``dinecheck/allergens/data/english_homographs.txt`` (issue 8, tenth round; a data-authoring tool, not used at run time).

"Heat a little oil in a frying pan": Spanish "pan" is bread, so the instruction named GLUTEN, MILK, EGG … and was never
masked. In an English sentence an English word means what it means in English. A word is written when:

* it is a one-word name of the shipped ontology that carries an allergen, and none of its synonyms with that key is
  English or of no language (``pan``: Spanish bread; ``pain``: French bread; ``tome``: a French cheese);
* it is all lower case in the English word lists (SCOWL size 35, Debian ``wamerican-small`` / ``wbritish-small``);
* no WordNet base form of it has a noun sense among foods, plants or substances (``noun.food``, ``noun.plant``,
  ``noun.substance``): "curd" and "rape" (the plant) are food in English too and are left out. Animals are not
  asked ("pan" is also the chimpanzees' genus), nor the words of a dish's name ("pan gravy");
* one of its WordNet noun senses is a kitchen utensil (a hyponym of ``kitchen_utensil``, synset 03621049: "pan",
  a cooking utensil): the only English sense an instruction is about. English food senses WordNet lacks ("buckling",
  a smoked herring; "cornet", an ice-cream cone) are thereby left out too.

At run time (:func:`dinecheck.allergens.phrases._english_region`) such a word is no mention where it stands as an
English noun (after an English determiner or cookware word and before the end of its clause, an English function word
or a number, or right before "fry": "a frying pan of water", "pan fry") in prose holding no function word of the other
label languages, unless it is part of a longer name there, and only while every synonym of it in the ontology in use
is still of another language. "Serve with pan." and "warm the pan duro" keep their Spanish bread.

Usage: ``python scripts/vocabulary/english_homographs.py --wordnet /usr/share/wordnet --words FILE [--words FILE …]
[--write]`` (without ``--write`` it reports).
"""

from __future__ import annotations

from pathlib import Path

from common_words import base_forms, cli, read_wordnet  # this script's own directory is on the path

OUT = Path(__file__).resolve().parents[2] / "dinecheck" / "allergens" / "data" / "english_homographs.txt"
FOOD_NOT_ANIMAL = frozenset({13, 20, 27})  # noun.food, noun.plant, noun.substance
KITCHEN_UTENSIL = "03621049"  # WordNet 3.0 noun synset kitchen_utensil


def kitchen_utensils(wordnet: Path) -> set[str]:
    """The noun lemmas one of whose senses has ``kitchen_utensil`` among its hypernyms (transitively)."""
    hypernyms: dict[str, list[str]] = {}
    lemmas: dict[str, list[str]] = {}
    for line in (wordnet / "data.noun").read_text("utf-8").splitlines():
        if not line[:1].isdigit():
            continue
        fields = line.split(" ")
        offset, count = fields[0], int(fields[3], 16)
        for k in range(count):
            lemmas.setdefault(offset, []).append(fields[4 + 2 * k].lower())
        at = 4 + 2 * count
        pointers = int(fields[at])
        hypernyms[offset] = [fields[at + 2 + 4 * k] for k in range(pointers) if fields[at + 1 + 4 * k] == "@"]

    def under(offset: str, seen: set[str]) -> bool:
        if offset == KITCHEN_UTENSIL:
            return True
        seen.add(offset)
        return any(h not in seen and under(h, seen) for h in hypernyms.get(offset, ()))

    return {lemma for offset, names in lemmas.items() if under(offset, set()) for lemma in names}


def english_homographs(word_lists: list[Path], wordnet: Path) -> list[str]:
    from dinecheck.allergens.ontology import load_data_dir

    pos_of, foodish, exceptions = read_wordnet(wordnet, FOOD_NOT_ANIMAL, dish_words=False)
    utensils = kitchen_utensils(wordnet)
    english = {e for path in word_lists for e in path.read_text("utf-8").splitlines()
               if e.isalpha() and e.isascii() and e == e.lower()}  # fmt: skip
    onto = load_data_dir()
    out = []
    for key, syns in onto.synonyms.items():
        if " " in key or key not in english or any(s.lang in ("en", None) for s in syns):
            continue
        bases = base_forms(key, pos_of, exceptions)
        if any(onto.allergen_paths(s.canonical_id) for s in syns) and not bases & foodish and bases & utensils:
            out.append(key)
    return sorted(out)


def main() -> None:
    cli(__doc__.split("\n\n")[0], english_homographs, OUT,
        "# English words that are food names of the ontology in other languages only "
        "(scripts/vocabulary/english_homographs.py: SCOWL size 35 filtered by Princeton WordNet 3.0)\n")


if __name__ == "__main__":
    main()
