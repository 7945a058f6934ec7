"""Benchmark: `dinecheck import yelp` throughput and memory on synthetic Yelp Open Dataset files.

Generates business/review/user files in the official JSON Lines format at two sizes (the second ``--factor`` times
larger), imports each in a fresh process that keeps ~1 % of the businesses (``--city``), and prints input MB/s and the
process's peak RSS. Memory should not grow with the input (it depends on the selected output only).

    python bench/yelp_import_bench.py [--businesses 20000] [--factor 4]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

WORDS = ("coffee latte espresso cozy friendly staff great service slow music wifi tasty pastry bagel croissant "
         "allergy peanut nut gluten dairy vegan brunch breakfast lunch dinner price cheap loud quiet").split()  # fmt: skip

CHILD = r"""
import resource, sys, time
from dinecheck.dataset.yelp_import import import_yelp
t = time.perf_counter()
r = import_yelp(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], city="Smallville")
dt = time.perf_counter() - t
print(dt, r.restaurants, r.reviews, r.users, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def generate(root: Path, n_business: int, seed: int = 7) -> int:
    rnd = random.Random(seed)
    n_users = n_business * 5
    with (root / "business.json").open("w") as f:
        for i in range(n_business):
            city = "Smallville" if i % 100 == 0 else "Bigcity"
            f.write(json.dumps({"business_id": f"b{i}", "name": f"Cafe {i}", "city": city, "stars": 4.0,
                                "attributes": {"WiFi": "u'free'", "HasTV": "False"}, "categories": "Cafes, Coffee & Tea",
                                "hours": {"Monday": "8:0-18:0"}}) + "\n")  # fmt: skip
    with (root / "review.json").open("w") as f:
        for i in range(n_business * 10):
            text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(40, 160)))
            f.write(json.dumps({"review_id": f"r{i}", "user_id": f"u{rnd.randrange(n_users)}",
                                "business_id": f"b{rnd.randrange(n_business)}", "stars": rnd.randint(1, 5), "useful": 0,
                                "funny": 0, "cool": 0, "text": text, "date": "2019-05-01 10:00:00"}) + "\n")  # fmt: skip
    with (root / "user.json").open("w") as f:
        for i in range(n_users):
            friends = ", ".join(f"u{rnd.randrange(n_users)}" for _ in range(rnd.randint(0, 30)))
            f.write(json.dumps({"user_id": f"u{i}", "name": f"User{i}", "review_count": rnd.randint(1, 500), "fans": 0,
                                "elite": "2018,2019", "average_stars": 4.1, "friends": friends or "None"}) + "\n")  # fmt: skip
    return sum((root / n).stat().st_size for n in ("business.json", "review.json", "user.json"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--businesses", type=int, default=20_000)
    ap.add_argument("--factor", type=int, default=4)
    args = ap.parse_args()
    rows = []
    for n in (args.businesses, args.businesses * args.factor):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            size = generate(root, n)
            out = subprocess.run([sys.executable, "-c", CHILD, str(root / "business.json"), str(root / "review.json"),
                                  str(root / "user.json"), str(root / "out")],
                                 capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
            dt, rest, revs, users, rss_kb = float(out[0]), int(out[1]), int(out[2]), int(out[3]), int(out[4])
            rows.append((n, size, dt, rest, revs, users, rss_kb))
    print(f"{'businesses':>10} {'input MB':>9} {'seconds':>8} {'MB/s':>7} {'kept':>5} {'reviews':>8} {'peak RSS MB':>12}")
    for n, size, dt, rest, revs, _users, rss in rows:
        print(f"{n:>10} {size / 1e6:>9.1f} {dt:>8.2f} {size / 1e6 / dt:>7.1f} {rest:>5} {revs:>8} {rss / 1024:>12.1f}")
    growth = rows[1][6] / rows[0][6]
    print(f"input grew {rows[1][1] / rows[0][1]:.1f}x, peak RSS grew {growth:.2f}x (output grew "
          f"{rows[1][4] / max(rows[0][4], 1):.1f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
