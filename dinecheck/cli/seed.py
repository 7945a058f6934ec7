"""CLI: ``dinecheck seed …`` (placeholder until the Formula Seed issue lands)."""

from __future__ import annotations

import typer

from dinecheck.cli import seed_extract

app = typer.Typer(help="Formula Seeds: check, run, evaluate, extract, compile.", no_args_is_help=True)

for _name, _fn in seed_extract.COMMANDS.items():
    app.command(_name)(_fn)
