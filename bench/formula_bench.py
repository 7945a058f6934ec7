"""Benchmark of the Formula Seed engine on the G1a data (../shared/data/g1a_allergy).

1. Compute stage of G1a-v2 over the 100 restaurants' replayed extractions (filter + extraction done once beforehand):
   restaurant evaluations per second with the seed compiled once, against a naive version that re-parses every
   expression and rebuilds every step for each restaurant. Target: >= 10,000 evaluations/s.
2. Keyword filter over every review text: MB/s of review text (UTF-8 bytes) with the one-pass Aho–Corasick filter,
   against a naive per-keyword ``in`` scan of the lower-cased text. Target: >= 20 MB/s.

Usage: .venv/bin/python bench/formula_bench.py [--data ../shared/data/g1a_allergy] [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from dinecheck.dataset import load_dataset
from dinecheck.extract.replay import ReplayExtractor
from dinecheck.formula import CompiledSeed, ReviewRecord, build_seed, load_seed
from dinecheck.formula.filter import KeywordFilter


def _rate(fn: Callable[[], int], seconds: float) -> float:
    """Units per second of ``fn`` (which returns how many units it processed), best of 3 runs of ~seconds/3."""
    best = 0.0
    for _ in range(3):
        units, start = 0, time.perf_counter()
        while True:
            units += fn()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        best = max(best, units / elapsed)
    return best


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "g1a_allergy"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=default)
    ap.add_argument("--seconds", type=float, default=1.5)
    args = ap.parse_args()

    ds, _ = load_dataset(args.data)
    seed = load_seed(args.data / "g1a_v2_seed.json")
    compiled = build_seed(seed)
    replay = ReplayExtractor(args.data / "recorded_extractions.jsonl")

    # Prepare the compute-stage inputs once: filtered reviews with their replayed labels.
    prepared = []
    for rest in ds.restaurants:
        revs = compiled.filter_reviews(ds.reviews_of(rest.business_id))
        records = [
            ReviewRecord(rv.review_id, {**rv.raw, "year": rv.year}, dict(replay.records[rv.review_id])) for rv in revs
        ]
        prepared.append((rest, records))

    def compiled_once() -> int:
        for rest, records in prepared:
            compiled.evaluate(rest.business_id, rest.name, rest.raw, records, len(records))
        return len(prepared)

    def reparse_each() -> int:
        for rest, records in prepared:
            CompiledSeed(seed).evaluate(rest.business_id, rest.name, rest.raw, records, len(records))
        return len(prepared)

    for rest, records in prepared:  # both versions compute the same outputs
        a = compiled.evaluate(rest.business_id, rest.name, rest.raw, records, len(records)).outputs
        b = CompiledSeed(seed).evaluate(rest.business_id, rest.name, rest.raw, records, len(records)).outputs
        assert a == b, rest.business_id

    fast = _rate(compiled_once, args.seconds)
    naive = _rate(reparse_each, args.seconds)
    print(f"compute stage (G1a-v2, {len(prepared)} restaurants, {sum(len(r) for _, r in prepared)} extracted reviews)")
    print(f"  compiled once        : {fast:12,.0f} restaurant-evaluations/s   (target >= 10,000)")
    print(f"  naive (re-parse each): {naive:12,.0f} restaurant-evaluations/s")
    print(f"  ratio                : {fast / naive:12.1f}x")

    texts = [rv.text for rest in ds.restaurants for rv in ds.reviews_of(rest.business_id)]
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    kf = KeywordFilter(seed.filter.keywords)
    keywords = [k.lower() for k in seed.filter.keywords]

    def ac_scan() -> int:
        match = kf.matches
        hits = sum(1 for t in texts if match(t))
        assert hits >= 0
        return n_bytes

    def naive_scan() -> int:
        hits = 0
        for t in texts:
            low = t.lower()
            for kw in keywords:
                if kw in low:
                    hits += 1
                    break
        return n_bytes

    assert [kf.matches(t) for t in texts] == [any(k in t.lower() for k in keywords) for t in texts]
    fast_mb = _rate(ac_scan, args.seconds) / 1e6
    naive_mb = _rate(naive_scan, args.seconds) / 1e6
    print(f"keyword filter ({len(texts)} reviews, {n_bytes / 1e6:.2f} MB, {len(keywords)} keywords)")
    print(f"  dinecheck filter     : {fast_mb:10.1f} MB/s   (target >= 20)")
    print(f"  naive per-keyword in : {naive_mb:10.1f} MB/s")
    print(f"  ratio                : {fast_mb / naive_mb:10.2f}x")

    many = keywords + [f"{w}{i}" for i in range(40) for w in ("allergen", "reaction", "hives")]
    kf_many = KeywordFilter(many)

    def ac_many() -> int:
        sum(1 for t in texts if kf_many.matches(t))
        return n_bytes

    def naive_many() -> int:
        for t in texts:
            low = t.lower()
            any(kw in low for kw in many)
        return n_bytes

    a, b = _rate(ac_many, args.seconds) / 1e6, _rate(naive_many, args.seconds) / 1e6
    print(f"keyword filter with {len(many)} keywords (one Aho-Corasick pass): dinecheck {a:.1f} MB/s, naive {b:.1f} MB/s, ratio {a / b:.2f}x")


if __name__ == "__main__":
    main()
