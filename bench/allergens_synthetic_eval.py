"""SAFE share and false SAFE of the allergen checker on the synthetic label corpora (``bench/data/synthetic_labels``).

Usage (from the repository root)::

    .venv/bin/python bench/allergens_synthetic_eval.py [--off DIR] [FILE ...]   # default: every corpus of the folder

Per file and per Big-9 single-allergen profile: the share of labels whose writer did not list that allergen (the
writers count molluscs as SHELLFISH) that come out SAFE (text only, shipped ontology), and every SAFE verdict for an
allergen the writer listed. ``--off DIR`` imports the Open Food Facts taxonomy files of DIR first into a
throw-away store (as ``bench/allergens_eval.py --off`` does). Prints; asserts nothing (see the folder's README for what the corpora are and which were read).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dinecheck.allergens.pipeline import check_label

sys.path.insert(0, str(Path(__file__).resolve().parent))
from allergens_eval import _ontology  # noqa: E402  (a sibling script, not a package)

FOLDER = Path(__file__).resolve().parent / "data" / "synthetic_labels"
BIG9 = ("PEANUT", "MILK", "EGG", "GLUTEN", "SOY", "SESAME", "FISH", "SHELLFISH", "TREE_NUTS")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", type=Path, nargs="*", help="corpora (default: every corpus of the folder)")
    ap.add_argument("--off", type=Path, help="import the OFF taxonomy files of this folder first")
    args = ap.parse_args(argv)
    files = args.files or sorted(FOLDER.glob("*.jsonl"))
    onto = _ontology(args.off)
    for path in files:
        labels = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        shares, false_safe = [], []
        for code in BIG9:
            clean = [x for x in labels if code not in x["allergens"]]
            safe = sum(check_label(x["text"], [code], onto).verdict == "SAFE" for x in clean)
            shares.append(f"{code} {safe}/{len(clean)}={safe / len(clean):.2f}")
            false_safe += [(x["id"], code) for x in labels
                           if code in x["allergens"] and check_label(x["text"], [code], onto).verdict == "SAFE"]  # fmt: skip
        low = min(float(s.rsplit("=", 1)[1]) for s in shares)
        print(f"== {path.name}: {len(labels)} labels, lowest SAFE share {low:.2f}")
        print("  " + "  ".join(shares))
        print(f"  SAFE for an allergen the writer listed: {false_safe}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
