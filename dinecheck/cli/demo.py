"""CLI: ``dinecheck demo`` — run everything dinecheck can do on the bundled sample data and print a report."""

from __future__ import annotations

import typer


def demo() -> None:
    """Run every capability on the bundled sample data and print a readable report."""
    typer.echo("dinecheck demo: nothing to show yet")
