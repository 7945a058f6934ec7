"""Bounded load test of ``dinecheck serve`` on 127.0.0.1 against the café data replicated ×10.

    python bench/web_load.py [--data ../shared/data/philly_cafes] [--factor 10] [--clients 20] [--requests 2000]

Starts the server (a subprocess on a free port, its own SQLite store in a temp dir), waits until it answers, then 20
concurrent clients send 2,000 mixed requests in total and stop: search with a dev request and a 2-allergen profile
(40 %), the find-a-place page (15 %), restaurant pages (15 %), label checks (10 %), restaurant allergy evidence (10 %)
and request matching (10 %). Reports throughput, p50/p95 latency per kind, errors, and the server's RSS at start and
end. Baseline measured in the same run: the same searches called in-process (no HTTP, one at a time); the ratio says
what HTTP, JSON and concurrency add. Target: search p95 < 300 ms, no errors, RSS flat.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx
from make_replicated_dataset import replicate

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "philly_cafes"
PROFILE = ["PEANUT", "MILK"]
MIX = [("search", 40), ("find_page", 15), ("restaurant_page", 15), ("label", 10), ("allergy", 10), ("match", 10)]
LABELS = ["Wheat flour, sugar, butter (milk), hazelnuts, may contain traces of peanuts",
          "Water, rice, salt", "Oat milk (water, oats), sunflower oil, sea salt"]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data: Path, db: Path) -> tuple[subprocess.Popen[bytes], str, float]:
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "dinecheck", "serve", "--data", str(data), "--db", str(db),
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    while time.perf_counter() - t0 < 300:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
        try:
            if httpx.get(url + "/", timeout=5).status_code == 200:
                return proc, url, time.perf_counter() - t0
        except httpx.HTTPError:
            time.sleep(0.25)
    proc.kill()
    raise SystemExit("server did not start within 300 s")


def plan(n: int, requests: list[dict], ids: list[str], rng: random.Random) -> list[tuple[str, str, str, dict]]:
    kinds = [k for k, w in MIX for _ in range(w)]
    out = []
    for _ in range(n):
        kind = rng.choice(kinds)
        if kind == "search":
            out.append((kind, "POST", "/api/search", {"json": {"request": rng.choice(requests), "allergens": PROFILE,
                                                                "limit": 20}}))
        elif kind == "find_page":
            out.append((kind, "GET", "/", {"params": {"go": "1", "allergen": PROFILE,
                                                      "wish": "attributes.WiFi=free"}}))
        elif kind == "restaurant_page":
            out.append((kind, "GET", f"/restaurants/{rng.choice(ids)}", {"params": {"allergen": PROFILE}}))
        elif kind == "label":
            out.append((kind, "POST", "/api/allergens/check", {"json": {"ingredients_text": rng.choice(LABELS),
                                                                        "allergens": PROFILE}}))
        elif kind == "allergy":
            out.append((kind, "GET", f"/api/restaurants/{rng.choice(ids)}/allergy", {"params": {"allergens": "PEANUT,MILK"}}))
        else:
            out.append((kind, "POST", "/api/requests/match", {"json": {"request": rng.choice(requests)}}))
    return out


async def run_load(url: str, work: list[tuple[str, str, str, dict]], clients: int,
                   pid: int) -> tuple[dict, list[str], float, list[tuple[int, int]]]:
    queue: asyncio.Queue = asyncio.Queue()
    for item in work:
        queue.put_nowait(item)
    lat: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    rss: list[tuple[int, int]] = []  # (requests done, server RSS kB) after every 500 requests

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            while True:
                try:
                    kind, method, path, kw = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                t = time.perf_counter()
                try:
                    r = await c.request(method, path, **kw)
                    if r.status_code != 200:
                        errors.append(f"{kind} {path}: {r.status_code} {r.text[:200]}")
                except httpx.HTTPError as exc:
                    errors.append(f"{kind} {path}: {type(exc).__name__}")
                lat[kind].append(time.perf_counter() - t)
                done = sum(len(v) for v in lat.values())
                if done % 500 == 0:
                    rss.append((done, rss_kb(pid)))

    t0 = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return lat, errors, time.perf_counter() - t0, rss


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def baseline(data: Path, requests: list[dict], n: int) -> float:
    """Median seconds of one in-process search (same evidence the server builds: offline, in memory)."""
    from dinecheck.dataset import load_dataset
    from dinecheck.extract.factory import make_extractor
    from dinecheck.requests import Engine, parse_request
    from dinecheck.risk import build_evidence
    from dinecheck.search import search

    ds, _ = load_dataset(data)
    evidence, _ = build_evidence(ds, make_extractor("offline"))
    engine = Engine(ds)
    times = []
    for obj in requests[:n]:
        req = parse_request(obj)
        t = time.perf_counter()
        search(ds, request=req, allergens=PROFILE, evidence=evidence, limit=20, engine=engine)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--factor", type=int, default=10)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dinecheck-webload-") as tmp:
        data = replicate(args.data, args.factor, Path(tmp) / "data")
        shutil.copyfile(args.data / "requests_dev.jsonl", data / "requests_dev.jsonl")
        reqs = [json.loads(x) for x in (data / "requests_dev.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
        ids = [json.loads(x)["business_id"] for x in (data / "restaurants.jsonl").read_text(encoding="utf-8").splitlines()
               if x.strip()]
        proc, url, startup = start_server(data, Path(tmp) / "ontology.sqlite")
        try:
            rss_start = rss_kb(proc.pid)
            cpu_start = cpu_seconds(proc.pid)
            work = plan(args.requests, reqs, ids, random.Random(args.seed))
            lat, errors, wall, rss = asyncio.run(run_load(url, work, args.clients, proc.pid))
            cpu = cpu_seconds(proc.pid) - cpu_start
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        base = baseline(data, reqs, len(reqs))
    total = sum(len(v) for v in lat.values())
    print(f"data: {args.data.name} ×{args.factor} ({len(ids)} restaurants); server ready in {startup:.1f} s; "
          f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{total} requests by {args.clients} clients in {wall:.2f} s: {total / wall:.0f} requests/s; "
          f"errors: {len(errors)}; server CPU {cpu:.1f} s = {cpu / total * 1000:.2f} ms per request")
    print(f"{'kind':<16} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for kind, _ in MIX:
        xs = lat.get(kind, [])
        if xs:
            print(f"{kind:<16} {len(xs):>5} {pct(xs, 50) * 1000:>8.1f} {pct(xs, 95) * 1000:>8.1f} {max(xs) * 1000:>8.1f}")
    print("server RSS: before the load " + f"{rss_start / 1024:.0f} MB; after " +
          ", ".join(f"{n} requests {kb / 1024:.0f} MB" for n, kb in rss))
    if len(rss) >= 2:
        first, last = rss[0][1], rss[-1][1]
        print(f"RSS from request {rss[0][0]} to {rss[-1][0]} (after warm-up): {(last - first) / max(first, 1):+.1%}")
    p95 = pct(lat["search"], 95)
    print(f"baseline: in-process search (one at a time) median {base * 1000:.1f} ms; "
          f"HTTP search p50 / baseline = {pct(lat['search'], 50) / base:.1f}×")
    print(f"search p95 {p95 * 1000:.0f} ms: {'under' if p95 < 0.3 else 'OVER'} the 300 ms target")
    for e in errors[:10]:
        print(f"error: {e}")
    if errors or p95 >= 0.3:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
