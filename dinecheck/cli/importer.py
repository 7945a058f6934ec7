"""CLI: ``dinecheck import yelp`` — stream the Yelp Open Dataset files into a dataset directory, with a progress bar."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from dinecheck.dataset.yelp_import import import_yelp
from dinecheck.errors import DataError

app = typer.Typer(help="Import external data into dinecheck's dataset format.", no_args_is_help=True)


@app.command()
def yelp(
    business: Path = typer.Option(..., "--business", help="yelp_academic_dataset_business.json"),
    review: Path = typer.Option(..., "--review", help="yelp_academic_dataset_review.json"),
    user: Path = typer.Option(..., "--user", help="yelp_academic_dataset_user.json"),
    out: Path = typer.Option(..., "--out", help="Dataset directory to write."),
    fmt: str = typer.Option("parquet", "--format", help="parquet (restaurants/reviews/users .parquet) or jsonl "
                            "(restaurants.jsonl, reviews.jsonl)."),
    city: str | None = typer.Option(None, "--city", help="Keep businesses in this city (case-insensitive)."),
    category: list[str] | None = typer.Option(None, "--category", help="Keep businesses with this category "
                                                 "(repeatable; any of them)."),
    max_reviews: int | None = typer.Option(None, "--max-reviews", min=0, help="At most N reviews per restaurant."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Stream the Yelp Open Dataset (constant memory) into a dataset directory with embedded review users.

    Reviewers are identified by Yelp user_id in imported data (names are not unique): use user ids in a request's
    social_filter.friends.
    """
    if fmt not in ("parquet", "jsonl"):
        raise DataError("expected 'parquet' or 'jsonl'", f"--format {fmt}")
    console = Console(file=sys.stderr)
    spool_dir = out.parent if out.parent.is_dir() else None
    target = out if fmt == "jsonl" else Path(tempfile.mkdtemp(prefix=".dinecheck-import-", dir=spool_dir))
    with Progress(TextColumn("{task.description:<10}"), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                  console=console, disable=quiet, transient=False) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done)

        report = import_yelp(business, review, user, target, city=city, categories=category or (),
                             max_reviews=max_reviews, progress=progress)
    for w in report.warnings:
        print(f"warning: skipped {w}", file=sys.stderr)
    if report.skipped_lines:
        print(f"warning: {report.skipped_lines} bad line(s) skipped", file=sys.stderr)
    if report.reviews_without_user:
        print(f"warning: {report.reviews_without_user} review(s) whose user is not in {user} (user left empty)",
              file=sys.stderr)
    if fmt == "parquet":
        from dinecheck.dataset import load_dataset
        from dinecheck.dataset.parquet import write_parquet

        try:
            write_parquet(load_dataset(target, stream=True)[0], out)
        finally:
            shutil.rmtree(target, ignore_errors=True)
    typer.echo(f"wrote {report.restaurants} restaurants, {report.reviews} reviews by {report.users} users to {out}")
