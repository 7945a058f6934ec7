"""``seed run --workers 1`` against ``--workers 2``: the offline G1a-v2 run on the G1a data replicated N times.

    python bench/workers_bench.py --factor 100 [--format jsonl|parquet] [--work /tmp/workers_bench]

Builds the replicated dataset once (``bench/make_replicated_dataset.py``; with ``--format parquet`` converted with
``dinecheck dataset convert``), then times the whole command — loading included — as a subprocess, one worker then two
(each ``--repeat`` times, best kept), checks the two ``--json`` outputs are byte-identical, and prints the speed-up.
The issue's target is ≥ 1.7× on ×100 data.

Wall-clock time is only fair on an otherwise idle machine, so the script also measures the same run in-process by CPU
time: one worker = the CPU of load + filter + extract + compute + JSON in one process; two workers = the parent's CPU
(load, receiving and printing results) plus the busiest worker's CPU (the critical path on two free cores). It prints
the load average next to the wall-clock figures.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
G1A = ROOT.parent / "shared" / "data" / "g1a_allergy"


def dataset(work: Path, factor: int, fmt: str) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    from make_replicated_dataset import replicate

    jsonl = work / f"g1a_x{factor}"
    if not (jsonl / "reviews.jsonl").is_file():
        replicate(G1A, factor, jsonl)
    if fmt == "jsonl":
        return jsonl
    pq = work / f"g1a_x{factor}_parquet"
    if not (pq / "restaurants.parquet").is_file():
        subprocess.run([sys.executable, "-m", "dinecheck", "dataset", "convert", str(jsonl), str(pq)], check=True,
                       stdout=subprocess.DEVNULL)
    return pq


def timed_run(data: Path, workers: int, out: Path) -> tuple[float, str]:
    cmd = [sys.executable, "-m", "dinecheck", "seed", "run", str(G1A / "g1a_v2_seed.json"), "--data", str(data),
           "--extractor", "offline", "--json", "--workers", str(workers)]
    t = time.perf_counter()
    with out.open("wb") as fh:
        proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - t
    if proc.returncode not in (0, 1):
        raise SystemExit(f"error: {' '.join(cmd)} exited {proc.returncode}")
    return elapsed, hashlib.sha256(out.read_bytes()).hexdigest()


def cpu_critical_path(data: Path) -> tuple[float, float, list[float], str, str]:
    """(CPU of one process, parent CPU with two workers, per-worker CPU, digest 1, digest 2), measured in-process."""
    import json

    from dinecheck.dataset.loader import load_dataset
    from dinecheck.executors import LocalExecutor
    from dinecheck.executors.partition import PartitionSpec, partitions
    from dinecheck.extract.factory import ExtractorOptions, make_extractor
    from dinecheck.formula.run import compile_seed, load_seed

    seed = load_seed(G1A / "g1a_v2_seed.json")

    def lines(results) -> str:
        h = hashlib.sha256()
        for r in results:
            h.update((json.dumps(r.to_json(), ensure_ascii=False) + "\n").encode())
        return h.hexdigest()

    t = time.process_time()
    ds = load_dataset(data)[0]
    gc.freeze()  # as the CLI does after loading (dinecheck.cli.common.load_data): forked workers then share the pages
    compiled = compile_seed(seed)
    ext = make_extractor("offline")
    d1 = lines(compiled.run_stream(((r, ds.reviews_of(r.business_id)) for r in ds.restaurants), ext))
    one = time.process_time() - t
    del ds

    gc.unfreeze()
    gc.collect()
    t = time.process_time()
    ds = load_dataset(data)[0]
    gc.freeze()
    spec = PartitionSpec(data=str(data), seed=compile_seed(seed).seed.model_dump(mode="json", by_alias=True, exclude_unset=True),
                         extractor="offline", options=ExtractorOptions())
    per_worker: dict[int, float] = {}

    def results():
        for part in LocalExecutor(2).map(spec, partitions([r.business_id for r in ds.restaurants], 2), ds):
            per_worker[part.worker] = per_worker.get(part.worker, 0.0) + part.cpu_seconds
            yield from part.items

    d2 = lines(results())
    parent = time.process_time() - t
    return one, parent, sorted(per_worker.values()), d1, d2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--factor", type=int, default=100)
    ap.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--work", type=Path, default=Path("/tmp/dinecheck_workers_bench"))
    ap.add_argument("--no-wall", action="store_true", help="Only the in-process CPU measurement.")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    data = dataset(args.work, args.factor, args.format)
    one, parent, workers, d1, d2 = cpu_critical_path(data)
    print(f"CPU: one process {one:.2f} s; two workers: parent {parent:.2f} s + busiest worker {workers[-1]:.2f} s "
          f"(workers {', '.join(f'{w:.2f}' for w in workers)}) -> critical-path speed-up {one / (parent + workers[-1]):.2f}x; "
          f"outputs identical: {d1 == d2}", flush=True)
    if d1 != d2:
        raise SystemExit(1)
    if args.no_wall:
        return
    best: dict[int, float] = {}
    digests: dict[int, str] = {}
    for w in (1, 2):
        for _ in range(args.repeat):
            elapsed, digest = timed_run(data, w, args.work / f"out_w{w}.jsonl")
            best[w] = min(best.get(w, elapsed), elapsed)
            if digests.setdefault(w, digest) != digest:
                raise SystemExit(f"error: --workers {w} gave different outputs on repeated runs")
        print(f"--workers {w}: {best[w]:.2f} s wall (best of {args.repeat}; load average {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} CPUs)", flush=True)
    identical = digests[1] == digests[2]
    lines = sum(1 for _ in (args.work / "out_w1.jsonl").open("rb"))
    print(f"G1a x{args.factor} ({args.format}, {lines} restaurants): speed-up {best[1] / best[2]:.2f}x "
          f"(target >= 1.7x); outputs identical: {identical}")
    if not identical:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
