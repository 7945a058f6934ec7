"""Write the ordinary words of pack instructions into ``label_furniture.toml`` (issue 8, seventh round; a
data-authoring tool, not used at run time).

Source: ``seventh/instruction_words.jsonl``, written by a helper from general knowledge of food packs (brief
``INSTRUCTION_WORDS_BRIEF.md``; it saw nothing of the project or its labels): verbs in their printed forms, utensils,
vessels, units, times, manner and doneness words of preparation, storage and serving instructions in the five
languages. They become the ``instruction_words`` array, which masks nothing: it only tells the checker that such a
word in an instruction is no unread word (an instruction with a word nothing reads is never masked — it may be the
product's own name: "Cook the Yorkshires for 4 min").

A word is kept only when it is one lower-case word of three letters or more, is not a name the ontology reads (nor
reaches by a rewrite), mentions no allergen (whole or as a compound part: "milchschaum"), and is no warning word. A word of the
twelfth round's list must also not be one edit from a one-word name carrying an allergen: such a word may be that
name misread ("fetta" of feta), as in ``common_words_en.txt`` (the seventh round's list, red-teamed since, is kept as
it was: held to that rule, "time", "set" and "marie" would go).

A second list, ``twelfth/instruction_words.jsonl``, was written in the twelfth round by another helper from general
knowledge (brief ``INSTRUCTION_WORDS_TWELFTH_BRIEF.md``; it saw nothing of the project or its labels): possessives,
articles and prepositions, measures and proportions ("volume", "heaped"), handling verbs ("unroll", "swell") and the
remarks printed beside instructions ("separation may occur").

Usage: ``python scripts/vocabulary/instruction_words.py [--write]`` (without ``--write`` it reports).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dinecheck.allergens.normalize import _allergen_words, resolve_key
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.phrases import _WARNING_WORDS, _mentions
from dinecheck.allergens.suggest import one_edit_variants
from dinecheck.allergens.text import lookup_key

sys.path.insert(0, str(Path(__file__).resolve().parent))
from furniture_block import replace_block  # noqa: E402  (a sibling script)

HERE = Path(__file__).resolve().parent
# the seventh round's list, and the twelfth round's wider one (brief INSTRUCTION_WORDS_TWELFTH_BRIEF.md: possessives,
# measures, handling verbs, the remarks beside instructions)
SOURCES = (HERE / "seventh" / "instruction_words.jsonl", HERE / "twelfth" / "instruction_words.jsonl")
# general words of instructions the helper's list lacks (the bain-marie, a water bath, in every label language)
HAND = ["bain", "marie"]
BEGIN = "# instruction_words: the ordinary words of pack instructions (scripts/vocabulary/instruction_words.py); they"
END = "# end of instruction_words"


def plan(rows: list[dict]) -> tuple[list[str], list[tuple[str, str]]]:
    onto = load_data_dir()
    misread = {v for name in _allergen_words(onto) for v in one_edit_variants(name)}
    kept: list[str] = []
    refused: list[tuple[str, str]] = []
    seen: set[str] = set()
    for row in rows:
        key = lookup_key(row["word"])
        if key in seen:
            continue
        seen.add(key)
        if " " in key or len(key) < 3 or not key.replace("'", "").isalpha():
            why = "not one word"
        elif resolve_key(key, onto)[0]:
            why = "a name the ontology reads"
        elif _mentions(key, onto):
            why = "it mentions an allergen"
        elif _WARNING_WORDS.search(key) is not None:
            why = "a warning word"
        elif row.get("round") == "twelfth" and key in misread:  # "fetta" of feta: it may be that name misread
            why = "one edit from a name carrying an allergen"
        else:
            kept.append(key)
            continue
        refused.append((row["word"], why))
    return kept, refused


def write(kept: list[str]) -> None:
    body = "\n".join(" ".join(kept[i : i + 14]) for i in range(0, len(kept), 14))
    block = f'{BEGIN}\n# mask nothing: an instruction made of them is no unread text\ninstruction_words = """\n{body}\n"""\n{END}\n'
    replace_block(BEGIN, END, block)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    rows = [{**json.loads(line), "round": source.parent.name} for source in SOURCES
            for line in source.read_text("utf-8").splitlines() if line.strip()]  # fmt: skip
    rows += [{"word": w, "lang": "hand"} for w in HAND]
    kept, refused = plan(rows)
    for word, why in refused:
        print(f"left out {word!r}: {why}")
    print(f"kept {len(kept)} of {len(rows)} words")
    if args.write:
        write(kept)
    return 0


if __name__ == "__main__":
    sys.exit(main())
