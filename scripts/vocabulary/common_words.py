"""Write the English words that name no food, ``dinecheck/allergens/data/common_words_en.txt`` (issue 8, ninth round;
a data-authoring tool, not used at run time).

An instruction pasted with a list ("Wash hands, surfaces and utensils after handling raw meat", "Dissolve 1 cube in
190ml boiling water") is masked only when every word of it is read by something (``normalize.unknown_words``): a
word nothing reads may be the product's own name ("Cook the Yorkshires for 4 min"). The label-furniture vocabulary
holds the words of its own entries; ordinary prose needs the ordinary words of the language too — but only those that
can never be the name of a food.

Sources (both general, neither a label):

* a common-words list of English, the Debian ``wamerican-small`` and ``wbritish-small`` lists (SCOWL size 35:
  ``/usr/share/dict/american-english-small``, ``british-english-small``), inflected forms included;
* Princeton WordNet 3.0 (Debian ``wordnet-base``: ``/usr/share/wordnet``), whose lexicographer files say what kind of
  thing every sense of a noun is.

A word is written when:

* it is all lower case in the list (a capitalised entry is a proper name: "Yorkshire", "Brie"), alphabetic, three
  letters or more;
* one of its base forms (the word itself, WordNet's exception lists, or WordNet's own suffix rules — "hands" → hand,
  "stirring" → stir, "surfaces" → surface) is a WordNet lemma;
* **no** base form has a noun sense among foods (``noun.food``: dishes, drinks, offal as meat), plants
  (``noun.plant``: every fruit, nut, seed and grain), animals (``noun.animal``: every fish and shellfish) or
  substances (``noun.substance``: every chemical, oil and additive). "toast", "spread", "roll", "date", "cream",
  "brittle", "sole", "whey", "butter", "layer" (a hen) and "cube" (a stock cube) are left out; "tray", "hands",
  "surfaces", "utensils", "stirring" are written;
* it is no word of a food name of several words (``noun.food``: "angel food cake", "single cream", "cottage pie"),
  since a dish may be named by ordinary words;

* it is not one edit (a letter left out, added or changed, or two neighbours swapped) from a one-word name of the
  shipped ontology that carries an allergen ("whet" of wheat, "fist" of fish, "diary" of dairy, "barely" of barley):
  such a word may be that name misread.

Nothing here resolves an ingredient: the list only lets an instruction be masked.

Usage: ``python scripts/vocabulary/common_words.py --wordnet /usr/share/wordnet --words FILE [--words FILE …]
[--write]`` (without ``--write`` it reports).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "dinecheck" / "allergens" / "data" / "common_words_en.txt"
# WordNet lexicographer file numbers (lexnames): noun.animal, noun.food, noun.plant, noun.substance
FOOD_LEXFILES = frozenset({5, 13, 20, 27})
FOOD_LEXFILE = 13  # noun.food
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# WordNet's detachment rules (the suffixes morphy strips), per part of speech
SUFFIXES = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}  # fmt: skip
MIN_CHARS = 3


def read_wordnet(directory: Path, lexfiles: frozenset[int] = FOOD_LEXFILES, dish_words: bool = True
                 ) -> tuple[dict[str, set[str]], set[str], dict[str, set[str]]]:
    """(lemma → its parts of speech, the lemmas with a noun sense in ``lexfiles`` — food-like by default — and, with
    ``dish_words``, every word of a food name of several words, inflected form → base forms)."""
    pos_of: dict[str, set[str]] = {}
    foodish: set[str] = set()
    for pos, name in POS_FILES.items():
        for line in (directory / f"data.{name}").read_text("utf-8").splitlines():
            if not line[:1].isdigit():
                continue  # the licence header
            fields = line.split(" ")
            lexfile = int(fields[1])
            count = int(fields[3], 16)
            for k in range(count):
                lemma = fields[4 + 2 * k].split("(")[0].lower()  # "small(a)": an adjective's syntactic marker
                pos_of.setdefault(lemma, set()).add(pos)
                if pos == "n" and lexfile in lexfiles:
                    foodish.add(lemma)
                    if dish_words and lexfile == FOOD_LEXFILE:  # a dish of ordinary words ("single_cream")
                        foodish.update(lemma.split("_"))
    exceptions: dict[str, set[str]] = {}
    for name in POS_FILES.values():
        for line in (directory / f"{name}.exc").read_text("utf-8").splitlines():
            form, *bases = line.split()
            exceptions.setdefault(form, set()).update(bases)
    return pos_of, foodish, exceptions


def base_forms(word: str, pos_of: dict[str, set[str]], exceptions: dict[str, set[str]]) -> set[str]:
    """Every WordNet lemma ``word`` may be a form of (itself included when it is one)."""
    out = {word} if word in pos_of else set()
    out |= {b for b in exceptions.get(word, ()) if b in pos_of}
    for pos, rules in SUFFIXES.items():
        for suffix, ending in rules:
            if word.endswith(suffix) and len(word) > len(suffix):
                stem = word[: -len(suffix)] + ending
                if pos in pos_of.get(stem, ()):
                    out.add(stem)
                # a doubled final consonant ("stirring", "chopped"): the single one
                if pos == "v" and not ending and len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiou":
                    single = stem[:-1]
                    if pos in pos_of.get(single, ()):
                        out.add(single)
    return out


def one_edit_from_allergen_names() -> set[str]:
    """Every string one edit from a one-word name of the shipped ontology that carries an allergen."""
    from dinecheck.allergens.ontology import load_data_dir
    from dinecheck.allergens.suggest import one_edit_variants

    onto = load_data_dir()
    out: set[str] = set()
    for key, syns in onto.synonyms.items():
        if " " not in key and len(key) >= 2 and any(onto.allergen_paths(s.canonical_id) for s in syns):
            out |= one_edit_variants(key)
    return out


def common_words(word_lists: list[Path], wordnet: Path) -> list[str]:
    pos_of, foodish, exceptions = read_wordnet(wordnet)
    near_allergens = one_edit_from_allergen_names()
    out: set[str] = set()
    for path in word_lists:
        for entry in path.read_text("utf-8").splitlines():
            if len(entry) < MIN_CHARS or not entry.isalpha() or not entry.isascii() or entry != entry.lower():
                continue
            bases = base_forms(entry, pos_of, exceptions)
            if bases and not (bases & foodish) and entry not in near_allergens:
                out.add(entry)
    return sorted(out)


def cli(description: str, build: Callable[[list[Path], Path], list[str]], out: Path, header: str) -> None:
    """The command line of a word-list tool: ``--wordnet DIR --words FILE … [--write]``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--wordnet", type=Path, required=True, help="the WordNet dict directory (data.noun …)")
    parser.add_argument("--words", type=Path, action="append", required=True, help="a word list, one word a line")
    parser.add_argument("--write", action="store_true", help=f"write {out.name} (else only report)")
    args = parser.parse_args()
    words = build(args.words, args.wordnet)
    print(f"{len(words)} words" + (f": {' '.join(words)}" if len(words) < 50 else ""))
    if args.write:
        out.write_text(header + "\n".join(words) + "\n", "utf-8")
        print(f"wrote {out}")


def main() -> None:
    cli(__doc__.split("\n\n")[0], common_words, OUT,
        "# English words that name no food (scripts/vocabulary/common_words.py: SCOWL size 35 word lists "
        "filtered by Princeton WordNet 3.0)\n")


if __name__ == "__main__":
    main()
