"""Benchmark of the LLM extractor against the fake OpenAI-compatible server with a fixed latency per call.

Extracts the g1a reviews that pass the G1a-v2 keyword filter (253) four ways and prints calls, wall time, tokens and
the ratios the issue asks for:

1. sequential baseline — one review per call, one call in flight, no cache;
2. concurrent — one review per call, ``--concurrency`` calls in flight (target: ≤ 1/10 of the sequential time);
3. batched — ``--batch-size`` reviews per call (target: ≥ 5× fewer calls, identical labels);
4. re-run — the same seed on the same data with the cache filled by run 3 (target: 0 calls).

Usage: ``.venv/bin/python bench/extract_bench.py [--data ../shared/data/g1a_allergy] [--latency 0.1]
[--concurrency 32] [--batch-size 10] [--json]``. Runtime ≈ 253 × latency for the baseline plus a few seconds.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

from dinecheck.dataset import load_dataset
from dinecheck.extract.base import ReviewInput
from dinecheck.extract.chat import LLMConfig
from dinecheck.extract.llm import LLMExtractor
from dinecheck.formula import build_seed, load_seed

REPO = Path(__file__).resolve().parents[1]


def _fake_llm_module():
    spec = importlib.util.spec_from_file_location("fake_llm", REPO / "tests" / "support" / "fake_llm.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def _reviews(data: Path):
    compiled = build_seed(load_seed(data / "g1a_v2_seed.json"))
    ds, _ = load_dataset(data)
    reviews = [
        ReviewInput(r.business_id, r.review_id, r.text, {"stars": r.stars, "date": r.date})
        for rest in ds.restaurants
        for r in compiled.filter_reviews(ds.reviews_of(rest.business_id))
    ]
    return compiled.fields, reviews


def _run(base_url: str, fields, reviews, *, concurrency: int, batch_size: int, cache: Path | None) -> dict:
    cfg = LLMConfig(base_url=base_url, model="fake-model", concurrency=concurrency, batch_size=batch_size,
                    use_cache=cache is not None, cache_path=cache)
    ex = LLMExtractor(cfg)
    t0 = time.perf_counter()
    try:
        results = ex.extract(fields, reviews)
    finally:
        ex.close()
    seconds = time.perf_counter() - t0
    return {
        "seconds": round(seconds, 3),
        **ex.stats.as_dict(),
        "ok": sum(r.ok for r in results),
        "labels": {r.review_id: r.values for r in results},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "g1a_allergy")
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--batch-size", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    fields, reviews = _reviews(args.data)
    fake = _fake_llm_module().FakeLLM(args.data, latency=args.latency)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "cache.sqlite"
            runs = {
                "sequential": _run(fake.base_url, fields, reviews, concurrency=1, batch_size=1, cache=None),
                "concurrent": _run(fake.base_url, fields, reviews, concurrency=args.concurrency, batch_size=1, cache=None),
                "batched": _run(fake.base_url, fields, reviews, concurrency=args.concurrency,
                                batch_size=args.batch_size, cache=cache),
                "rerun": _run(fake.base_url, fields, reviews, concurrency=args.concurrency,
                              batch_size=args.batch_size, cache=cache),
            }
    finally:
        fake.stop()

    seq, conc, bat, rerun = runs["sequential"], runs["concurrent"], runs["batched"], runs["rerun"]
    time_ratio = conc["seconds"] / seq["seconds"]
    call_ratio = conc["calls"] / max(1, bat["calls"])
    identical = seq["labels"] == conc["labels"] == bat["labels"] == rerun["labels"]
    checks = {
        "concurrent_time_le_1/10_sequential": time_ratio <= 0.1,
        "batching_cuts_calls_ge_5x": call_ratio >= 5.0,
        "identical_labels": identical and seq["ok"] == len(reviews),
        "rerun_zero_calls": rerun["calls"] == 0,
    }
    report = {
        "reviews": len(reviews),
        "latency_s": args.latency,
        "concurrency": args.concurrency,
        "batch_size": args.batch_size,
        "runs": {k: {kk: vv for kk, vv in v.items() if kk != "labels"} for k, v in runs.items()},
        "concurrent_over_sequential_time": round(time_ratio, 4),
        "calls_unbatched_over_batched": round(call_ratio, 2),
        "checks": checks,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{len(reviews)} reviews, fake server latency {args.latency * 1000:.0f} ms per call")
        print(f"{'run':<12}{'calls':>7}{'seconds':>10}{'tokens in':>11}{'tokens out':>11}{'cache hits':>12}{'ok':>6}")
        for name, r in runs.items():
            print(f"{name:<12}{r['calls']:>7}{r['seconds']:>10.2f}{r['tokens_in']:>11}{r['tokens_out']:>11}"
                  f"{r['cache_hits']:>12}{r['ok']:>6}")
        print(f"concurrent / sequential time: {time_ratio:.3f} (target ≤ 0.100, concurrency {args.concurrency})")
        print(f"calls unbatched / batched:    {call_ratio:.1f}× (target ≥ 5×, batch size {args.batch_size})")
        print(f"identical labels in all runs: {identical}; re-run calls: {rerun['calls']}")
        for name, ok in checks.items():
            print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
