"""``dinecheck dataset``: convert a dataset between the JSONL directory format and Parquet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dinecheck.cli.common import LenientOpt, load_data

app = typer.Typer(help="Dataset formats: convert JSONL directories to Parquet.", no_args_is_help=True)


@app.command("convert")
def convert(
    source: Annotated[Path, typer.Argument(help="Dataset directory (JSONL or Parquet).")],
    out: Annotated[Path, typer.Argument(help="Parquet dataset directory to write.")],
    lenient: bool = LenientOpt,
) -> None:
    """Write a dataset as Parquet: restaurants, reviews sorted and row-grouped by restaurant, users with friends once.

    Streams restaurant by restaurant (a large reviews.jsonl is read through an offset index), so memory does not grow
    with the dataset. Every command reads either format.
    """
    from dinecheck.dataset.parquet import write_parquet

    ds = load_data(source, lenient, stream=True)
    write_parquet(ds, out)
    typer.echo(f"wrote {len(ds.restaurants)} restaurants, {ds.n_reviews} reviews, {len(ds.social)} users to {out}")
