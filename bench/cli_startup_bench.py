"""Start-up time of the CLI: lazy command loading against importing every command module first (the old shape).

Usage (from the repository root)::

    .venv/bin/python bench/cli_startup_bench.py [--runs 7]

Each sample is a fresh interpreter. **lazy** runs ``dinecheck ARGS`` as shipped; **eager** first imports every
top-level command module (``dinecheck.cli.SUBCOMMANDS``: demo, requests, seed, allergens, import — what the CLI did
before commands were loaded on first use) and then runs the same command. Prints the median wall time of each, for
``--help`` and for ``requests validate`` on the bundled sample, and the eager/lazy ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "dinecheck" / "sample"


def sample(argv: list[str], eager: bool) -> float:
    pre = "from importlib import import_module\nfrom dinecheck.cli import SUBCOMMANDS\n" \
          "[import_module(s.module) for s in SUBCOMMANDS.values()]\n" if eager else ""
    code = f"{pre}import sys\nfrom dinecheck.cli import app\nfrom dinecheck.cli.common import run_app\n" \
           f"sys.exit(run_app(app, {argv!r}))\n"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    commands = {
        "--help": ["--help"],
        "requests validate (sample)": ["requests", "validate", "--data", str(SAMPLE), "--requests",
                                       str(SAMPLE / "requests.jsonl")],
    }
    for label, argv in commands.items():
        lazy, eager = [], []
        for _ in range(args.runs):  # interleaved, so machine load hits both alike
            lazy.append(sample(argv, eager=False))
            eager.append(sample(argv, eager=True))
        lz, eg = statistics.median(lazy), statistics.median(eager)
        print(f"{label:28}  lazy {lz:6.3f} s   eager {eg:6.3f} s   eager/lazy {eg / lz:4.2f}x")


if __name__ == "__main__":
    main()
