"""Merge authored modifier words into ``m_modifiers.jsonl`` (a data-authoring tool, not used at run time).

Input: a writer's JSON lines ``{"lang", "word", "kind", "means"}`` (``kind``: processing, quality or part) and a blind
reviewer's ``{"lang", "word", "ok", "why"}`` — the reviewer saw only the words (issue 8, fourth round;
``scripts/vocabulary/MODIFIER_BRIEF.md`` and ``MODIFIER_REVIEW_BRIEF.md``). Both wrote from general knowledge and saw
neither this project's labels nor its code.

A word is added to the modifier entry of its kind (``modifier_processing``, ``modifier_quality``, or
``modifier_part`` — cuts and parts, "cuisse de", "breast", which are never a note on their own) only when:

* the reviewer said ok (a word the reviewer did not see is skipped), and no reviewer rejected a word of the same
  meaning in another language (the writer's gloss, without its grammatical note: "soluble, instant" was rejected in
  Italian — "cacao solubile" is a drink powder with its own recipe — so French and Spanish "soluble" go too), nor
  is it one of :data:`SAME_DOUBT`, where the glosses differ but the doubt is the same;
* it holds no digit, no negation word and no word that changes what a food is (:data:`NEGATIONS`,
  :data:`NOT_MODIFIER_WORDS` of the ontology), and is not made only of function words;
* it is not already a modifier, and neither it nor any of its words is an ingredient name of the ontology (a food
  word is never stripped, whatever its allergens; the ontology also drops, on load, any modifier that names an
  allergen);
* a one-word non-English modifier is not an everyday English word (``wordfreq`` Zipf ≥ 3.5: modifiers apply to
  labels of every language).

Usage: ``python scripts/merge_modifiers.py WRITER.jsonl REVIEW.jsonl [--write]`` (without ``--write`` it reports).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

from dinecheck.allergens.furniture import furniture
from dinecheck.allergens.ontology import _NOT_MODIFIER_KEYS, NEGATIONS, load_data_dir
from dinecheck.allergens.text import lookup_key

sys.path.insert(0, str(Path(__file__).resolve().parent))
from merge_vocabulary import everyday_word  # noqa: E402  (a sibling script)

DATA = Path(__file__).resolve().parents[1] / "dinecheck" / "allergens" / "data" / "ingredients" / "m_modifiers.jsonl"
TARGET = {"processing": "modifier_processing", "quality": "modifier_quality", "part": "modifier_part"}
PART_NOTE = ("cuts and parts of an animal or plant, which are still that animal or plant ('cuisse de' canard, chicken "
             "'breast', 'os de' porc); never a note on their own")  # fmt: skip


# rejected in one language for a reason that holds for these words of another, whose glosses the writer worded
# differently: French "fruits secs" may be nuts (Italian "frutta secca" is), Spanish "cortezas de cerdo" a snack
EVERYDAY_ZIPF = 3.5  # modifiers apply to labels of every language: only common English words are kept out
SAME_DOUBT = frozenset({("it", "secchi"), ("it", "secche"), ("es", "corteza de")})


def _meaning(gloss: str) -> str:
    """The writer's English gloss without its grammatical note: "skimmed (fem. pl.)" → "skimmed"."""
    return re.sub(r"\s*\(.*?\)", "", gloss.lower()).strip()


def merge(writer: list[dict], review: list[dict]) -> tuple[dict[str, dict[str, list[str]]], Counter[str]]:
    """``{entry id: {lang: [new words]}}`` and the reasons words were skipped."""
    onto = load_data_dir()
    function_words = furniture().function_words
    ok = {(r["lang"], r["word"]) for r in review if r.get("ok") is True}
    rejected = {_meaning(x["means"]) for x in writer if (x["lang"], x["word"]) not in ok}
    seen = {r_key for r_key in onto.modifiers}
    added: dict[str, dict[str, list[str]]] = {}
    skipped: Counter[str] = Counter()
    for line in writer:
        lang, word, kind = line["lang"], line["word"].strip(), line["kind"]
        key = lookup_key(word)
        words = key.split(" ")
        reason = None
        if (lang, line["word"]) not in ok:
            reason = "reviewer"
        elif _meaning(line["means"]) in rejected or (lang, line["word"]) in SAME_DOUBT:
            reason = "a reviewer rejected this meaning in another language"
        elif not key or kind not in TARGET:
            reason = "malformed"
        elif any(ch.isdigit() for ch in key) or any(w in NEGATIONS or w in _NOT_MODIFIER_KEYS for w in words):
            reason = "negation, number or meaning-changing word"
        elif all(w in function_words for w in words):
            reason = "function words"
        elif key in seen:
            reason = "already a modifier (or repeated)"
        elif key in onto.synonyms or any(w in onto.synonyms for w in words):
            reason = "an ingredient name"
        elif lang != "en" and len(words) == 1 and everyday_word(key, ("en",), EVERYDAY_ZIPF):
            reason = "everyday English word"
        if reason:
            skipped[reason] += 1
            continue
        seen.add(key)
        added.setdefault(TARGET[kind], {}).setdefault(lang, []).append(word)
    return added, skipped


def write(added: dict[str, dict[str, list[str]]]) -> None:
    lines = [json.loads(x) for x in DATA.read_text(encoding="utf-8").splitlines() if x.strip()]
    by_id = {d["id"]: d for d in lines}
    if "modifier_part" not in by_id and "modifier_part" in added:
        by_id["modifier_part"] = {"id": "modifier_part", "category": "modifier", "names": {}, "note": PART_NOTE}
        lines.append(by_id["modifier_part"])
    for eid, per_lang in added.items():
        names = by_id[eid]["names"]
        for lang, words in per_lang.items():
            names.setdefault(lang, []).extend(words)
    DATA.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("writer", type=Path)
    ap.add_argument("review", type=Path)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    read = [json.loads(x) for x in args.writer.read_text(encoding="utf-8").splitlines() if x.strip()]
    review = [json.loads(x) for x in args.review.read_text(encoding="utf-8").splitlines() if x.strip()]
    added, skipped = merge(read, review)
    for eid, per_lang in sorted(added.items()):
        print(eid, {lang: len(ws) for lang, ws in sorted(per_lang.items())})
    print("skipped:", dict(skipped.most_common()))
    if args.write:
        write(added)
    return 0


if __name__ == "__main__":
    sys.exit(main())
