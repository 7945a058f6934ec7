"""Merge an authored label vocabulary into the shipped ingredient data (a data-authoring tool, not used at run time).

Input: JSON-lines files, one per language (``<lang>.jsonl``), each line ``{"name", "en", "allergens"}``: how an
ingredient is printed on labels in that language, its plain English name, and the allergens the author says it
always or possibly carries. They were written from general knowledge (a bilingual food-technology dictionary), by
authors who saw neither this project's data nor any measured label (issue 8; docs/allergens_measurement.md).

A name is added only as a **synonym of an ingredient the ontology already has**, so its allergens come from the
curated entry, never from the vocabulary:

* the name is unknown to the ontology as it stands (exact key, controlled rewrites, modifiers) and reads as one
  token (no list, no claim word); a non-English name of at most three letters is skipped (folded, "thé" is "the");
* its English name resolves (exact key or controlled rewrite) to exactly one canonical ingredient;
* that ingredient carries every allergen the vocabulary lists (WHEAT counts GLUTEN too) — a conflict is skipped and
  reported, never resolved in favour of fewer allergens;
* no word of the name names an allergen the ingredient lacks ("butter" inside a name mapped to an allergen-free
  entry is skipped).

Usage: ``python scripts/merge_vocabulary.py DIR [--write]`` (without ``--write`` it only reports).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from dinecheck.allergens.normalize import normalize, resolve_key, word_hints
from dinecheck.allergens.ontology import LANGUAGES, load_data_dir
from dinecheck.allergens.text import lookup_key
from dinecheck.allergens.tokenize import tokenize

DATA = Path(__file__).resolve().parents[1] / "dinecheck" / "allergens" / "data" / "ingredients"
CLAIM_WORDS = {"free", "sans", "without", "ohne", "senza", "sin", "frei", "no", "not", "non", "kein", "keine"}
MAX_NAME_CHARS = 60
SHORT_FOREIGN = 3


def codes_of(ids: set[str], onto) -> set[str]:
    return {p.code for cid in ids for p in onto.allergen_paths(cid)}


def plan(src: Path) -> tuple[dict[str, dict[str, list[str]]], Counter, list[str]]:
    """``{canonical id: {lang: [names]}}`` to add, the counts per outcome, and the skipped conflicts."""
    onto = load_data_dir()
    adds: dict[str, dict[str, list[str]]] = {}
    stats: Counter = Counter()
    conflicts: list[str] = []
    seen: set[tuple[str, str]] = set()
    for path in sorted(src.glob("*.jsonl")):
        lang = path.stem
        if lang not in LANGUAGES:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            name, en = str(entry["name"]).strip(), str(entry["en"]).strip()
            listed = set(entry.get("allergens") or ())
            if "WHEAT" in listed:
                listed.add("GLUTEN")
            key = lookup_key(name)
            if not key or len(name) > MAX_NAME_CHARS or (lang, key) in seen:
                stats["skipped: empty, long or repeated"] += 1
                continue
            seen.add((lang, key))
            if CLAIM_WORDS & set(key.split()):
                stats["skipped: a claim word"] += 1
                continue
            if lang != "en" and len(key) <= SHORT_FOREIGN:
                stats["skipped: a short foreign name (it may fold to an English word: thé → the)"] += 1
                continue
            tokens = tokenize(name)
            if len(tokens) != 1 or tokens[0].role != "ingredient":
                stats["skipped: not one ingredient token"] += 1
                continue
            if normalize(tokens, onto)[0].synonyms:
                stats["known already"] += 1
                continue
            syns = resolve_key(lookup_key(en), onto)[0]
            ids = {s.canonical_id for s in syns}
            if len(ids) != 1:
                stats["skipped: English name unknown or ambiguous"] += 1
                continue
            have = codes_of(ids, onto)
            if not listed <= have:
                stats["skipped: allergen conflict"] += 1
                conflicts.append(f"{lang}: {name!r} → {next(iter(ids))} has {sorted(have)}, vocabulary says "
                                 f"{sorted(listed)}")  # fmt: skip
                continue
            hinted = {p.code for _g, hs in word_hints(key, onto) for s in hs for p in onto.allergen_paths(s.canonical_id)}
            if not hinted <= have:
                stats["skipped: a word names another allergen"] += 1
                conflicts.append(f"{lang}: {name!r} → {next(iter(ids))}: its words name {sorted(hinted - have)}")
                continue
            adds.setdefault(next(iter(ids)), {}).setdefault(lang, []).append(name)
            stats["added"] += 1
    return adds, stats, conflicts


def write(adds: dict[str, dict[str, list[str]]]) -> int:
    """Append the names to the entries of the shipped data files; returns the number of names written."""
    written = 0
    for path in sorted(DATA.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        changed = False
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            obj = json.loads(line)
            new = adds.get(obj.get("id"))
            if not new:
                continue
            for lang, names in new.items():
                have = obj.setdefault("names", {}).setdefault(lang, [])
                for n in names:
                    if n not in have:
                        have.append(n)
                        written += 1
            lines[i] = json.dumps(obj, ensure_ascii=False)
            changed = True
        if changed:
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path, help="folder of <lang>.jsonl vocabulary files")
    ap.add_argument("--write", action="store_true", help="write the names into the shipped data files")
    args = ap.parse_args(argv)
    adds, stats, conflicts = plan(args.src)
    for k, v in sorted(stats.items()):
        print(f"{k}: {v}")
    for c in conflicts:
        print("  " + c, file=sys.stderr)
    if args.write:
        print(f"written: {write(adds)} names")
    return 0


if __name__ == "__main__":
    sys.exit(main())
