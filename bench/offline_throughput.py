"""Throughput of the offline extractor against a naive baseline measured in the same run.

    .venv/bin/python bench/offline_throughput.py [--repeat 3]

For the G1a-v2 seed and the diet seed (tests/fixtures/extraction_sets/diet/seed.json) it labels all 2,500 reviews of
../shared/data/g1a_allergy and prints reviews/s (best of --repeat runs) for the extractor and for the baseline: a
bag-of-words labeller (a value fires when a word of its description occurs in the lower-cased text) — the cheapest
thing that reads every review. The ratio says how much the reading (sentences, lemmas, negation, voice) costs.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

from dinecheck.extract.base import FieldSpec, ReviewInput
from dinecheck.extract.offline import OfflineExtractor

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "g1a_allergy"
SEEDS = {"G1a-v2": DATA / "g1a_v2_seed.json", "diet": ROOT / "tests/fixtures/extraction_sets/diet/seed.json"}


def naive(fields: list[FieldSpec], reviews: list[ReviewInput]) -> list[dict[str, str]]:
    words = {
        f.name: [(v, set(re.findall(r"[a-z]{4,}", d.lower()))) for v, d in f.values.items() if not f.is_null(v)]
        for f in fields
    }
    out = []
    for r in reviews:
        toks = set(re.findall(r"[a-z]{4,}", r.text.lower()))
        out.append({f.name: next((v for v, ws in words[f.name] if ws & toks), f.null_value or "") for f in fields})
    return out


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with (DATA / "reviews.jsonl").open(encoding="utf-8") as fh:
        reviews = [ReviewInput(o["business_id"], o["review_id"], o["text"]) for o in map(json.loads, fh)]
    for name, path in SEEDS.items():
        fields = [FieldSpec(**f) for f in json.loads(path.read_text(encoding="utf-8"))["extract"]["fields"]]
        ex = OfflineExtractor()
        ex.extract(fields, reviews[:20])  # compile the rules and warm the lemma cache
        t_ex = best(lambda ex=ex, fields=fields: ex.extract(fields, reviews), args.repeat)
        t_nv = best(lambda fields=fields: naive(fields, reviews), args.repeat)
        n = len(reviews)
        print(
            f"{name}: offline {n / t_ex:,.0f} reviews/s · naive baseline {n / t_nv:,.0f} reviews/s · "
            f"offline takes {t_ex / t_nv:.1f}× the baseline's time"
        )


if __name__ == "__main__":
    main()
