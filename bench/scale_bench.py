"""Peak memory and time of `requests validate` and `seed run` on replicated data: today's in-memory JSONL loader
against the streamed Parquet (and streamed JSONL) dataset, measured in the same run, each in a fresh process.

    python bench/scale_bench.py --work /tmp/scale --cafes-factor 1000 --g1a-factor 1000

Writes the replicated JSONL datasets under --work (≈2 GB each at ×1000; kept for re-runs), converts them with
`dinecheck dataset convert`, then runs each command as `python -c` children that report their own peak RSS
(`ru_maxrss`) and CPU time. Prints one line per run and the ratios (CPU time — steadier than wall time on a shared
machine — and peak memory, streamed / in-memory).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_replicated_dataset import replicate  # noqa: E402

SHARED = HERE.parent.parent / "shared" / "data"
CHILD = """
import resource, sys
from dinecheck.cli import app
from dinecheck.cli.common import run_app
code = run_app(app, sys.argv[1:])
u = resource.getrusage(resource.RUSAGE_SELF)
print(f"@@maxrss_kb={u.ru_maxrss} cpu_s={u.ru_utime + u.ru_stime:.2f} code={code}", file=sys.stderr)
"""


def run(label: str, args: list[str], stream: str) -> tuple[float, float, str]:
    env = {**os.environ, "DINECHECK_STREAM": stream}
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", CHILD, *args], env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    tail = [ln for ln in p.stderr.splitlines() if ln.startswith("@@maxrss_kb=")]
    if not tail:
        raise SystemExit(f"{label}: the child failed:\n{p.stderr[-2000:]}")
    fields = dict(kv.split("=") for kv in tail[-1][2:].split())
    rss_mb, cpu = int(fields["maxrss_kb"]) / 1024, float(fields["cpu_s"])
    print(f"{label:<48} {dt:8.1f} s wall {cpu:8.1f} s CPU  peak RSS {rss_mb:8.0f} MB  (exit {fields['code']})",
          flush=True)
    return cpu, rss_mb, p.stdout


def prepare(src: Path, factor: int, work: Path) -> tuple[Path, Path]:
    jsonl = work / f"{src.name}_x{factor}"
    pq = work / f"{src.name}_x{factor}_parquet"
    if not (jsonl / "reviews.jsonl").exists():
        t0 = time.perf_counter()
        replicate(src, factor, jsonl)
        print(f"replicated {src.name} ×{factor} in {time.perf_counter() - t0:.1f} s", flush=True)
    if not (pq / "reviews.parquet").exists():
        dt, rss, _ = run(f"dataset convert {jsonl.name}", ["dataset", "convert", str(jsonl), str(pq)], "auto")
    return jsonl, pq


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=Path("/tmp/dinecheck-scale"))
    ap.add_argument("--cafes-factor", type=int, default=1000)
    ap.add_argument("--g1a-factor", type=int, default=1000)
    ap.add_argument("--skip-seed", action="store_true", help="Only the requests benchmark.")
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)

    cafes = SHARED / "philly_cafes"
    cj, cp = prepare(cafes, a.cafes_factor, a.work)
    req = ["--requests", str(cafes / "requests_dev.jsonl")]
    base = run(f"validate JSONL in memory ×{a.cafes_factor}", ["requests", "validate", "--data", str(cj), *req, "--json"],
               "never")
    run(f"validate JSONL in memory, --no-lint ×{a.cafes_factor}", ["requests", "validate", "--data", str(cj), *req,
                                                                  "--json", "--no-lint"], "never")
    new = run(f"validate Parquet streamed ×{a.cafes_factor}", ["requests", "validate", "--data", str(cp), *req,
                                                               "--json"], "auto")
    run(f"validate Parquet streamed, --no-lint ×{a.cafes_factor}", ["requests", "validate", "--data", str(cp), *req,
                                                                   "--json", "--no-lint"], "auto")
    run(f"validate JSONL streamed ×{a.cafes_factor}", ["requests", "validate", "--data", str(cj), *req, "--json"],
        "always")
    same = [json.loads(x)["status"] for x in base[2].splitlines()] == [json.loads(x)["status"] for x in new[2].splitlines()]
    print(f"requests validate: Parquet/in-memory CPU time {new[0] / base[0]:.2f}×, memory {new[1] / base[1]:.3f}× "
          f"(peak {new[1]:.0f} MB vs {base[1]:.0f} MB); same statuses: {same}", flush=True)
    if a.skip_seed:
        return
    g1a = SHARED / "g1a_allergy"
    gj, gp = prepare(g1a, a.g1a_factor, a.work)
    seed = ["seed", "run", str(g1a / "g1a_v2_seed.json"), "--extractor", "offline", "--json", "--no-progress"]
    base = run(f"seed run offline JSONL in memory ×{a.g1a_factor}", [*seed, "--data", str(gj)], "never")
    new = run(f"seed run offline Parquet streamed ×{a.g1a_factor}", [*seed, "--data", str(gp)], "auto")
    print(f"seed run: Parquet/in-memory CPU time {new[0] / base[0]:.2f}×, memory {new[1] / base[1]:.3f}× "
          f"(peak {new[1]:.0f} MB vs {base[1]:.0f} MB); identical output: {base[2] == new[2]}", flush=True)


if __name__ == "__main__":
    main()
