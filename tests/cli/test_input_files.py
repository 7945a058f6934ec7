"""Unusual paths where a regular file is expected, through the real CLI (issue 10, item 3): exit 2, one line naming it.

A FIFO must never be opened (that blocks until a writer appears), so every test runs under an alarm that fails it
instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from dinecheck.sample import sample_dir

SAMPLE = sample_dir()
FIFO_WHY = "is a named pipe (FIFO), not a regular file"


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    def fail(signum: int, frame: object) -> None:
        raise TimeoutError("blocked: a FIFO was opened for reading")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def unusual(tmp_path: Path, kind: str) -> tuple[Path, str]:
    p = tmp_path / f"input-{kind}"
    if kind == "directory":
        p.mkdir()
        return p, "is a directory, not a file"
    if kind == "fifo":
        os.mkfifo(p)
        return p, FIFO_WHY
    p.symlink_to(tmp_path / "gone")
    return p, "is a symbolic link to a file that does not exist"


KINDS = ["directory", "fifo", "dangling"]


def sample_copy(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    for name in ("restaurants.jsonl", "reviews.jsonl"):
        (d / name).write_bytes((SAMPLE / name).read_bytes())
    return d


@pytest.mark.parametrize("kind", KINDS)
def test_dataset_reviews_file(cli, tmp_path: Path, kind: str) -> None:
    d = sample_copy(tmp_path)
    (d / "reviews.jsonl").unlink()
    bad, why = unusual(tmp_path, kind)
    os.rename(bad, d / "reviews.jsonl")
    r = cli("requests", "validate", "--data", d, "--requests", SAMPLE / "requests.jsonl")
    assert (r.code, r.out, r.err) == (2, "", f"error: {d / 'reviews.jsonl'}: {why}\n")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("flag", ["--business", "--review", "--user"])
def test_import_yelp_inputs(cli, tmp_path: Path, kind: str, flag: str) -> None:
    files = {}
    for f in ("--business", "--review", "--user"):
        files[f] = tmp_path / f"{f[2:]}.json"
        files[f].write_text("")
    bad, why = unusual(tmp_path, kind)
    files[flag] = bad
    args = [x for f, p in files.items() for x in (f, p)]
    r = cli("import", "yelp", *args, "--out", tmp_path / "out", "--quiet")
    assert (r.code, r.err) == (2, f"error: {bad}: {why}\n")


@pytest.mark.parametrize("kind", KINDS)
def test_requests_and_groundtruth_files(cli, tmp_path: Path, kind: str) -> None:
    bad, why = unusual(tmp_path, kind)
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", bad)
    assert (r.code, r.err) == (2, f"error: {bad}: {why}\n")
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", SAMPLE / "requests.jsonl", "--groundtruth", bad)
    assert (r.code, r.err) == (2, f"error: {bad}: {why}\n")
    r = cli("requests", "match", "--data", SAMPLE, "--request", bad)
    assert (r.code, r.err) == (2, f"error: {bad}: {why}\n")


@pytest.mark.parametrize("kind", KINDS)
def test_seed_file(cli, tmp_path: Path, kind: str) -> None:
    bad, why = unusual(tmp_path, kind)
    for args in (("seed", "check", bad), ("seed", "run", bad, "--data", SAMPLE)):
        r = cli(*args)
        assert (r.code, r.err) == (2, f"error: {bad}: {why}\n"), args


@pytest.mark.parametrize("kind", KINDS)
def test_allergen_label_input(cli, tmp_path: Path, kind: str) -> None:
    bad, why = unusual(tmp_path, kind)
    r = cli("allergens", "check", "--input", bad, "-a", "MILK", "--db", tmp_path / "o.sqlite")
    assert (r.code, r.err) == (2, f"error: {bad}: {why}\n")


@pytest.mark.parametrize("kind", KINDS)
def test_llm_config_file(cli, tmp_path: Path, kind: str) -> None:
    bad, why = unusual(tmp_path, kind)
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({"x": 1}))
    r = cli("seed", "compile", seed, "--out", tmp_path / "s.json", "--config", bad)
    assert r.code == 2 and r.err == f"error: {bad}: {why}\n"
