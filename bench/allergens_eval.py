"""Honest measurement of the allergen checker on the real labels of ``dev.jsonl``, per fixed half.

Usage (from the repository root)::

    .venv/bin/python bench/allergens_eval.py [--dev ../shared/data/allergen_labels/dev.jsonl]
        [--off ../shared/data/off_taxonomy] [--json] [--show-unmatched N]

The split is fixed BEFORE any tuning: a label whose ``sha1(id)`` ends in an even hex digit is in the **tuning** half,
odd is the **untouched** half (never looked at while changing data or rules). Per half it prints the four figures of
issue 8 (see ``docs/allergens_measurement.md``):

1. per Big-9 single-allergen profile, the share of labels *clean for that allergen* (the record lists neither the
   allergen nor a trace of it) that come out SAFE — text only (what a user pasting a label gets);
2. false SAFE: (label, listed allergen) pairs that are SAFE for that single-allergen profile — text only, and with the
   record's declared allergens/traces;
3. the mean token match rate of the English + French labels (pooled tokens and mean per label), text only;
4. recall of listed allergens (GLUTEN/WHEAT and SHELLFISH/MOLLUSCS count for each other), text only (source tag
   conflicts the text cannot support are reported apart) and with declarations.

Without ``--off`` the default store's ontology (the shipped data) is used; with ``--off DIR`` every Open Food Facts
taxonomy file in DIR is imported first into a throw-away SQLite store (what the README documents for users).
Nothing is asserted: the script prints; tests assert behaviour, never these figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from dinecheck.allergens.declared import declaration_from
from dinecheck.allergens.ontology import Ontology, load_data_dir
from dinecheck.allergens.pipeline import check_label

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEV = ROOT.parent / "shared" / "data" / "allergen_labels" / "dev.jsonl"
BIG9 = ("PEANUT", "MILK", "EGG", "GLUTEN", "SOY", "SESAME", "FISH", "SHELLFISH", "TREE_NUTS")
EQUIVALENT = {"GLUTEN": {"GLUTEN", "WHEAT"}, "WHEAT": {"GLUTEN", "WHEAT"}, "SHELLFISH": {"SHELLFISH", "MOLLUSCS"},
              "MOLLUSCS": {"SHELLFISH", "MOLLUSCS"}}  # fmt: skip
# a label listing the key is never SAFE for these profiles (a GLUTEN label may be barley: SAFE for WHEAT is right)
COUNTED_WITH = {"WHEAT": {"WHEAT", "GLUTEN"}, "SHELLFISH": {"SHELLFISH", "MOLLUSCS"}, "MOLLUSCS": {"MOLLUSCS", "SHELLFISH"}}
# (label id, code) pairs whose source tag the label text cannot support (the list and reasons are in
# tests/allergens/test_dev_labels.py TAG_CONFLICTS); reported apart in the text-only recall
TEXT_UNSUPPORTED = {
    ("offapi-040", "EGG"), ("offapi-060", "GLUTEN"), ("offapi-060", "TREE_NUTS"), ("offapi-106", "FISH"),
    ("offapi-142", "GLUTEN"), ("gs1-002", "GLUTEN"), ("gs1-023", "PEANUT"), ("gs1-023", "SOY"),
    ("offcsv-049", "TREE_NUTS"), ("offcsv-063", "MILK"), ("offcsv-063", "SOY"), ("offcsv-065", "SOY"),
    ("offcsv-082", "MOLLUSCS"),
}  # fmt: skip


def half_of(label_id: str) -> str:
    """The fixed split: ``tuning`` when the last hex digit of sha1(id) is even, else ``untouched``."""
    return "tuning" if int(hashlib.sha1(label_id.encode("utf-8")).hexdigest()[-1], 16) % 2 == 0 else "untouched"


def listed(label: dict) -> set[str]:
    return set(label["allergens"]) | (set(label["traces"]) if label["traces_known"] else set())


def mentioned(label: dict) -> set[str]:
    """Everything the record names (traces even when ``traces_known`` is false): "clean" means none of these."""
    return set(label["allergens"]) | set(label["traces"])


def measure(labels: list[dict], onto: Ontology, show_unmatched: int = 0) -> dict:
    safe_share: dict[str, list[int]] = {}
    for code in BIG9:
        clean = [x for x in labels if not (EQUIVALENT.get(code, {code}) & mentioned(x))]
        safe = sum(check_label(x["ingredients_text"], [code], onto).verdict == "SAFE" for x in clean)
        safe_share[code] = [safe, len(clean)]
    false_safe_text: list[tuple[str, str]] = []
    false_safe_decl: list[tuple[str, str]] = []
    unsupported_safe: list[tuple[str, str]] = []  # SAFE for a tag the text cannot support (text only)
    found_text = found_decl = total = unsupported = unsupported_found = 0
    missed: list[tuple[str, str]] = []
    for x in labels:
        decl = declaration_from(x, x["id"])
        codes = sorted(listed(x))
        if not codes:
            continue
        all_text = {f.code for f in check_label(x["ingredients_text"], codes, onto).findings}
        all_decl = {f.code for f in check_label(x["ingredients_text"], codes, onto, decl).findings}
        for code in codes:
            eq = EQUIVALENT.get(code, {code})
            for profile in sorted(COUNTED_WITH.get(code, {code})):  # its profile and those counted with it
                if check_label(x["ingredients_text"], [profile], onto).verdict == "SAFE":
                    (unsupported_safe if (x["id"], code) in TEXT_UNSUPPORTED else false_safe_text).append(
                        (x["id"], profile))  # fmt: skip
                if check_label(x["ingredients_text"], [profile], onto, decl).verdict == "SAFE":
                    false_safe_decl.append((x["id"], profile))
            total += 1
            found_decl += bool(eq & all_decl)
            if (x["id"], code) in TEXT_UNSUPPORTED:
                unsupported += 1
                unsupported_found += bool(eq & all_text)
            elif eq & all_text:
                found_text += 1
            else:
                missed.append((x["id"], code))
    processed = matched = 0
    per_label: list[float] = []
    unmatched: Counter[str] = Counter()
    for x in labels:
        if x["lang"] not in ("en", "fr"):
            continue
        r = check_label(x["ingredients_text"], BIG9, onto)
        processed += r.tokens_processed
        matched += r.tokens_matched
        if r.tokens_processed:
            per_label.append(r.match_rate)
        unmatched.update(u.casefold() for u in r.unmatched)
    return {
        "labels": len(labels),
        "safe_share": {c: {"safe": s, "clean": n, "share": round(s / n, 3) if n else None}
                       for c, (s, n) in safe_share.items()},  # fmt: skip
        "min_safe_share": min(s / n for s, n in safe_share.values() if n),
        "false_safe_text": false_safe_text,
        "false_safe_declared": false_safe_decl,
        "safe_for_text_unsupported_tag": unsupported_safe,
        "match_rate_pooled": round(matched / processed, 3) if processed else None,
        "match_rate_mean": round(sum(per_label) / len(per_label), 3) if per_label else None,
        "tokens": [matched, processed],
        "recall_text": [found_text, total - unsupported],
        "recall_text_missed": missed,
        "text_unsupported_tags": [unsupported_found, unsupported],
        "recall_declared": [found_decl, total],
        "top_unmatched": unmatched.most_common(show_unmatched) if show_unmatched else [],
    }


def _ontology(off_dir: Path | None) -> Ontology:
    if off_dir is None:
        return load_data_dir()
    from dinecheck.allergens.store import open_store

    tmp = tempfile.mkdtemp(prefix="dinecheck-eval-")
    store = open_store(f"sqlite:///{tmp}/eval.sqlite")
    from dinecheck.allergens import off_import

    started = time.perf_counter()
    from dinecheck.allergens import off_vocabulary

    for name in ("allergens.txt", "ingredients_processing.txt", "ingredients.txt"):
        path = off_dir / name
        if path.is_file():
            tax = off_import.read_taxonomy_file(path)
            kind = off_vocabulary.detect_kind(tax)
            if kind == "allergens":
                off_import.import_taxonomy(store, tax)
            elif kind is not None:
                off_vocabulary.import_vocabulary(store, tax, kind)
    print(f"OFF import of {off_dir}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return store.ontology()


def _print(name: str, m: dict) -> None:
    print(f"== {name} half: {m['labels']} labels")
    shares = "  ".join(f"{c} {v['safe']}/{v['clean']}={v['share']:.2f}" for c, v in m["safe_share"].items())
    print(f"  SAFE share of clean labels (text only): {shares}")
    print(f"  lowest SAFE share: {m['min_safe_share']:.3f}")
    print(f"  false SAFE: text only {len(m['false_safe_text'])} {m['false_safe_text']} (+ SAFE for a tag the text "
          f"cannot support: {len(m['safe_for_text_unsupported_tag'])}); with declarations "
          f"{len(m['false_safe_declared'])} {m['false_safe_declared']}")  # fmt: skip
    print(f"  token match rate en+fr: pooled {m['tokens'][0]}/{m['tokens'][1]} = {m['match_rate_pooled']}, "
          f"mean per label {m['match_rate_mean']}")  # fmt: skip
    print(f"  recall text only: {m['recall_text'][0]}/{m['recall_text'][1]} missed {m['recall_text_missed']} "
          f"(tags the text cannot support: {m['text_unsupported_tags'][0]}/{m['text_unsupported_tags'][1]} found); "
          f"with declarations {m['recall_declared'][0]}/{m['recall_declared'][1]}")  # fmt: skip
    if m["top_unmatched"]:
        print("  most frequent unmatched: " + ", ".join(f"{t!r}×{n}" for t, n in m["top_unmatched"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dev", type=Path, default=DEFAULT_DEV)
    ap.add_argument("--off", type=Path, default=None, help="import the OFF taxonomy files of this folder first")
    ap.add_argument("--half", choices=("tuning", "untouched", "both"), default="both")
    ap.add_argument("--show-unmatched", type=int, default=0, help="(tuning half only) list the N commonest unknowns")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    labels = [json.loads(line) for line in args.dev.read_text(encoding="utf-8").splitlines() if line.strip()]
    onto = _ontology(args.off)
    out = {}
    for half in ("tuning", "untouched"):
        if args.half in (half, "both"):
            part = [x for x in labels if half_of(x["id"]) == half]
            out[half] = measure(part, onto, args.show_unmatched if half == "tuning" else 0)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        for half, m in out.items():
            _print(half, m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
