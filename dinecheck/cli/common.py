"""Shared CLI plumbing: running the app with one-line errors, printing JSON lines, and loading datasets."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from dinecheck.dataset import Dataset, Restaurant, load_dataset
from dinecheck.errors import DataError, DinecheckError
from dinecheck.requests.lint import did_you_mean

LenientOpt = typer.Option(False, "--lenient", help="Skip bad dataset lines with a counted warning instead of failing.")
DataDirOpt = Annotated[Path, typer.Option("--data", help="Dataset directory (restaurants.jsonl, reviews.jsonl).")]
RestaurantOpt = Annotated[
    Optional[list[str]], typer.Option("--restaurant", help="Only this restaurant: business_id or unique name "
                                                           "(repeatable).")
]


def run_app(app: typer.Typer, argv: list[str] | None = None) -> int:
    """Run the typer app and return its exit code.

    A :class:`DinecheckError` becomes one ``error: <location>: <reason>`` line on stderr and its exit code (2 for bad
    input); usage errors are typer's own (exit 2). Tests call this with ``argv`` and read stdout/stderr.
    """
    try:
        app(args=argv, prog_name="dinecheck")
    except SystemExit as ex:
        code = ex.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except DinecheckError as err:
        sys.stdout.flush()
        print(f"error: {err}", file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:
        return 0
    return 0


def echo_json(obj: Any) -> None:
    """Print one compact JSON line (UTF-8, no ASCII escaping)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def load_data(data: Path, lenient: bool) -> Dataset:
    """Load a dataset; in lenient mode print every skipped line and the count to stderr."""
    ds, report = load_dataset(data, lenient=lenient)
    if report.skipped:
        for w in report.warnings:
            print(f"warning: skipped {w}", file=sys.stderr)
        print(f"warning: {report.skipped} bad line(s) skipped (--lenient)", file=sys.stderr)
    return ds


def resolve_restaurant(ds: Dataset, text: str, data: Path | str, where: str) -> Restaurant:
    """The restaurant named on the command line: a business id, else a unique name (exact, then ignoring case).

    An ambiguous name lists the matching ids; an unknown one suggests close names. Errors are DataErrors at ``where``.
    """
    hit = ds.restaurant(text)
    if hit is not None:
        return hit
    named = [r for r in ds.restaurants if r.name == text] or [r for r in ds.restaurants
                                                              if r.name.lower() == text.lower()]
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(r.business_id for r in named[:5]) + (", …" if len(named) > 5 else "")
        raise DataError(f"{len(named)} restaurants are named {text!r} ({ids}); give a business_id", where)
    close = did_you_mean(text, [r.name for r in ds.restaurants])
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    raise DataError(f"no restaurant with business_id {text!r} in {data}{hint}", where)


def select_restaurants(ds: Dataset, business_ids: Sequence[str] | None, data: Path) -> list[Restaurant]:
    """The restaurants named by ``--restaurant`` (business ids or unique names; in that order, once each), or all of
    them in dataset order."""
    chosen = [resolve_restaurant(ds, b, data, f"--restaurant {b}") for b in dict.fromkeys(business_ids or [])]
    return list({r.business_id: r for r in chosen}.values()) if chosen else list(ds.restaurants)
