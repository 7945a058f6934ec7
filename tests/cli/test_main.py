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


# -- start-up: a command imports only what it uses (issue 10, item 8) ---------------------------------------------
def _modules_after(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter has imported after running ``dinecheck ARGV`` in-process."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom dinecheck.cli import app\nfrom dinecheck.cli.common import run_app\n"
        f"code = run_app(app, {argv!r})\n"
        "print('MODULES', ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def _under(mods: set[str], *prefixes: str) -> list[str]:
    return sorted(m for m in mods if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_requests_validate_imports_neither_allergens_nor_the_llm_client() -> None:
    from dinecheck.sample import sample_dir

    mods = _modules_after(["requests", "validate", "--data", str(sample_dir()), "--requests",
                           str(sample_dir() / "requests.jsonl")])
    assert "dinecheck.requests.evaluate" in mods  # it did run
    assert _under(mods, "dinecheck.allergens", "dinecheck.extract", "dinecheck.formula", "dinecheck.cli.seed",
                  "httpx", "psycopg") == []


def test_top_level_help_imports_no_command_module() -> None:
    mods = _modules_after(["--help"])
    assert _under(mods, "dinecheck.requests", "dinecheck.allergens", "dinecheck.extract", "dinecheck.formula",
                  "dinecheck.dataset", "dinecheck.cli.requests", "dinecheck.cli.seed", "dinecheck.cli.demo") == []


def test_the_listed_help_of_each_command_is_its_own() -> None:
    from dinecheck.cli import SUBCOMMANDS, load_subcommand

    for name, sub in SUBCOMMANDS.items():
        assert load_subcommand(name).help.split("\n\n")[0].strip() == sub.help, name
