"""Write the dictionary words of the five label languages that lie two edits from a name carrying an allergen,
``dinecheck/allergens/data/dictionary_words.txt`` (issue 8, twelfth round; a data-authoring tool, not used at run
time).

After a statement ("Una vez abierto, consérvese en frigorífico en recipiente no metálico") a mask stops before a word
nothing reads that is one edit — two from seven letters — from a one-word name carrying an allergen: such a word may
be that name misspelt ("Keep refrigerated eggz."), and a mask must not hide it (:func:`dinecheck.allergens.normalize.
unread_near_allergen`). Two edits from a long name reach many ordinary words of the languages the ontology reads
only as food names ("metálico" is two edits from "italico", a cheese). A word the dictionary of its language spells
that way is no misspelling of another two edits away: it is read as itself.

Source (general, no label): the Debian word lists ``wamerican``, ``wbritish``, ``wfrench``, ``wngerman``,
``wspanish``, ``witalian`` (``/usr/share/dict/…``).

A word is written when, folded as the ontology folds keys (:func:`dinecheck.allergens.text.lookup_key`):

* it is alphabetic and seven letters or more (shorter words are asked at one edit only);
* the shipped ontology reads no name from it;
* it is exactly two edits from a one-word name carrying an allergen and **not** one edit from any: a word one edit
  from such a name may be that name misread although it is a word ("diary" of dairy, "whet" of wheat), so it stays
  suspect, as in ``common_words_en.txt``;
* it does not begin with the first five letters of a name it is near: a word built on a name ("mandorlato" on
  mandorla, "almendrado" on almendra) may be a food made of it.

Usage: ``python scripts/vocabulary/dictionary_words.py [--words FILE …] [--write]`` (without ``--write`` it reports).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import OSA

from dinecheck.allergens.normalize import _allergen_words, resolve_key
from dinecheck.allergens.ontology import Ontology, load_data_dir
from dinecheck.allergens.text import lookup_key

OUT = Path(__file__).resolve().parents[2] / "dinecheck" / "allergens" / "data" / "dictionary_words.txt"
LISTS = ("american-english", "british-english", "french", "ngerman", "spanish", "italian")
MIN_CHARS = 7  # the length from which the run-time test asks two edits
PREFIX = 5  # a word sharing this many first letters with a name it is near is built on it


def near_words(words: list[str], onto: Ontology) -> list[str]:
    names = _allergen_words(onto)
    by_length: dict[int, list[str]] = {}
    for name in names:
        by_length.setdefault(len(name), []).append(name)
    out = []
    for word in words:
        pool = [n for k in range(len(word) - 2, len(word) + 3) for n in by_length.get(k, ())]
        if not pool:
            continue
        near = [n for n, _d, _i in process.extract(word, pool, scorer=OSA.distance, score_cutoff=2, limit=None)]
        if not near or any(OSA.distance(word, n) < 2 for n in near):
            continue
        if any(word[:PREFIX] == n[:PREFIX] for n in near) or resolve_key(word, onto)[0]:
            continue
        out.append(word)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=Path, action="append", help="a word list (default: the Debian lists)")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    files = args.words or [Path("/usr/share/dict") / name for name in LISTS]
    words = sorted({key for f in files for line in f.read_text("utf-8").splitlines()
                    if (key := lookup_key(line.strip())).isalpha() and len(key) >= MIN_CHARS})  # fmt: skip
    kept = near_words(words, load_data_dir())
    print(f"{len(words)} dictionary words of {MIN_CHARS} letters or more; {len(kept)} two edits from a name carrying an"
          " allergen", file=sys.stderr)
    if args.write:
        OUT.write_text("# written by scripts/vocabulary/dictionary_words.py (its docstring says which words and why)\n"
                       + "".join(f"{w}\n" for w in kept), "utf-8")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
