"""The ``dinecheck`` command line: a thin typer shell over the core packages.

Each command group lives in its own module (``requests``, ``seed``, ``allergens``, ``importer``, ``demo``). User errors
(:class:`~dinecheck.errors.DinecheckError`) are printed as one line on stderr with exit code 2; never a traceback.
"""

from __future__ import annotations

import sys

import typer

from dinecheck.cli import allergens, dataset, demo, importer, requests, seed
from dinecheck.cli.common import run_app

app = typer.Typer(
    name="dinecheck",
    help="Which restaurant fits, how risky it is for an allergy, and whether a packaged food is safe.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(requests.app, name="requests")
app.add_typer(seed.app, name="seed")
app.add_typer(allergens.app, name="allergens")
app.add_typer(importer.app, name="import")
app.add_typer(dataset.app, name="dataset")
app.command("demo")(demo.demo)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    sys.exit(run_app(app, argv))
