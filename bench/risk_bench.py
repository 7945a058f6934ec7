"""Benchmark of allergy evidence (``risk build``) and ``search`` on the G1a data replicated ×10.

1. ``risk build`` for all 15 allergens with the offline extractor over G1a ×10 (1,000 restaurants, 25,000 reviews)
   into a fresh SQLite store; target < 60 s. Baseline in the same run: the G1a-v2 seed (one allergen, substring
   filter) with the same extractor over the same data.
2. A re-build after 1 % new reviews — a copy (new id, changed text) of every 100th review, taken separately from the
   allergy-talk reviews and from the others so that the new reviews hold allergy talk in the same proportion as the
   data: extraction work = reviews sent to the extractor, against a full build of the grown data; target ≤ 2 %.
3. ``search`` with a request and a 2-allergen profile (PEANUT, MILK) from the built store; target < 1 s for the
   search itself (request evaluation + store read + ranking). Baseline: ``requests match`` of the same request alone.
   The dataset load, shared by every command that reads ``--data``, is reported separately.

Usage: .venv/bin/python bench/risk_bench.py [--data ../shared/data/g1a_allergy] [--factor 10]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from make_replicated_dataset import add_new_reviews, replicate  # bench/ is on sys.path when this script runs

from dinecheck import load_dataset, make_extractor
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.formula import compile_seed, load_seed
from dinecheck.requests import Engine
from dinecheck.risk import Vocabulary, build_evidence, open_risk_store
from dinecheck.search import parse_where, search

WHERE = json.dumps({"op": "AND", "args": [
    {"aspect": "kids", "evidence": {"kind": "item_meta", "path": ["attributes", "GoodForKids"], "true": "True"}},
    {"aspect": "takeout", "evidence": {"kind": "item_meta", "path": ["attributes", "RestaurantsTakeOut"], "true": "True"}},
]})  # fmt: skip


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "g1a_allergy"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=default)
    ap.add_argument("--factor", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = replicate(args.data, args.factor, Path(tmp) / "data")
        db = f"sqlite:///{Path(tmp) / 'risk.sqlite'}"
        t = time.perf_counter()
        ds, _ = load_dataset(data)
        t_load = time.perf_counter() - t
        print(f"dataset: {len(ds.restaurants)} restaurants, {ds.n_reviews} reviews; load {t_load:.2f} s")

        seed = compile_seed(load_seed(args.data / "g1a_v2_seed.json"))
        t = time.perf_counter()
        seed.run_many([(r, ds.reviews_of(r.business_id)) for r in ds.restaurants], make_extractor("offline"))
        t_seed = time.perf_counter() - t

        with open_risk_store(db) as store:
            t = time.perf_counter()
            _, first = build_evidence(ds, make_extractor("offline"), store=store)
            t_build = time.perf_counter() - t
        print(f"1. risk build, 15 allergens: {t_build:.2f} s ({first.extracted} reviews extracted) vs G1a-v2 seed run "
              f"(PEANUT only) {t_seed:.2f} s: ratio {t_build / t_seed:.2f}; target < 60 s: "
              f"{'ok' if t_build < 60 else 'MISSED'}")  # fmt: skip

        vocab = Vocabulary(load_data_dir())
        talk = [r.review_id for rs in ds.reviews.values() for r in rs if vocab.scan(r.text).needs_extraction]
        talk_set = set(talk)
        other = [r.review_id for rs in ds.reviews.values() for r in rs if r.review_id not in talk_set]
        added = add_new_reviews(data, set(talk[::100]) | set(other[::100]))
        ds2, _ = load_dataset(data)
        with open_risk_store(db) as store:
            t = time.perf_counter()
            _, again = build_evidence(ds2, make_extractor("offline"), store=store)
            t_again = time.perf_counter() - t
        share = again.extracted / max(1, first.extracted + again.extracted)
        print(f"2. re-build after {added} new reviews ({added / ds.n_reviews:.1%}): {again.extracted} extracted, "
              f"{again.reused} reused; extraction work {again.extracted} / {first.extracted + again.extracted} of a "
              f"full build = {share:.1%} (target ≤ 2 %: {'ok' if share <= 0.02 else 'MISSED'}); {t_again:.2f} s")  # fmt: skip

        req = parse_where(WHERE)
        t = time.perf_counter()
        n_match = len(Engine(ds2).matches(req))
        t_match = time.perf_counter() - t
        with open_risk_store(db, create=False) as store:
            t = time.perf_counter()
            res = search(ds2, request=req, allergens=["PEANUT", "MILK"], evidence=store)
            t_search = time.perf_counter() - t
        print(f"3. search (2 conditions, PEANUT+MILK): {len(res)} results in {t_search:.3f} s vs requests match alone "
              f"({n_match} matches) {t_match:.3f} s: ratio {t_search / t_match:.1f}; target < 1 s: "
              f"{'ok' if t_search < 1 else 'MISSED'} (dataset load {t_load:.2f} s not included)")  # fmt: skip


if __name__ == "__main__":
    main()
