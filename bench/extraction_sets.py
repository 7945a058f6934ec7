"""Run an extractor over a labelled set and score one half of it (see docs/extraction_measurement.md).

    .venv/bin/python bench/extraction_sets.py g1a_v2_blind --half untouched [--extractor offline] [--json]
    .venv/bin/python bench/extraction_sets.py diet --half tuning --errors     # mismatches: tuning half only
    .venv/bin/python bench/extraction_sets.py recorded --half untouched

A set is `tests/fixtures/extraction_sets/<name>/` (seed.json + labels.jsonl); `recorded` is
`g1a_allergy/recorded_extractions.jsonl` with the G1a-v2 seed. Reviews come from `../shared/data/g1a_allergy`.
`--extractor` takes any extractor spec (`offline`, `replay:FILE`, …); `--write FILE` saves the label lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dinecheck.extract.base import FieldSpec, ReviewInput
from dinecheck.extract.factory import make_extractor
from dinecheck.extract.score import LabelFile, read_labels, report_json, report_text, score_labels, split_half

ROOT = Path(__file__).resolve().parents[1]
SETS = ROOT / "tests" / "fixtures" / "extraction_sets"
DATA = ROOT.parent / "shared" / "data" / "g1a_allergy"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set")
    ap.add_argument("--half", choices=["tuning", "untouched", "all"], required=True)
    ap.add_argument("--extractor", default="offline")
    ap.add_argument("--errors", action="store_true", help="print the reviews where a field differs (tuning only)")
    ap.add_argument("--write", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.errors and args.half != "tuning":
        ap.error("--errors is for the tuning half only")
    if args.set == "recorded":
        seed_path, ref_path = DATA / "g1a_v2_seed.json", DATA / "recorded_extractions.jsonl"
    else:
        seed_path, ref_path = SETS / args.set / "seed.json", SETS / args.set / "labels.jsonl"
    seed = json.loads(seed_path.read_text(encoding="utf-8"))
    fields = [FieldSpec(**f) for f in seed["extract"]["fields"]]
    reference = read_labels(ref_path)
    wanted = {r for r in reference.labels if args.half == "all" or split_half(r) == args.half}
    reviews: list[ReviewInput] = []
    with (DATA / "reviews.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            o = json.loads(line)
            if o["review_id"] in wanted:
                reviews.append(ReviewInput(o["business_id"], o["review_id"], o["text"], {}))
    ex = make_extractor(args.extractor)
    results = ex.extract(fields, reviews)
    ex.close()
    labels = LabelFile({r.review_id: dict(r.values) for r in results if r.ok}, frozenset(r.review_id for r in results if not r.ok))
    if args.write:
        with args.write.open("w", encoding="utf-8") as fh:
            for r in results:
                fh.write(json.dumps({"review_id": r.review_id, "status": r.status, "extraction": r.values}) + "\n")
    nulls = {f.name: frozenset({f.null_value}) for f in fields if f.null_value}
    report = score_labels(labels, reference, nulls, wanted)
    print(json.dumps(report_json(report)) if args.json else report_text(report))
    if args.errors:
        texts = {r.review_id: r.text for r in reviews}
        for res in results:
            ref = reference.labels.get(res.review_id, {})
            diff = {k: (ref.get(k), v) for k, v in res.values.items() if ref.get(k) != v}
            if diff:
                print(f"\n{res.review_id} (reference → extractor): {diff}")
                for k, e in res.evidence.items():
                    print(f"   {k} [{e.cue}] quote: {e.quote[:200]!r}")
                print("   " + texts[res.review_id][:1200].replace("\n", " "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
