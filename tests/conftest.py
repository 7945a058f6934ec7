"""Shared fixtures: the repository's ../shared/data, a PostgreSQL URL, and a CLI runner.

Tests that need ../shared/data or PostgreSQL skip with a message on a developer machine that lacks them; under
``CI=true`` a missing file or server is a failure, never a silent skip.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dinecheck.cli import app
from dinecheck.cli.common import run_app

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
IN_CI = os.environ.get("CI", "").lower() == "true"


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"{what} is missing, and CI=true requires it")
    pytest.skip(f"{what} is missing; skipped outside CI")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data (resolved from the repository root)."""
    if not SHARED_DATA.is_dir():
        _missing(f"shared data directory {SHARED_DATA}")
    return SHARED_DATA


def shared_file(shared_root: Path, relative: str) -> Path:
    """A file below ../shared/data; skips (or fails under CI) when it is absent."""
    path = shared_root / relative
    if not path.exists():
        _missing(f"shared data file {path}")
    return path


@pytest.fixture(scope="session")
def g1a(shared_data: Path) -> Path:
    """The G1a allergy dataset directory of ../shared/data."""
    return shared_file(shared_data, "g1a_allergy")


@pytest.fixture(scope="session")
def recorded(g1a: Path) -> dict[str, dict[str, str]]:
    """The recorded G1a labels, review_id → extraction (the first record of a review wins)."""
    out: dict[str, dict[str, str]] = {}
    for line in (g1a / "recorded_extractions.jsonl").read_text(encoding="utf-8").splitlines():
        o = json.loads(line)
        out.setdefault(o["review_id"], o["extraction"])
    return out


@pytest.fixture(scope="session")
def pg_url() -> str:
    """URL of a PostgreSQL server for store tests, from DINECHECK_TEST_PG_URL (set by .ci/run)."""
    url = os.environ.get("DINECHECK_TEST_PG_URL")
    if not url:
        _missing("PostgreSQL (DINECHECK_TEST_PG_URL)")
    return url  # type: ignore[return-value]


class CliResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, out={self.out[:500]!r}, err={self.err[:500]!r})"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run ``dinecheck ARGS…`` in-process through the real entry point; returns code, stdout, stderr."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = run_app(app, [str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run
