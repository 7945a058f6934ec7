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

``nl.jsonl`` (Dutch, a name-only language: exact names, no rewrites) is read the same way, with two more rules: a
Dutch name must not be an everyday word of any label language, and a name the ontology already reads in another sense
that carries less (French "moût", Dutch "mout" = malt) is added anyway, so the key keeps both senses. A name of an
English-only US entry ("spices_en") goes to its EU entry ("spices").

**Entries** (``--entries FILE …``, third round): JSON lines ``{"en", "category", "names": {lang: [names]},
"allergens": {CODE: level}}``, one per ingredient, written the same way. An entry whose English name the ontology
already reads lends its names to that ingredient, under the rules above. Any other entry becomes a **new ingredient**
(``g_<category group>.jsonl``), and then:

* its allergens are the union of the writer's, those its category implies (a cheese is MILK, a fish FISH…), and, at
  POSSIBLE, those a blind reviewer (``--review FILE``: ``{"en", "allergens": [codes]}``, written by someone who saw
  only the names) lists; an entry the writer and the reviewer both call allergen-free is the only kind that can make
  a label SAFE, and an allergen-free entry nobody reviewed is skipped;
* a name is kept only when every allergen named by any word or group of up to three words of it (looked up exactly,
  overlapping) is among the entry's allergens, and when no other entry claims the same key (both are skipped); a
  non-English one-word name that is an everyday English word (``wordfreq`` Zipf ≥ 3: "ñame" folds to "name") and a
  name made only of nutrition-table words ("fibre") are skipped too.

An entry that says a known allergen-bearing ingredient lacks something, where the writer **and** the reviewer agree
on what (or the category says so), is a compound product filed under a narrower ingredient ("hazelnut spread" under
hazelnut paste): it becomes an ingredient of its own that *contains* the old one, adds the agreed allergens at the
writer's level, and takes the names it shares with the old one. A curated allergen-free ingredient is never
overridden. Entries of several files with the same English name are joined first. After writing, names of the new
entries are pruned against the merged ontology (:func:`prune`).

Fourth-round rules (``--note`` names the round in each new line): a name is also skipped when it is an everyday word
of another label language, when an everyday word reaches it by an inflection rewrite ("base" → "basa"), when it
holds an abbreviated word ("L. casei") or a compound claim ("alkoholfrei"); an entry whose English name holds a claim
word is skipped; an entry read only through a rewrite that lacks its allergens becomes a new ingredient ("murex" was
"mûre"), and a new entry takes over a name read by a rewrite that carries strictly less than the entry.

Usage: ``python scripts/merge_vocabulary.py DIR [--write]`` (without ``--write`` it only reports);
``python scripts/merge_vocabulary.py --entries FILE … --review FILE … [--write]``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from dinecheck.allergens.furniture import furniture
from dinecheck.allergens.normalize import normalize, resolve_key, word_hints
from dinecheck.allergens.ontology import ALLERGEN_CODES, LANGUAGES, load_data_dir
from dinecheck.allergens.text import lookup_key
from dinecheck.allergens.tokenize import tokenize

DATA = Path(__file__).resolve().parents[1] / "dinecheck" / "allergens" / "data" / "ingredients"
CLAIM_WORDS = {"free", "sans", "without", "ohne", "senza", "sin", "frei", "no", "not", "non", "kein", "keine"}
MAX_NAME_CHARS = 60
SEPARATORS = re.compile(r"[,;()\[\]:]")
ABBREVIATED = re.compile(r"(?<![^\W_])[A-Za-z]\.\s")  # "L. amylovorus": after other words the stop ends a sentence
SHORT_FOREIGN = 3
ENGLISH_ZIPF = 3.0
# languages read by name only (exact names, no rewrites): Belgian and Dutch labels print the list in Dutch too
NAME_ONLY_LANGUAGES = ("nl",)


def codes_of(ids: set[str], onto) -> set[str]:
    return {p.code for cid in ids for p in onto.allergen_paths(cid)}


def name_check(name: str, lang: str, onto, carries: bool | None = None) -> tuple[str | None, str]:
    """``(key, "")`` when ``name`` may be added as a label name in ``lang``, else ``(None, why)``. ``carries`` is
    given for a name-only language (Dutch): whether the ingredient it names carries allergens. Such a name must not
    be an everyday word of any label language, and it may be a nutrition-table word when it names an allergen-free
    ingredient ("zout": a row of salt stays maskable)."""
    key = lookup_key(name)
    if not key or len(name) > MAX_NAME_CHARS:
        return None, "skipped: empty or long"
    if CLAIM_WORDS & set(key.split()) or any(w.endswith(("frei", "free")) for w in key.split()):
        return None, "skipped: a claim word"  # "alkoholfrei": the tokenizer reads a claim there, not a name
    if SEPARATORS.search(name):
        return None, "skipped: a separator inside the name"
    if ABBREVIATED.search(name):
        return None, "skipped: an abbreviated word (L. casei: the full stop may end a sentence)"
    if set(key.split()) <= furniture().nutrition_words and carries is not False:
        return None, "skipped: only nutrition-table words (it would keep a nutrition row from being masked)"
    if lang != "en" and len(key) <= SHORT_FOREIGN:
        return None, "skipped: a short foreign name (it may fold to an English word: thé → the)"
    if lang != "en" and " " not in key and everyday_word(key, ("en",) if carries is None else LANGUAGES):
        return None, "skipped: a foreign name that is an everyday word of a label language (ñame → name)"
    if " " not in key and everyday_word(key, tuple(x for x in (*LANGUAGES, "nl") if x not in (lang, "en"))):
        return None, "skipped: a name that is an everyday word of another label language (conserve: se conserve)"
    if everyday_rewrites().get(key, key) not in (key, *onto.synonyms):
        return None, "skipped: an everyday word reads as the name by a rewrite (base → basa)"
    tokens = tokenize(name)
    if len(tokens) != 1 or tokens[0].role != "ingredient":
        return None, "skipped: not one ingredient token"
    read = normalize(tokens, onto)[0]
    if read.synonyms:
        return None, "known already" if read.rule == "exact" else "known already (by a rewrite)"
    return key, ""


def rewrite_codes(name: str, onto) -> set[str]:
    """The allergens of the ontology's reading of ``name`` (a rewrite: inflection, article, modifiers …)."""
    return codes_of({s.canonical_id for s in normalize(tokenize(name), onto)[0].synonyms}, onto)


@cache
def everyday_rewrites() -> dict[str, str]:
    """``{rewritten key: everyday word}`` for the 20,000 commonest words of each label language (``wordfreq``): an
    inflection rewrite of an everyday word ("base" → "basa", a fish) must not land on a new name."""
    from dinecheck.allergens.normalize import _inflected

    out: dict[str, str] = {}
    for lang in (*LANGUAGES, "nl"):
        for word in _wordfreq().top_n_list(lang, 20_000):
            key = lookup_key(word)
            if key and " " not in key:
                for variant in _inflected(key):
                    out.setdefault(variant, key)
    return out


def everyday_word(key: str, languages: tuple[str, ...] = ("en",), zipf: float = ENGLISH_ZIPF) -> bool:
    """An everyday word of one of ``languages`` (Zipf frequency ≥ ``zipf`` in the ``wordfreq`` lists, a general
    source)."""
    return any(_wordfreq().zipf_frequency(key, lang) >= zipf for lang in languages)


def _wordfreq() -> Any:
    """The ``wordfreq`` module: a maintainer tool's dependency, not the package's."""
    try:
        import wordfreq  # type: ignore[import-not-found]
    except ImportError:
        raise SystemExit("the merge tools need wordfreq: .venv/bin/pip install wordfreq") from None
    return wordfreq


def _eu(ingredient_id: str, onto) -> str:
    """The EU entry of an English-only US entry ("spices_en" → "spices": a US label need not name celery or mustard
    in spices, an EU one must), for names of another language; any other id as it is."""
    if ingredient_id.endswith("_en") and ingredient_id[:-3] in onto.ingredients:
        return ingredient_id[:-3]
    return ingredient_id


def _reads_as_less(name: str, en: str, listed: set[str], onto) -> bool:
    """Whether a name the ontology already reads, read that way, carries less than the ingredient ``en`` it names here
    (with the allergens the vocabulary lists) — a word shared by two languages in two senses."""
    tokens = tokenize(name)
    if len(tokens) != 1:
        return False
    res = normalize(tokens, onto)[0]
    meant = {_eu(s.canonical_id, onto) for s in resolve_key(lookup_key(en), onto)[0]}
    if not res.synonyms or meant & {s.canonical_id for s in res.synonyms}:
        return False
    return not (codes_of(meant, onto) | listed) <= codes_of({s.canonical_id for s in res.synonyms}, onto)


def gram_codes(key: str, onto, sure: bool = False) -> set[str]:
    """Every allergen named by a word or a group of up to three words of ``key`` (not the whole key; exact lookups,
    overlapping); ``sure``: only what they name for sure (DEFINITE/DERIVED)."""
    words = key.split(" ")
    out: set[str] = set()
    for size in range(1, 4):
        for i in range(len(words) - size + 1):
            gram = " ".join(words[i : i + size])
            if gram != key:
                for syn in resolve_key(gram, onto)[0]:
                    out |= {p.code for p in onto.allergen_paths(syn.canonical_id) if not sure or p.level.value != "POSSIBLE"}
    return out


def plan(src: Path) -> tuple[dict[str, dict[str, list[str]]], Counter, list[str]]:
    """``{canonical id: {lang: [names]}}`` to add, the counts per outcome, and the skipped conflicts."""
    onto = load_data_dir()
    adds: dict[str, dict[str, list[str]]] = {}
    stats: Counter = Counter()
    conflicts: list[str] = []
    seen: set[tuple[str, str]] = set()
    for path in sorted(src.glob("*.jsonl")):
        lang = path.stem
        if lang not in LANGUAGES and lang not in NAME_ONLY_LANGUAGES:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            name, en = str(entry["name"]).strip(), str(entry["en"]).strip()
            listed = set(entry.get("allergens") or ())
            if "WHEAT" in listed:
                listed.add("GLUTEN")
            meant = {_eu(s.canonical_id, onto) for s in resolve_key(lookup_key(en), onto)[0]}
            carries = bool(codes_of(meant, onto) | listed) if lang in NAME_ONLY_LANGUAGES else None
            key, why = name_check(name, lang, onto, carries)
            if key is None and why == "known already" and _reads_as_less(name, en, listed, onto):
                # a word of two languages ("mout": Dutch malt, French moût): the key keeps both senses
                key = lookup_key(name)
                stats["known already in another sense that carries less: added (the key keeps both)"] += 1
            if key is None or (lang, key) in seen:
                stats[why or "skipped: repeated"] += 1
                continue
            seen.add((lang, key))
            ids = meant
            if len(ids) != 1:
                stats["skipped: English name unknown or ambiguous"] += 1
                continue
            have = codes_of(ids, onto)
            if not listed <= have:
                stats["skipped: allergen conflict"] += 1
                conflicts.append(f"{lang}: {name!r} → {next(iter(ids))} has {sorted(have)}, vocabulary says "
                                 f"{sorted(listed)}")  # fmt: skip
                continue
            hinted = {
                p.code for _g, hs in word_hints(key, onto) for s in hs for p in onto.allergen_paths(s.canonical_id)
            }
            if not hinted <= have:
                stats["skipped: a word names another allergen"] += 1
                conflicts.append(f"{lang}: {name!r} → {next(iter(ids))}: its words name {sorted(hinted - have)}")
                continue
            adds.setdefault(next(iter(ids)), {}).setdefault(lang, []).append(name)
            stats["added"] += 1
    return adds, stats, conflicts


# the allergen a category means, whatever the writer listed
CATEGORY_ALLERGEN = {"fish": "FISH", "crustacean": "SHELLFISH", "mollusc": "MOLLUSCS", "cheese": "MILK",
                     "dairy": "MILK", "egg": "EGG", "tree_nut": "TREE_NUTS", "peanut": "PEANUT", "soy_product": "SOY"}  # fmt: skip
LEVELS = ("DEFINITE", "POSSIBLE")
E_NUMBER = re.compile(r"^e ?\d{3,4}[a-z]?( ?\(?[ivx]+\)?)?$")
# new-entry categories → data file (g_ = general vocabulary, second round)
GROUPS = {"fruit": "plants", "vegetable": "plants", "legume": "plants", "mushroom": "plants", "seaweed": "plants",
          "herb": "herbs_spices", "spice": "herbs_spices", "seasoning": "herbs_spices", "tea": "herbs_spices",
          "botanical": "herbs_spices", "flower": "herbs_spices", "flavouring": "herbs_spices"}  # fmt: skip
ADDITIVES = {"additive", "colour", "preservative", "antioxidant", "emulsifier", "thickener", "acid_regulator",
             "sweetener", "vitamin_mineral", "amino_acid", "enzyme", "culture"}  # fmt: skip
ALLERGENIC = set(CATEGORY_ALLERGEN) | {"bakery", "pasta"}


def group_of(category: str) -> str:
    """The ``g_<group>.jsonl`` file a new ingredient of ``category`` goes to."""
    if category in ALLERGENIC:
        return "allergenic"
    return GROUPS.get(category) or ("additives" if category in ADDITIVES else "staples")


def entry_levels(entry: dict, reviewed: dict[str, set[str]]) -> dict[str, str] | None:
    """The new ingredient's allergen levels (writer ∪ category ∪ reviewer), None when nobody reviewed a free entry."""
    raw = entry.get("allergens") or {}
    levels = {str(c): (str(v) if str(v) in LEVELS else "POSSIBLE") for c, v in
              (raw.items() if isinstance(raw, dict) else ((c, "POSSIBLE") for c in raw))}  # fmt: skip
    implied = CATEGORY_ALLERGEN.get(str(entry.get("category")))
    if implied:
        levels[implied] = "DEFINITE"
    review = reviewed.get(lookup_key(str(entry["en"])))
    for code in review or ():
        levels.setdefault(code, "POSSIBLE")
    if "WHEAT" in levels:
        levels.setdefault("GLUTEN", levels["WHEAT"])
    levels = {c: levels[c] for c in ALLERGEN_CODES if c in levels}  # code order: re-runs write the same bytes
    if not levels and review is None:
        return None
    return levels


def _agreed(entry: dict, reviewed: dict[str, set[str]]) -> set[str]:
    """The allergens both the writer and the blind reviewer list (WHEAT counting GLUTEN too), plus what the category
    means."""
    raw = entry.get("allergens") or {}
    writer = set(raw) if isinstance(raw, (dict, list)) else set()
    review = set(reviewed.get(lookup_key(str(entry["en"]))) or ())
    for side in (writer, review):
        if "WHEAT" in side:
            side.add("GLUTEN")
    implied = CATEGORY_ALLERGEN.get(str(entry.get("category")))
    return (writer & review) | ({implied} if implied else set())


def _merged_entries(files: list[Path]) -> list[dict]:
    """Entries of every file, one per English name: two writers' entries for the same ingredient are joined (names
    in order, the stronger level of each allergen), so neither one's allergens can be lost."""
    out: dict[str, dict] = {}
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            key = lookup_key(str(entry.get("en") or ""))
            have = out.get(key)
            if have is None:
                out[key] = entry
                continue
            for lang, names in (entry.get("names") or {}).items():
                have.setdefault("names", {}).setdefault(lang, []).extend(names)
            raw = entry.get("allergens") or {}
            mine = have.setdefault("allergens", {})
            for code, level in raw.items() if isinstance(raw, dict) else ((c, "POSSIBLE") for c in raw):
                if mine.get(code) != "DEFINITE":
                    mine[code] = level
    return list(out.values())


THIRD_ROUND_NOTE = "general vocabulary (issue 8, third round): helper-written, reviewed"


def plan_entries(
    files: list[Path], reviews: list[Path], note: str = THIRD_ROUND_NOTE
) -> tuple[list[tuple[str, dict]], dict, dict, Counter, list[str]]:
    """New ingredients ``[(group, entry line)]``, names for existing ingredients ``{id: {lang: [names]}}``, the keys
    of names that move from an ingredient to an entry split off it ``{id: {keys}}``, counts, and what was skipped
    for a reason worth reading."""
    onto = load_data_dir()
    reviewed: dict[str, set[str]] = {}
    for path in reviews:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                obj = json.loads(line)
                reviewed.setdefault(lookup_key(str(obj["en"])), set()).update(obj.get("allergens") or ())
    stats: Counter = Counter()
    notes: list[str] = []
    claims: dict[tuple[str, str], set[str]] = {}  # (lang, key) → targets claiming it
    planned: list[tuple[str, dict, dict[str, str], list[tuple[str, str, str]]]] = []
    used_ids = set(onto.ingredients)
    moves: dict[str, set[str]] = {}  # old ingredient → keys of names that leave it for a split entry
    for entry in _merged_entries(files):
        en = str(entry.get("en") or "").strip()
        ids = {s.canonical_id for s in resolve_key(lookup_key(en), onto)[0]} if en else set()
        if len(ids) > 1:
            stats["entry skipped: English name ambiguous"] += 1
            continue
        if CLAIM_WORDS & set(lookup_key(en).split()):  # "alcohol free beer": its id would be a name with a claim
            stats["entry skipped: a claim word in its English name"] += 1
            continue
        levels = entry_levels(entry, reviewed)
        if levels is None:
            stats["entry skipped: allergen-free but not reviewed"] += 1
            continue
        split: str | None = None
        if ids and resolve_key(lookup_key(en), onto)[2] != "exact" and not set(levels) <= codes_of(ids, onto):
            # read only through a rewrite that lacks what the entry carries ("murex", a sea snail, read as "mûre",
            # blackberry, by the -x rule): a new ingredient, whose exact names override the rewrite
            stats["entries read by a rewrite that lacks their allergens: new ingredients"] += 1
            notes.append(f"{en!r} is read as {sorted(ids)} by a rewrite; the entry says {sorted(levels)}")
            ids = set()
        if ids:
            target = next(iter(ids))
            have = codes_of(ids, onto)
            if not set(levels) <= have:
                if not have or resolve_key(lookup_key(en), onto)[2] != "exact":
                    stats["entry skipped: allergen conflict with an allergen-free or rewritten reading"] += 1
                    notes.append(f"{en!r} → {target} has {sorted(have)}, entry says {sorted(levels)}")
                    continue
                # a compound product filed under a narrower ingredient ("hazelnut spread" under hazelnut
                # paste): it becomes an ingredient of its own that contains the old one and adds what it lacks
                # overriding a curated entry takes both judges: only what the writer and the reviewer both list
                agreed = _agreed(entry, reviewed)
                extra = {c: v for c, v in levels.items() if c not in have and c in agreed}
                if not extra:
                    stats["entry skipped: the judges disagree on what the known ingredient lacks"] += 1
                    notes.append(f"{en!r} → {target} has {sorted(have)}; writer ∪ reviewer say {sorted(levels)}, "
                                 f"both say {sorted(agreed)}")  # fmt: skip
                    continue
                split, target = target, "g_" + re.sub(r"[^0-9a-z]+", "_", lookup_key(en)).strip("_")
                levels = extra
                if target in used_ids:
                    stats["entry skipped: id taken"] += 1
                    continue
                used_ids.add(target)
                allowed = have | set(levels)
                stats["entries split off a narrower ingredient"] += 1
                notes.append(f"split: {en!r} leaves {split} ({sorted(have)}), adds {sorted(levels)}")
            else:
                allowed = have
        else:
            target = "g_" + re.sub(r"[^0-9a-z]+", "_", lookup_key(en)).strip("_")
            if target in used_ids:
                stats["entry skipped: id taken"] += 1
                continue
            used_ids.add(target)
            allowed = set(levels)
        names: list[tuple[str, str, str]] = []
        for lang, texts in (entry.get("names") or {}).items():
            if lang not in LANGUAGES:
                continue
            for name in dict.fromkeys(str(t).strip() for t in texts):
                if lang == "en" and E_NUMBER.match(lookup_key(name)):
                    entry.setdefault("e_number", name.upper().replace(" ", ""))
                    continue
                key, why = name_check(name, lang, onto)
                if key is None and split is not None and split in {
                        s.canonical_id for s in resolve_key(lookup_key(name), onto)[0]}:  # fmt: skip
                    moves.setdefault(split, set()).add(lookup_key(name))  # it leaves the narrower ingredient
                    key = lookup_key(name)
                if (key is None and why == "known already (by a rewrite)" and target not in onto.ingredients
                        and rewrite_codes(name, onto) < set(levels)):  # fmt: skip
                    # the exact name overrides a rewrite that reads less than the entry carries, nothing more
                    key = lookup_key(name)
                    stats["names taken over from a rewrite that lacks the entry's allergens"] += 1
                if key is None:
                    stats[why] += 1
                    continue
                extra = gram_codes(key, onto) - allowed
                if extra:
                    stats["name skipped: a word names another allergen"] += 1
                    notes.append(f"{lang}: {name!r} ({en}): its words name {sorted(extra)}")
                    continue
                names.append((lang, name, key))
                claims.setdefault((lang, key), set()).add(target)
        planned.append((target, entry, levels, names, split))
    new: list[tuple[str, dict]] = []
    adds: dict[str, dict[str, list[str]]] = {}
    for target, entry, levels, names, split in planned:
        kept = [(lang, name) for lang, name, key in names if len(claims[(lang, key)]) == 1]
        stats["name skipped: claimed by two entries"] += len(names) - len(kept)
        if target in onto.ingredients:
            for lang, name in kept:
                adds.setdefault(target, {}).setdefault(lang, []).append(name)
            stats["names added to known ingredients"] += len(kept)
            continue
        if not kept and not entry.get("e_number"):
            stats["entry skipped: no name left"] += 1
            continue
        by_lang: dict[str, list[str]] = {}
        for lang, name in kept:
            by_lang.setdefault(lang, []).append(name)
        line = {"id": target, "category": str(entry.get("category") or "misc"), "allergens": levels,
                "names": by_lang, "note": note}  # fmt: skip
        if split is not None:
            line["contains"] = [split]
        if entry.get("e_number"):
            line["e_number"] = entry["e_number"]
        if not levels:
            del line["allergens"]
        new.append((group_of(line["category"]), line))
        stats["new ingredients" + (" (allergen-free)" if not levels else "")] += 1
        stats["names of new ingredients"] += len(kept)
    return new, adds, moves, stats, notes


def write(adds: dict[str, dict[str, list[str]]], moves: dict[str, set[str]] | None = None) -> int:
    """Append the names to the entries of the shipped data files, and drop the names that moved to a split entry;
    returns the number of names written."""
    written = 0
    moves = moves or {}
    for path in sorted(DATA.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        changed = False
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            obj = json.loads(line)
            new = adds.get(obj.get("id"))
            gone = moves.get(obj.get("id"))
            if not new and not gone:
                continue
            for field in ("names", "inflections"):
                for names in (obj.get(field) or {}).values():
                    names[:] = [n for n in names if not gone or lookup_key(n) not in gone]
            new = new or {}
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


def write_new(new: list[tuple[str, dict]]) -> int:
    """Append new ingredients to ``g_<group>.jsonl`` (a re-run finds their names known and adds nothing)."""
    for group in sorted({g for g, _ in new}):
        path = DATA / f"g_{group}.jsonl"
        lines = [json.dumps(line, ensure_ascii=False) for g, line in new if g == group]
        with path.open("a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    return len(new)


def prune() -> int:
    """After writing, against the merged ontology: drop every name of a ``g_`` entry that a word group of which
    surely (DEFINITE/DERIVED) names an allergen the entry lacks, or through which a nutrition-table word reads as an
    allergen-bearing ingredient (both can only arise between new names: "bolet bai" once "bao" is a bun); repeat until
    nothing changes. Returns the number of names dropped."""
    dropped = 0
    while True:
        onto = load_data_dir()
        bad: dict[str, set[str]] = {}  # id → lookup keys of names to drop
        for word in furniture().nutrition_words:
            syns, _key, _rule = resolve_key(word, onto)
            for syn in syns:
                if syn.canonical_id.startswith("g_") and onto.allergen_paths(syn.canonical_id):
                    bad.setdefault(syn.canonical_id, set()).add(syn.key)
        for path in sorted(DATA.glob("*.jsonl")):
            general = path.name.startswith("g_")
            for line in path.read_text(encoding="utf-8").splitlines():
                obj = json.loads(line)
                have = {p.code for p in onto.allergen_paths(obj["id"])}
                for lang, names in (obj.get("names") or {}).items():
                    if not general and lang not in NAME_ONLY_LANGUAGES:
                        continue  # curated names are not this tool's to prune
                    for name in names:
                        if gram_codes(lookup_key(name), onto, sure=True) - have:
                            bad.setdefault(obj["id"], set()).add(lookup_key(name))
        if not bad:
            return dropped
        for path in sorted(DATA.glob("*.jsonl")):
            general = path.name.startswith("g_")
            lines = []
            for line in path.read_text(encoding="utf-8").splitlines():
                obj = json.loads(line)
                gone = bad.get(obj["id"])
                if not gone:
                    lines.append(line)  # untouched lines stay byte for byte
                    continue
                for lang, names in list((obj.get("names") or {}).items()):
                    if not general and lang not in NAME_ONLY_LANGUAGES:
                        continue
                    kept = [n for n in names if lookup_key(n) not in gone]
                    dropped += len(names) - len(kept)
                    obj["names"][lang] = kept
                obj["names"] = {k: v for k, v in obj["names"].items() if v}
                if obj["names"] or obj.get("e_number") or not general:
                    lines.append(json.dumps(obj, ensure_ascii=False))
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path, nargs="?", help="folder of <lang>.jsonl vocabulary files")
    ap.add_argument("--entries", type=Path, nargs="*", default=[], help="JSON-lines files of ingredient entries")
    ap.add_argument("--review", type=Path, nargs="*", default=[], help="blind reviewers' allergen lists")
    ap.add_argument("--write", action="store_true", help="write the names into the shipped data files")
    ap.add_argument("--note", default=THIRD_ROUND_NOTE, help="the note of new ingredients (which round wrote them)")
    args = ap.parse_args(argv)
    if args.entries:
        new, adds, moves, stats, conflicts = plan_entries(args.entries, args.review, args.note)
    elif args.src is not None:
        adds, stats, conflicts = plan(args.src)
        new, moves = [], {}
    else:
        ap.error("give a vocabulary folder or --entries")
    for k, v in sorted(stats.items()):
        print(f"{k}: {v}")
    for c in conflicts:
        print("  " + c, file=sys.stderr)
    if args.write:
        print(f"written: {write(adds, moves)} names, {write_new(new)} new ingredients")
    if args.write:
        print(f"pruned against the merged ontology: {prune()} names")
    return 0


if __name__ == "__main__":
    sys.exit(main())
