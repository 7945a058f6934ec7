"""The ``dinecheck`` command line: a thin typer shell over the core packages.

Each command group lives in its own module (``requests``, ``seed``, ``allergens``, ``importer``, ``demo``, ``risk``,
``search``, ``serve``), imported only when that command runs (or its help is shown): ``dinecheck --help`` lists them from
:data:`SUBCOMMANDS` without importing any, and ``dinecheck requests validate`` never loads the allergen pipeline or the LLM client. User errors
(:class:`~dinecheck.errors.DinecheckError`) are printed as one line on stderr with exit code 2; never a traceback.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import NamedTuple

import typer
from typer import _click as click  # typer vendors click; TyperGroup's methods take and return its objects
from typer.core import TyperGroup

from dinecheck.cli.common import run_app


class Subcommand(NamedTuple):
    """Where a top-level command lives and its one-line help (shown by ``dinecheck --help`` without importing it)."""

    module: str
    attribute: str  # a typer.Typer (a command group) or a command function
    help: str


SUBCOMMANDS = {
    "demo": Subcommand("dinecheck.cli.demo", "demo",
                       "Run every capability on the bundled sample data and print a readable report."),
    "requests": Subcommand("dinecheck.cli.requests", "app",
                           "Evaluate, explain and validate structured restaurant requests."),
    "seed": Subcommand("dinecheck.cli.seed", "app", "Formula Seeds: check, run, evaluate, extract, compile."),
    "allergens": Subcommand("dinecheck.cli.allergens", "app",
                            "Check packaged-food ingredient labels for allergens; manage the allergen ontology store."),
    "import": Subcommand("dinecheck.cli.importer", "app", "Import external data into dinecheck's dataset format."),
    "risk": Subcommand("dinecheck.cli.risk", "app", "Allergy evidence from reviews, per restaurant and allergen."),
    "search": Subcommand("dinecheck.cli.search", "search_cmd",
                         "Places that fit a request, ranked by allergy evidence for the profile, with reasons."),
    "serve": Subcommand("dinecheck.cli.serve", "serve", "Serve the web app (find a place, restaurant pages, label "
                        "checks, benchmark) and the JSON API."),
    "dataset": Subcommand("dinecheck.cli.dataset", "app", "Dataset formats: convert JSONL directories to Parquet."),
}  # fmt: skip


def _root() -> None:
    """Which restaurant fits, how risky it is for an allergy, and whether a packaged food is safe."""


def load_subcommand(name: str) -> click.Command:
    """Import the module of a top-level command and build its click command, with the root's settings."""
    sub = SUBCOMMANDS[name]
    obj = getattr(import_module(sub.module), sub.attribute)
    holder = typer.Typer(rich_markup_mode=None, add_completion=False, pretty_exceptions_enable=False)
    holder.callback()(_root)  # a group even when it holds one command
    if isinstance(obj, typer.Typer):
        holder.add_typer(obj, name=name)
    else:
        holder.command(name)(obj)
    cmd: click.Command = typer.main.get_group(holder).commands[name]
    return cmd


class LazyGroup(TyperGroup):
    """The root group: subcommands from :data:`SUBCOMMANDS`, imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*SUBCOMMANDS, *(n for n in super().list_commands(ctx) if n not in SUBCOMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = self.commands.get(cmd_name)
        if cmd is None and cmd_name in SUBCOMMANDS:
            cmd = load_subcommand(cmd_name)
            self.commands[cmd_name] = cmd
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            short = loaded.get_short_help_str(limit) if loaded is not None else (
                click.utils.make_default_short_help(SUBCOMMANDS[name].help, limit))
            rows.append((name, short))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


app = typer.Typer(
    name="dinecheck",
    cls=LazyGroup,
    help="Which restaurant fits, how risky it is for an allergy, and whether a packaged food is safe.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.callback()(_root)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    sys.exit(run_app(app, argv))
