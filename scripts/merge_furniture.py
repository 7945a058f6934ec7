"""Merge helper-written label-furniture leads into ``label_furniture.toml`` (issue 8, fifth round).

Input: JSON lines ``{"phrase", "lang", "kind": "statement" | "sentence", "group"}`` written from general knowledge of
packs (``scripts/vocabulary/furniture/``). A lead is kept only when, in lookup-key form:

* it has 2 to 8 words, and opens neither an ingredient list nor a name ("with …", "ingredients …", "organic …", "made
  with …", "hergestellt aus …") and holds no word after which components may follow ("contains", "enthält");
* no word and no run of words of it is a name the ontology reads (exactly or by a controlled rewrite): furniture never
  names a food;
* no synonym of the ontology begins with it (so it can never be the start of an ingredient name);
* it is no short lead opening or ending with a processing or quality word ("carefully selected …": it may dress the
  food that follows);
* it holds no word of allergen warnings and claims ("may", "contain", "trace", "allergen", "free", "suitable",
  "facility", …): those belong to the risk phrases and claims, which read what they name;
* it is not in the hand-written lists already.

The kept leads replace the ``statements_general`` and ``sentences_general`` arrays at the end of the TOML file (the
hand-written arrays above them are never touched), so a rerun is idempotent.

Usage: ``python scripts/merge_furniture.py scripts/vocabulary/furniture/furniture.jsonl
[scripts/vocabulary/furniture/furniture_seventh.jsonl] [--write]`` (every source each time: the general arrays are
rewritten from them)
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

from dinecheck.allergens.normalize import resolve_key
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.text import lookup_key

TOML = Path(__file__).resolve().parents[1] / "dinecheck" / "allergens" / "data" / "label_furniture.toml"
MARK = "# helper-written leads (issue 8, fifth round), filtered and merged by scripts/merge_furniture.py"
# first words that open an ingredient list or a name ("with …", "organic …"), and the lead pairs that introduce what
# a food is made of ("made with", "hergestellt aus", "elaborado con")
OPENERS = frozenset(lookup_key(w) for w in """
with of and or in from de du des d et ou au aux avec mit und oder aus con y o e di del della ingredients ingredient
ingredienti ingredientes zutaten contains contient enthalt contiene natural organic pure fresh flavoured flavored
""".split())  # fmt: skip
MAKERS = frozenset(lookup_key(w) for w in """
made prepared produced hergestellt zubereitet elaborado hecho preparado fatto preparato prodotto fabrique fait faits
prepare produit
""".split())  # fmt: skip
MADE_OF = frozenset(lookup_key(w) for w in "with from using aus mit con avec a de di da".split())
# words after which a list of components may follow ("This pack contains: …")
CONTENT_WORDS = frozenset(lookup_key(w) for w in """
contains contain containing contient contiennent contenant enthalt enthalten enthaltend contiene contienen contener
contenere contengono
""".split())  # fmt: skip
RISK_WORDS = frozenset(lookup_key(w) for w in """
may might can could contain contains containing trace traces allergen allergens allergy allergic allergie allergies
free suitable unsuitable facility factory handles handled processes processed equipment peut contenir contient
traces allergene allergenes sans convient kann spuren enthalten allergene frei geeignet puede contener trazas
alergenos sin apto puo contenere tracce allergeni senza adatto guarantee garantir garantieren garantizar garantire
""".split())  # fmt: skip


def _describes_a_food(words: list[str], modifiers: dict[str, str]) -> bool:
    """A short lead that opens or ends with a processing or quality word ("carefully selected …", "envasado al vacío",
    "traditionell hergestellt"): it may dress the name of the food that follows, which masking would hide."""
    kinds = ("modifier_processing", "modifier_quality")
    return (modifiers.get(" ".join(words)) in kinds
            or (len(words) <= 3 and (modifiers.get(words[0]) in kinds or modifiers.get(words[-1]) in kinds)))


def _known(words: list[str], ontology, synonyms_starting: set[str]) -> str | None:
    """Why a lead is refused (None when it is kept)."""
    n = len(words)
    for i in range(n):
        for j in range(i + 1, n + 1):
            gram = " ".join(words[i:j])
            if resolve_key(gram, ontology)[0]:
                return f"names {gram!r}"
    if " ".join(words) in synonyms_starting:
        return "begins a name"
    return None


def plan(rows: list[dict], ontology) -> tuple[dict[str, list[str]], list[tuple[str, str]]]:
    """The kept leads per kind (in input order, deduplicated) and the refused ones with the reason."""
    raw = tomllib.loads(TOML.read_text(encoding="utf-8"))
    have = {lookup_key(x) for name in ("statements", "sentences", "instructions", "notes") for x in raw[name]}
    starts: set[str] = set()
    for key in ontology.synonyms:
        parts = key.split(" ")
        for k in range(1, len(parts)):
            starts.add(" ".join(parts[:k]))
    kept: dict[str, list[str]] = {"statement": [], "sentence": []}  # as written (lower case)
    seen: set[str] = set()  # their lookup keys
    refused: list[tuple[str, str]] = []
    for row in rows:
        phrase, kind = row["phrase"], row["kind"]
        key = lookup_key(phrase)
        words = key.split(" ")
        why = None
        if kind not in kept:
            why = f"kind {kind!r}"
        elif not 2 <= len(words) <= 8:
            why = "length"
        elif words[0] in OPENERS or (words[0] in MAKERS and words[1] in MADE_OF):
            why = "opening words"
        elif CONTENT_WORDS.intersection(words):
            why = "a list may follow"
        elif RISK_WORDS.intersection(words):
            why = "warning or claim word"
        elif key in have or key in seen:
            why = "known already"
        elif _describes_a_food(words, ontology.modifiers):
            why = "describes a food that may follow"
        else:
            why = _known(words, ontology, starts)
        if why:
            refused.append((phrase, why))
        else:
            seen.add(key)
            kept[kind].append(phrase.lower())
    return kept, refused


def write(kept: dict[str, list[str]]) -> None:
    text = TOML.read_text(encoding="utf-8")
    if MARK in text:
        text = text[: text.index(MARK)].rstrip("\n") + "\n"

    def array(name: str, items: list[str]) -> str:
        body = "".join(f"  {json.dumps(i, ensure_ascii=False)},\n" for i in items)
        return f"{name} = [\n{body}]\n"

    text += f"\n{MARK}\n" + array("statements_general", kept["statement"]) + array("sentences_general",
                                                                                  kept["sentence"])
    tomllib.loads(text)  # still valid TOML
    TOML.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path, nargs="+", help="one or more JSON-lines files, merged in this order")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for source in args.source
            for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]  # fmt: skip
    kept, refused = plan(rows, load_data_dir())
    for phrase, why in refused:
        print(f"refused {phrase!r}: {why}")
    print(f"kept {len(kept['statement'])} statement and {len(kept['sentence'])} sentence leads of {len(rows)}")
    if args.write:
        write(kept)
    return 0


if __name__ == "__main__":
    sys.exit(main())
