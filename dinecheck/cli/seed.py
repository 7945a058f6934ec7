"""CLI: ``dinecheck seed schema | check | run | eval`` — a thin shell over :mod:`dinecheck.formula`.

Contract (other tools depend on it):

* ``seed check SEED.json [--json]`` exits 0 when the seed is valid (warnings allowed), 2 otherwise, listing every
  problem as ``error|warning: POINTER: REASON``.
* ``seed run SEED.json --data DIR --extractor replay:FILE [--restaurant ID …] [--json] [--trace]`` and
  ``seed eval SEED.json --extracted FILE [--json] [--trace]`` print with ``--json`` one line per restaurant:
  ``{"business_id", "name", "n_filtered", "status": "complete"|"incomplete", "outputs": {…}}`` plus
  ``failed_reviews`` and ``flagged_outputs`` when incomplete and ``trace`` with ``--trace``. They exit 0 when every
  restaurant is complete, 1 when any is incomplete, 2 on invalid input or a run-time fault.

``seed extract`` / ``seed compile`` live in :mod:`dinecheck.cli.seed_extract` and are registered below.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from dinecheck import executors
from dinecheck.cli import seed_extract
from dinecheck.cli.common import DataDirOpt, LenientOpt, RestaurantOpt, echo_json, load_data, select_restaurants
from dinecheck.cli.extractor_options import (
    ExtractorChoice,
    ParallelChoice,
    resolve_extractor,
    with_extractor_options,
    with_parallel_options,
)
from dinecheck.dataset.loader import iter_jsonl
from dinecheck.errors import DataError, Problem
from dinecheck.extract.factory import describe_extractor, extractor_info, make_extractor
from dinecheck.formula.check import pointer
from dinecheck.formula.ops import ReviewRecord
from dinecheck.formula.run import (
    CompiledSeed,
    FailedReview,
    RestaurantResult,
    build_seed,
    check_seed_file,
    derive_year,
    load_seed,
)
from dinecheck.formula.schema import seed_json_schema

app = typer.Typer(help="Formula Seeds: check, run, evaluate, extract, compile.", no_args_is_help=True)

SeedArg = Annotated[Path, typer.Argument(help="The Formula Seed (JSON).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object per restaurant.")]
TraceOpt = Annotated[bool, typer.Option("--trace", help="Include each step's value and the reviews behind it.")]


@app.command("schema")
def schema() -> None:
    """Print the JSON Schema of a Formula Seed."""
    sys.stdout.write(json.dumps(seed_json_schema(), indent=2) + "\n")


@app.command("check")
def check(seed: SeedArg, as_json: JsonOpt = False) -> None:
    """Statically check a seed and list every problem (exit 0 when valid, 2 otherwise)."""
    result = check_seed_file(seed)
    if as_json:
        echo_json({"seed": str(seed), "ok": result.ok, "problems": [_problem_json(p) for p in result.problems]})
    else:
        for p in result.problems:
            typer.echo(str(p))
        n_err, n_warn = len(result.errors), len(result.warnings)
        if result.ok:
            assert result.seed is not None
            typer.echo(f"{seed}: ok ({len(result.seed.compute)} steps, {len(result.seed.output)} outputs, {n_warn} warning(s))")
        else:
            typer.echo(f"{seed}: {n_err} error(s), {n_warn} warning(s)")
    if not result.ok:
        raise typer.Exit(2)


def _problem_json(p: Problem) -> dict[str, str]:
    return {"pointer": p.pointer, "reason": p.reason, "severity": p.severity}


def _compile(seed: Path) -> CompiledSeed:
    compiled = build_seed(load_seed(seed))
    for w in compiled.warnings:
        print(f"warning: {seed}: {w.pointer or '/'}: {w.reason}", file=sys.stderr)
    return compiled


@app.command("run")
@with_parallel_options
@with_extractor_options
def run(
    seed: SeedArg,
    data: DataDirOpt,
    extraction: ExtractorChoice,
    parallel: ParallelChoice,
    restaurant: RestaurantOpt = None,
    as_json: JsonOpt = False,
    trace: TraceOpt = False,
    lenient: bool = LenientOpt,
) -> None:
    """Run a seed over a dataset: keyword filter → extract → compute → outputs, one result per restaurant."""
    compiled = _compile(seed)  # every seed problem is reported before any review is read
    ds = load_data(data, lenient)
    chosen = select_restaurants(ds, restaurant, data)
    name = resolve_extractor(extraction.name, extraction.options)
    ext = make_extractor(name, extraction.options)  # configuration errors surface here, before any worker starts
    pool = executors.make_executor(parallel.executor, parallel.workers, parallel.ray_address, name)
    if pool is not None:
        info = extractor_info(ext)
        ext.close()
        _emit(executors.run_seed(pool, compiled, data, ds, chosen, executors.worker_extractor(name), extraction.options,
                                 trace=trace, lenient=lenient), as_json, trace, info)
        return
    try:  # streamed: each restaurant is printed (and its trace freed) as soon as it is computed
        _emit(compiled.iter_run(((r, ds.reviews_of(r.business_id)) for r in chosen), ext, trace=trace), as_json, trace,
              extractor_info(ext))
    finally:
        ext.close()


@app.command("eval")
def evaluate(
    seed: SeedArg,
    extracted: Annotated[
        Path,
        typer.Option(
            "--extracted",
            help="JSONL: business_id, context, reviews[meta, extraction]; with --data: label lines (seed extract --json).",
        ),
    ],
    data: Annotated[
        Path | None, typer.Option("--data", help="Dataset directory: --extracted is then a label file, one line per review.")
    ] = None,
    restaurant: RestaurantOpt = None,
    as_json: JsonOpt = False,
    trace: TraceOpt = False,
    lenient: bool = LenientOpt,
) -> None:
    """The compute stage alone, on already-extracted reviews (per restaurant, or label lines plus --data)."""
    compiled = _compile(seed)
    if data is not None:  # label lines (as `seed extract --json` prints them): the dataset gives restaurants and meta
        from dinecheck.extract.replay import ReplayExtractor

        ds = load_data(data, lenient)
        chosen = select_restaurants(ds, restaurant, data)
        ext = ReplayExtractor(extracted)
        _emit(compiled.iter_run(((r, ds.reviews_of(r.business_id)) for r in chosen), ext, trace=trace), as_json, trace,
              extractor_info(ext))
        return
    if restaurant:
        raise DataError("--restaurant needs --data", "seed eval")
    results = (compiled.evaluate(*_eval_line(compiled, obj, f"{extracted}:{ln}"), trace=trace) for ln, obj in _lines(extracted))
    _emit(results, as_json, trace)  # streamed: one line per input line


def _lines(path: Path) -> Any:
    for lineno, obj in iter_jsonl(path):
        if isinstance(obj, DataError):
            raise obj
        yield lineno, obj


def _eval_line(compiled: CompiledSeed, obj: dict[str, Any], loc: str) -> tuple[Any, ...]:
    bid = obj.get("business_id")
    if not isinstance(bid, str) or not bid:
        raise DataError("missing or empty 'business_id'", loc)
    context = obj.get("context", {})
    if not isinstance(context, dict):
        raise DataError("'context' must be an object", f"{loc} {pointer('context')}")
    reviews = obj.get("reviews")
    if not isinstance(reviews, list):
        raise DataError("'reviews' must be a list", f"{loc} {pointer('reviews')}")
    records: list[ReviewRecord] = []
    failed: list[FailedReview] = []
    for j, rv in enumerate(reviews):
        where = f"{loc} {pointer('reviews', j)}"
        if not isinstance(rv, dict):
            raise DataError("a review must be an object", where)
        rid = rv.get("review_id", f"#{j}")
        if not isinstance(rid, str):
            raise DataError("'review_id' must be a string", where)
        meta = rv.get("meta", {})
        if not isinstance(meta, dict):
            raise DataError("'meta' must be an object", f"{where}/meta")
        ext = rv.get("extraction")
        if ext is None:
            failed.append(FailedReview(rid, "error", "no extraction (null) in the input"))
            continue
        if not isinstance(ext, dict):
            raise DataError("'extraction' must be an object or null", f"{where}/extraction")
        values: dict[str, Any] = {}
        for f in compiled.fields:
            v = ext.get(f.name)
            if v not in f.values:
                got = "missing" if v is None else repr(v)
                raise DataError(f"extraction.{f.name} is {got}; expected one of {', '.join(f.values)}", f"{where}/extraction/{f.name}")
            values[f.name] = v
        records.append(ReviewRecord(rid, derive_year(meta), values))
    name = context.get("name") if isinstance(context.get("name"), str) else obj.get("name", "")
    return bid, str(name or ""), context, records, len(reviews), failed


def _emit(
    results: Iterable[RestaurantResult], as_json: bool, trace: bool, extractor: dict[str, Any] | None = None
) -> None:
    """Print each result as it comes (naming the extractor that answered); exit 1 when any is incomplete."""
    console = None if as_json else Console(soft_wrap=True)
    if console is not None and extractor is not None:
        console.print(f"extractor: {describe_extractor(extractor)}", markup=False, highlight=False)
    incomplete = False
    for r in results:
        incomplete |= r.status != "complete"
        if console is None:
            line = r.to_json(trace=trace)
            if extractor is not None:
                line["extractor"] = extractor
            echo_json(line)
        else:
            _print_table(console, r, trace)
    if incomplete:
        raise typer.Exit(1)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v


def _print_table(console: Console, r: RestaurantResult, trace: bool) -> None:
    # Text objects, never markup: names and values come from untrusted data and seeds ("[/bold]" must print as is).
    title = Text(f"{r.name} ({r.business_id}) — {r.status}, {r.n_filtered} relevant review(s)")
    table = Table(title=title, title_justify="left")
    table.add_column("output")
    table.add_column("value", justify="right")
    table.add_column("flag")
    for k, v in r.outputs.items():
        table.add_row(Text(k), Text(_fmt(v)), Text("depends on failed reviews" if k in r.flagged_outputs else ""))
    console.print(table)
    for f in r.failed_reviews:
        console.print(f"  failed review {f.review_id}: {f.status}: {f.error}", markup=False)
    if trace and r.trace:
        for t in r.trace:
            line = f"  {t.name} [{t.op}] = {_fmt(t.value)}" if t.op != "define_filter" else f"  {t.name} [filter]"
            if t.reviews is not None:
                line += f"  reviews: {', '.join(t.reviews) or '-'}"
            if t.detail:
                line += f"  {json.dumps(t.detail, ensure_ascii=False)}"
            console.print(line, markup=False, highlight=False)


for _name, _fn in seed_extract.COMMANDS.items():
    app.command(_name)(_fn)
