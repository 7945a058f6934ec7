"""The command-line shell: help, usage errors, ``python -m dinecheck``, and the README's CLI reference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dinecheck.cli import app
from dinecheck.cli.reference import END, START, render, replace_block

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_help_lists_every_command_group(cli) -> None:
    r = cli("--help")
    assert r.code == 0
    for group in ("demo", "requests", "seed", "allergens", "import"):
        assert f"  {group} " in r.out


def test_unknown_command_is_a_usage_error(cli) -> None:
    r = cli("no-such-command")
    assert r.code == 2
    assert "No such command 'no-such-command'" in r.err


def test_python_dash_m_runs_the_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "dinecheck", "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Usage: ")


def test_readme_cli_reference_matches_help() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert START in readme and END in readme
    expected = replace_block(readme, render(app))
    assert readme == expected, "README CLI reference is stale: run `python -m dinecheck.cli.reference --write README.md`"
