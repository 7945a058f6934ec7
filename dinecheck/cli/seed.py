"""CLI: `dinecheck seed …` (placeholder until its issue lands)."""

from __future__ import annotations

import typer

app = typer.Typer(help="seed commands.", no_args_is_help=True)
