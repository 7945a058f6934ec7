"""CLI: ``dinecheck seed extract`` (the filter and extraction stages alone) and ``dinecheck seed compile`` (Phase 1).

``dinecheck/cli/seed.py`` registers :data:`COMMANDS` on the ``seed`` group.

``seed extract SEED.json --data DIR [--extractor …] [--json]`` prints, with ``--json``, one label line per relevant
review on stdout — ``{"business_id", "review_id", "status", "extraction", "evidence": {F: {"quote", "verified",
"cue"?}}, "extractor": {"kind", "model", "version"}}`` (plus ``"error"`` when the status is not ``ok``) — and only
those, so the output replays as is (``--extractor replay:FILE``, ``seed eval --extracted FILE --data DIR``, ``seed
score``); the summary ``{"summary": {"reviews", "calls", "cache_hits", "retries", "tokens_in", "tokens_out", "cost",
"statuses", "budget_exceeded", "extractor"}}`` goes to stderr. Exit 0 when every review is ``ok``; exit 1 when any review is ``error`` or
``invalid`` (including when ``--max-cost`` stopped the run; the output is still complete: unanswered reviews have
status ``error``).

``seed score --labels A.jsonl --reference B.jsonl [--seed SEED.json] [--json]`` compares two label files (see
:mod:`dinecheck.extract.score`).

``seed compile TASK.md --out SEED.json`` writes the seed only when it passes the static check (exit 0); otherwise it
prints the last round's errors and exits 1. Without a configured model it exits 2 saying how to configure one.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dinecheck.cli.common import DataDirOpt, LenientOpt, RestaurantOpt, echo_json, load_data, select_restaurants
from dinecheck.cli.extractor_options import (
    ApiKeyOpt,
    BaseUrlOpt,
    ConfigOpt,
    ExtractorChoice,
    ModelOpt,
    ParallelChoice,
    build_options,
    resolve_extractor,
    with_extractor_options,
    with_parallel_options,
)
from dinecheck.errors import BudgetExceeded, DataError, SpecError, StoreError
from dinecheck.extract.base import ExtractionResult, ReviewInput
from dinecheck.files import require_file

if TYPE_CHECKING:
    from dinecheck.formula import CompiledSeed


def relevant_reviews(compiled: CompiledSeed, data: Path, restaurants: list[str] | None, lenient: bool) -> list[ReviewInput]:
    """The dataset's reviews that pass the seed's keyword filter, restaurant by restaurant in dataset order."""
    from dinecheck.formula.run import review_meta

    dataset = load_data(data, lenient)
    return [
        ReviewInput(rv.business_id, rv.review_id, rv.text, review_meta(rv))
        for rest in select_restaurants(dataset, restaurants, data)
        for rv in compiled.filter_reviews(dataset.reviews_of(rest.business_id))
    ]


def result_line(res: ExtractionResult, extractor: dict[str, Any] | None = None) -> dict[str, Any]:
    line: dict[str, Any] = {
        "business_id": res.business_id,
        "review_id": res.review_id,
        "status": res.status,
        "extraction": dict(res.values),
        "evidence": {
            k: {"quote": e.quote, "verified": e.verified} | ({"cue": e.cue} if e.cue is not None else {})
            for k, e in res.evidence.items()
        },
    }
    if res.status != "ok":
        line["error"] = res.error
    if extractor is not None:
        line["extractor"] = extractor
    return line


@with_parallel_options
@with_extractor_options
def extract_cmd(
    seed: Annotated[Path, typer.Argument(help="Formula Seed JSON file.")],
    data: DataDirOpt,
    extraction: ExtractorChoice,
    parallel: ParallelChoice,
    restaurant: RestaurantOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON line per review, then a summary line.")] = False,
    lenient: bool = LenientOpt,
) -> None:
    """Run the filter and extraction stages of a seed over a dataset and print every relevant review's labels."""
    from dinecheck.extract.factory import describe_extractor, extractor_info, make_extractor
    from dinecheck.formula import build_seed, load_seed

    compiled = build_seed(load_seed(seed))  # every seed problem is reported before any review is read
    for w in compiled.warnings:
        typer.echo(f"warning: {seed}: {w.pointer or '/'}: {w.reason}", err=True)
    from dinecheck import executors

    name = resolve_extractor(extraction.name, extraction.options)
    ex = make_extractor(name, extraction.options)  # configuration errors surface here, before any worker starts
    info = extractor_info(ex)
    pool = executors.make_executor(parallel.executor, parallel.workers, parallel.ray_address, name)
    if pool is not None:
        ex.close()
        dataset = load_data(data, lenient)
        chosen = select_restaurants(dataset, restaurant, data)
        results, stats, budget_reason = executors.extract_seed(
            pool, compiled, data, dataset, chosen, executors.worker_extractor(name), extraction.options, lenient=lenient)
        budget = BudgetExceeded(budget_reason, "--max-cost") if budget_reason is not None else None
    else:
        reviews = relevant_reviews(compiled, data, restaurant, lenient)
        try:
            results = ex.extract(compiled.fields, reviews)
        finally:
            ex.close()
        budget, stats = getattr(ex, "budget_error", None), ex.stats
    summary: dict[str, Any] = stats.as_dict()
    summary["statuses"] = dict(Counter(r.status for r in results))
    summary["budget_exceeded"] = budget.reason if budget is not None else None
    summary["extractor"] = info
    if as_json:
        for res in results:
            echo_json(result_line(res, info))
        sys.stdout.flush()
        typer.echo(json.dumps({"summary": summary}, ensure_ascii=False), err=True)
    else:
        typer.echo(f"extractor: {describe_extractor(info)}")
        for res in results:
            labels = " ".join(f"{k}={v}" for k, v in res.values.items()) or f"({res.error})"
            typer.echo(f"{res.business_id} {res.review_id} {res.status:7} {labels}")
        typer.echo(
            f"{summary['reviews']} reviews · {summary['calls']} calls · {summary['cache_hits']} cache hits · "
            f"{summary['retries']} retries · tokens {summary['tokens_in']}/{summary['tokens_out']} · "
            f"cost ${summary['cost']:.4f} · " + ", ".join(f"{k} {v}" for k, v in sorted(summary["statuses"].items()))
        )
    if budget is not None:
        sys.stdout.flush()
        typer.echo(f"error: {budget}", err=True)
    if budget is not None or any(res.status != "ok" for res in results):
        raise typer.Exit(1)


def compile_cmd(
    task: Annotated[Path, typer.Argument(help="Task description (Markdown or text).")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Where to write the seed (only when it passes the check).")
    ] = None,
    print_prompt: Annotated[
        bool, typer.Option("--print-prompt", help="Print the messages that would be sent, as JSON, and stop (no model).")
    ] = False,
    rounds: Annotated[int, typer.Option("--rounds", min=1, max=3, help="Model answers at most (≤ 3).")] = 3,
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    api_key: ApiKeyOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Phase 1: ask the configured model for a Formula Seed for TASK, check it, repair it (≤ 3 rounds), write it."""
    from dinecheck.compile import MAX_TASK_CHARS, compile_messages, compile_task
    from dinecheck.extract.chat import ChatClient, resolve_config

    require_file(task, SpecError)
    try:
        text = task.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"cannot read the task ({getattr(exc, 'strerror', None) or exc})", str(task)) from None
    if len(text) > MAX_TASK_CHARS:
        raise SpecError(f"the task is longer than {MAX_TASK_CHARS} characters", str(task))
    if print_prompt:
        sys.stdout.write(json.dumps(compile_messages(text), indent=2, ensure_ascii=False) + "\n")
        return
    if out is None:
        raise SpecError("--out is required (or use --print-prompt)", "seed compile")
    options = build_options(base_url=base_url, model=model, api_key=api_key, config=config)
    cfg = resolve_config(options, location="seed compile")
    client = ChatClient(cfg)
    try:
        result = compile_task(text, client, max_rounds=rounds)
    finally:
        client.close()
    s = client.stats
    tally = f"{len(result.rounds)} round(s), {s.calls} calls, tokens {s.tokens_in}/{s.tokens_out}"
    if result.seed is None:
        for p in result.last_errors:
            typer.echo(f"error: {p.pointer or '/'}: {p.reason}", err=True)
        typer.echo(f"error: seed compile: no valid seed after {tally}; nothing written", err=True)
        raise typer.Exit(1)
    tmp = out.with_name(out.name + ".tmp")
    try:
        tmp.write_text(json.dumps(result.seed, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        raise StoreError(f"cannot write the seed ({exc.strerror})", str(out)) from None
    typer.echo(f"wrote {out} ({tally})")


def score_cmd(
    labels: Annotated[Path, typer.Option("--labels", help="Label file to score (JSONL: review_id, extraction).")],
    reference: Annotated[Path, typer.Option("--reference", help="Reference label file (taken as truth).")],
    seed: Annotated[
        Path | None, typer.Option("--seed", help="Seed whose fields say which value means 'nothing here'.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Compare two label files: per field and value precision, recall, F1, confusion matrix and Cohen's kappa."""
    from dinecheck.extract.score import read_labels, report_json, report_text, score_labels

    nulls: dict[str, frozenset[str]] | None = None
    if seed is not None:
        from dinecheck.formula import build_seed, load_seed

        nulls = {f.name: frozenset({f.null_value}) for f in build_seed(load_seed(seed)).fields if f.null_value}
    report = score_labels(read_labels(labels), read_labels(reference), nulls)
    if report.compared == 0:
        raise DataError("no review is labelled in both files", f"{labels}, {reference}")
    if as_json:
        echo_json(report_json(report))
    else:
        typer.echo(report_text(report))


COMMANDS: dict[str, Callable[..., None]] = {"extract": extract_cmd, "compile": compile_cmd, "score": score_cmd}
