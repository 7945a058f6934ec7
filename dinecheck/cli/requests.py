"""CLI: ``dinecheck requests validate | match | schema | shorthand`` — a thin shell over :mod:`dinecheck.requests`.

Contract (other tools depend on it): ``validate`` exits 0 when every request is ``ok``, 1 otherwise, 2 on invalid
input; ``--json`` prints one object per request with exactly ``request_id, group, status, matches, gold_restaurant``.
``match`` exits 0 when at least one restaurant matches, 1 when none does, 2 on invalid input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from dinecheck.cli.common import LenientOpt, echo_json, load_data
from dinecheck.errors import RequestError, ShorthandError
from dinecheck.requests import shorthand as sh
from dinecheck.requests.evaluate import Engine, NodeResult
from dinecheck.requests.load import find_request, load_groundtruth, load_request, load_requests
from dinecheck.requests.schema import request_json_schema
from dinecheck.requests.validate import STATUSES, summary_by_group, validate_requests

app = typer.Typer(help="Evaluate, explain and validate structured restaurant requests.", no_args_is_help=True)

DataOpt = typer.Option(..., "--data", help="Dataset directory (restaurants.jsonl, reviews.jsonl, social.json).")


@app.command()
def validate(
    data: Path = DataOpt,
    requests: Path = typer.Option(..., "--requests", help="Requests file (JSON Lines)."),
    groundtruth: Path | None = typer.Option(None, "--groundtruth",
                                               help="Gold answers (request_id, gold_restaurant)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per request."),
    lenient: bool = LenientOpt,
) -> None:
    """Evaluate every request against every restaurant and report its status (exit 0 only when all are ok)."""
    reqs = load_requests(requests)
    gold = load_groundtruth(groundtruth) if groundtruth is not None else None
    ds = load_data(data, lenient)
    results = validate_requests(Engine(ds), reqs, gold)
    if as_json:
        for r in results:
            echo_json(r.to_json())
        for r in results:
            for w in r.warnings:
                print(f"warning: {r.request_id}: {w}", file=sys.stderr)
    else:
        names = {x.business_id: x.name for x in ds.restaurants}
        typer.echo(f"{'request':<8} {'group':<6} {'status':<15} {'matches':>7}  gold")
        for r in results:
            gold_txt = f"{r.gold_restaurant} ({names.get(r.gold_restaurant or '', '?')})" if r.gold_restaurant else "-"
            typer.echo(f"{r.request_id:<8} {r.group or '-':<6} {r.status:<15} {len(r.matches):>7}  {gold_txt}")
        warned = [(r.request_id, w) for r in results for w in r.warnings]
        if warned:
            typer.echo("")
            for rid, w in warned:
                typer.echo(f"warning: {rid}: {w}")
        typer.echo("")
        typer.echo(f"{'group':<6} {'total':>5} " + " ".join(f"{s:>14}" for s in STATUSES))
        for g, counts in summary_by_group(results).items():
            typer.echo(f"{g:<6} {sum(counts.values()):>5} " + " ".join(f"{counts[s]:>14}" for s in STATUSES))
        n_ok = sum(1 for r in results if r.status == "ok")
        typer.echo(f"\n{n_ok} of {len(results)} requests ok")
    if any(r.status != "ok" for r in results):
        raise typer.Exit(1)


_MARK = {1: "+1", 0: " 0", -1: "-1"}


def render_explanation(node: NodeResult, depth: int = 0) -> list[str]:
    pad = "  " * depth
    if node.op is not None:
        lines = [f"{pad}[{_MARK[node.value]}] {node.op}"]
        for c in node.children:
            lines += render_explanation(c, depth + 1)
        return lines
    assert node.outcome is not None
    ev = node.outcome.evidence
    facts = []
    for key in ("value", "open", "required", "threshold", "circle", "matching_reviews", "credible_matching_reviews",
                "qualifying_reviews", "passing_reviews"):
        if key in ev:
            val = ev[key]
            if isinstance(val, list) and len(val) > 6:
                val = val[:6] + [f"… {len(ev[key]) - 6} more"]
            facts.append(f"{key}={val}")
    return [f"{pad}[{_MARK[node.value]}] {node.aspect}: {node.description}",
            f"{pad}      rule: {node.outcome.rule}" + (f"; {'; '.join(facts)}" if facts else "")]


@app.command()
def match(
    data: Path = DataOpt,
    request: Path | None = typer.Option(None, "--request", help="One request as a JSON file."),
    requests: Path | None = typer.Option(None, "--requests", help="Requests file (JSON Lines); use with --id."),
    request_id: str | None = typer.Option(None, "--id", help="Which request of --requests."),
    show_all: bool = typer.Option(False, "--all", help="Every restaurant, ranked by value then conditions that hold."),
    explain: bool = typer.Option(False, "--explain", help="Show the evaluated tree with each condition's evidence."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per restaurant."),
    lenient: bool = LenientOpt,
) -> None:
    """Show the restaurants matching one request (exit 0 when at least one matches, 1 when none does)."""
    if (request is None) == (requests is None):
        raise RequestError("give exactly one of --request FILE.json or --requests FILE --id ID", "match")
    if requests is not None:
        if not request_id:
            raise RequestError("--requests needs --id to choose a request", "match")
        req = find_request(load_requests(requests), request_id, str(requests))
    else:
        if request_id:
            raise RequestError("--id goes with --requests, not --request", "match")
        req = load_request(request)  # type: ignore[arg-type]
    ds = load_data(data, lenient)
    engine = Engine(ds)
    ranked = engine.rank(req)
    shown = ranked if show_all else [x for x in ranked if x.value == 1]
    if not show_all:
        shown.sort(key=lambda x: x.restaurant.index)
    n_match = sum(1 for x in ranked if x.value == 1)
    for pos, x in enumerate(shown, start=1):
        r = x.restaurant
        if as_json:
            obj: dict[str, Any] = {"request_id": req.id, "rank": pos, "business_id": r.business_id, "name": r.name,
                                   "value": x.value, "leaves_true": x.leaves_true, "n_leaves": x.n_leaves}
            if explain:
                obj["explanation"] = x.tree.to_dict()
            echo_json(obj)
            continue
        typer.echo(f"{pos:>3}. [{_MARK[x.value]}] {r.business_id}  {r.name}  "
                   f"({x.leaves_true}/{x.n_leaves} conditions hold)")
        if explain:
            for line in render_explanation(x.tree, 2):
                typer.echo(line)
    if not as_json:
        typer.echo(f"{n_match} restaurant(s) match request {req.id}")
    if n_match == 0:
        raise typer.Exit(1)


@app.command()
def schema() -> None:
    """Print the JSON Schema of one request."""
    typer.echo(json.dumps(request_json_schema(), indent=2))


@app.command("shorthand")
def shorthand_cmd(
    requests: Path | None = typer.Option(None, "--requests",
                                            help="Print the shorthand derived from each structure."),
    request_id: str | None = typer.Option(None, "--id", help="Only this request of --requests."),
    parse: str | None = typer.Option(None, "--parse", help="Parse shorthand text and print it back normalised."),
) -> None:
    """Derive shorthand from request structures, or parse shorthand text (exit 1 when a shorthand disagrees)."""
    if (requests is None) == (parse is None):
        raise ShorthandError("give exactly one of --requests FILE or --parse TEXT", "shorthand")
    if parse is not None:
        typer.echo(sh.to_text(sh.parse(parse)))
        return
    reqs = load_requests(requests)  # type: ignore[arg-type]
    if request_id:
        reqs = [find_request(reqs, request_id, str(requests))]
    bad = 0
    for r in reqs:
        derived = sh.to_text(sh.from_structure(r.structure))
        problems = sh.compare(r.shorthand, r.structure) if r.shorthand is not None else []
        typer.echo(f"{r.id}\t{derived}" + ("" if not problems else "\t(disagrees: " + "; ".join(problems) + ")"))
        bad += bool(problems)
    if bad:
        raise typer.Exit(1)
