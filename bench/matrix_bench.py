"""Benchmark of ``requests matrix`` on the cafés replicated ×10 (490 restaurants, 9,800 reviews, 49 requests).

    python bench/matrix_bench.py [--data ../shared/data/philly_cafes] [--factor 10] [--repeat 3]

(1) :func:`dinecheck.requests.matrix.build_matrix` (one evaluator per distinct evidence, review caches per restaurant,
literal fast path) against a straightforward baseline measured in the same run: per condition occurrence × restaurant,
a fresh evaluator and the regex searched over every review each time (the ``NaiveIndex`` of requests_bench.py). Both
must give identical values; prints both times and the ratio.
(2) The whole command as a user runs it — ``dinecheck requests matrix --data X --requests R --out F`` in a fresh
process (start-up, load, lint, evaluation, JSON written) — against the issue's 5 s target.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from make_replicated_dataset import replicate
from requests_bench import DEFAULT_DATA, NaiveIndex, best_of

from dinecheck.dataset import Dataset, load_dataset
from dinecheck.requests import load_requests
from dinecheck.requests.evidence import make_evaluator
from dinecheck.requests.matrix import build_matrix
from dinecheck.requests.schema import Request, conditions


def naive_matrix(ds: Dataset, reqs: list[Request]) -> dict[tuple[str, str], tuple[int, ...]]:
    out = {}
    for q in reqs:
        for ptr, cond in conditions(q.structure):
            out[(q.id, ptr)] = tuple(make_evaluator(cond.evidence).evaluate(r, NaiveIndex(ds)).value
                                     for r in ds.restaurants)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--factor", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    req_path = args.data / "requests_dev.jsonl"
    reqs = load_requests(req_path)
    with tempfile.TemporaryDirectory() as tmp:
        d = replicate(args.data, args.factor, Path(tmp) / f"x{args.factor}")
        ds, _ = load_dataset(d)
        t_fast, m = best_of(args.repeat, lambda: build_matrix(ds, reqs))
        t_naive, naive = best_of(1, lambda: naive_matrix(ds, reqs))
        fast = {use: c.values for c in m.conditions for use in c.uses}
        assert fast == naive, "build_matrix and the straightforward baseline disagree"
        n_occ = sum(len(c.uses) for c in m.conditions)
        print(f"(1) {len(reqs)} requests ({n_occ} condition occurrences, {len(m.conditions)} named conditions) x "
              f"{len(ds.restaurants)} restaurants ({ds.n_reviews} reviews); identical values")
        print(f"    straightforward baseline (1 run):      {t_naive:8.3f} s")
        print(f"    build_matrix (fastest of {args.repeat}):          {t_fast:8.3f} s")
        print(f"    speed-up:                              {t_naive / t_fast:8.1f}x")
        out = Path(tmp) / "condition_matrix.json"
        cmd = [sys.executable, "-m", "dinecheck", "requests", "matrix", "--data", str(d), "--requests", str(req_path),
               "--out", str(out)]
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            best = min(best, time.perf_counter() - t)
        print(f"(2) dinecheck requests matrix (new process, load + lint + evaluate + write), fastest of "
              f"{args.repeat}: {best:.2f} s  (target < 5 s)")


if __name__ == "__main__":
    main()
