"""Shared CLI plumbing: running the app with one-line errors, printing JSON lines, and loading datasets."""

from __future__ import annotations

import gc
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dinecheck.errors import DataError, DinecheckError, EvaluationError

if TYPE_CHECKING:
    from dinecheck.dataset import Dataset, Restaurant

LenientOpt = typer.Option(False, "--lenient", help="Skip bad dataset lines with a counted warning instead of failing.")
DataDirOpt = Annotated[Path, typer.Option("--data", help="Dataset directory (JSONL or Parquet; see docs/data.md).")]
RestaurantOpt = Annotated[
    list[str] | None, typer.Option("--restaurant", help="Only this restaurant: business_id or unique name "
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
    """Print one compact JSON line (UTF-8, no ASCII escaping).

    JSON has no NaN or Infinity: a non-finite number is an :class:`EvaluationError` naming where it is in the
    output, never an invalid ``NaN`` token and never a silent ``null``.
    """
    try:
        line = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except ValueError:
        where = _non_finite_path(obj, "")
        raise EvaluationError("the result is not a finite number (NaN or Infinity), which JSON cannot hold",
                              f"output {where or '/'}") from None
    sys.stdout.write(line + "\n")


def _non_finite_path(obj: Any, at: str) -> str | None:
    if isinstance(obj, float) and not math.isfinite(obj):
        return at
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, (list, tuple)) else ()
    for k, v in items:
        found = _non_finite_path(v, f"{at}/{k}")
        if found is not None:
            return found
    return None


def load_data(data: Path, lenient: bool, *, stream: bool | None = None) -> Dataset:
    """Load a dataset (either format); in lenient mode print every skipped line and the count to stderr.

    ``DINECHECK_STREAM`` (``auto`` | ``always`` | ``never``) overrides when a JSONL dataset is streamed.
    """
    if stream is None:
        mode = os.environ.get("DINECHECK_STREAM", "auto").strip().lower()
        if mode not in ("auto", "always", "never"):
            raise DataError("expected auto, always or never", f"DINECHECK_STREAM={mode}")
        stream = {"auto": None, "always": True, "never": False}[mode]
    from dinecheck.dataset import load_dataset  # imported when a command needs it: `dinecheck --help` stays light

    ds, report = load_dataset(data, lenient=lenient, stream=stream)
    gc.freeze()  # what stays loaded for the whole command is left out of the collector's passes from now on
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
    from dinecheck.requests.lint import did_you_mean

    close = did_you_mean(text, [r.name for r in ds.restaurants])
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    raise DataError(f"no restaurant with business_id {text!r} in {data}{hint}", where)


def select_restaurants(ds: Dataset, business_ids: Sequence[str] | None, data: Path) -> list[Restaurant]:
    """The restaurants named by ``--restaurant`` (business ids or unique names; in that order, once each), or all of
    them in dataset order."""
    chosen = [resolve_restaurant(ds, b, data, f"--restaurant {b}") for b in dict.fromkeys(business_ids or [])]
    return list({r.business_id: r for r in chosen}.values()) if chosen else list(ds.restaurants)
