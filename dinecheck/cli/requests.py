"""CLI: ``dinecheck requests validate | match | catalog | matrix | suggest | list | schema | shorthand`` — a thin
shell over :mod:`dinecheck.requests`.

Contract (other tools depend on it): ``validate`` exits 0 when every request is ``ok``, 1 otherwise, 2 on invalid
input; ``--json`` prints one object per request with exactly ``request_id, group, status, matches, gold_restaurant``.
``match`` exits 0 when at least one restaurant matches, 1 when none does, 2 on invalid input.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from dinecheck.cli.common import LenientOpt, echo_json, load_data, resolve_restaurant
from dinecheck.cli.model_options import ApiKeyOpt, BaseUrlOpt, ConfigOpt, ModelOpt
from dinecheck.dataset import Dataset
from dinecheck.errors import DataError, LintError, RequestError, ShorthandError
from dinecheck.requests import shorthand as sh
from dinecheck.requests.catalog import Catalog, build_catalog
from dinecheck.requests.evaluate import Engine, NodeResult
from dinecheck.requests.lint import Linter, needs_review_catalog
from dinecheck.requests.load import (
    find_request,
    load_groundtruth,
    load_request,
    load_requests,
)
from dinecheck.requests.matrix import build_matrix
from dinecheck.requests.schema import Request, request_json_schema
from dinecheck.requests.suggest import DEFAULT_MAX_CONDITIONS, Suggester, Suggestion
from dinecheck.requests.validate import (
    ALL_STATUSES,
    STATUSES,
    SUCCESS_STATUSES,
    summary_by_group,
    validate_requests,
)

app = typer.Typer(help="Evaluate, explain and validate structured restaurant requests.", no_args_is_help=True)

DataOpt = typer.Option(..., "--data", help="Dataset directory (restaurants.jsonl, reviews.jsonl, social.json).")
StrictOpt = typer.Option(False, "--strict", help="Lint warnings (value never seen, unknown friend, pattern matching "
                                                 "no review) are errors too.")
NoLintOpt = typer.Option(False, "--no-lint", help="Skip the lint of conditions against the dataset's catalog.")


def lint_or_fail(ds: Dataset, reqs: Sequence[Request], source: str, *, strict: bool) -> None:
    """Lint requests against the dataset: warnings go to stderr; an error (or, with ``strict``, any finding) raises a
    :class:`LintError` naming the request id and JSON pointer (exit 2). Evaluation itself is unchanged."""
    issues = Linter(build_catalog(ds, reviews=needs_review_catalog(reqs)), ds).lint_all(reqs)
    fatal = [i for i in issues if strict or i.severity == "error"]
    for i in issues:
        if i not in fatal:
            print(f"warning: {i}", file=sys.stderr)
    if fatal:
        first = fatal[0]
        more = f" (and {len(fatal) - 1} more lint finding(s))" if len(fatal) > 1 else ""
        for i in fatal[1:]:
            print(f"error: {source} {i}", file=sys.stderr)
        raise LintError(first.message + more, f"{source} {first.location}")


@app.command()
def validate(
    data: Path = DataOpt,
    requests: Path = typer.Option(..., "--requests", help="Requests file (JSON Lines)."),
    groundtruth: Path | None = typer.Option(None, "--groundtruth",
                                               help="Gold answers (request_id, gold_restaurant)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per request."),
    lenient: bool = LenientOpt,
    strict: bool = StrictOpt,
    no_lint: bool = NoLintOpt,
) -> None:
    """Evaluate every request against every restaurant and report its status (exit 0 only when all are ok, or
    unique for requests without a gold)."""
    reqs = load_requests(requests)
    gold = load_groundtruth(groundtruth) if groundtruth is not None else None
    ds = load_data(data, lenient)
    if not no_lint:
        lint_or_fail(ds, reqs, str(requests), strict=strict)
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
        columns = ALL_STATUSES if any(r.gold_restaurant is None for r in results) else STATUSES
        typer.echo(f"{'group':<6} {'total':>5} " + " ".join(f"{s:>14}" for s in columns))
        for g, counts in summary_by_group(results).items():
            typer.echo(f"{g:<6} {sum(counts.values()):>5} " + " ".join(f"{counts[s]:>14}" for s in columns))
        n_ok = sum(1 for r in results if r.status == "ok")
        n_unique = sum(1 for r in results if r.status == "unique")
        typer.echo(f"\n{n_ok} of {len(results)} requests ok" + (f", {n_unique} unique (no gold)" if n_unique else ""))
    if any(r.status not in SUCCESS_STATUSES for r in results):
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
    strict: bool = StrictOpt,
    no_lint: bool = NoLintOpt,
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
    if not no_lint:
        lint_or_fail(ds, [req], str(requests if requests is not None else request), strict=strict)
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


def render_catalog(cat: Catalog, max_values: int = 8) -> list[str]:
    """The catalog as text: attributes with values and counts, categories, hours, review fields, reviewers."""
    lines = [f"dataset {cat.source or '-'}: {cat.n_restaurants} restaurants, {cat.n_reviews} reviews", "",
             f"attributes ({len(cat.attributes)} paths; value=count, '-'=missing)"]
    for a in cat.attributes:
        if a.kind == "dict":
            vals = "sub-keys: " + ", ".join(a.children)
        else:
            shown = [f"{v.text}={v.count}" for v in a.values[:max_values]]
            if len(a.values) > max_values:
                shown.append(f"… {len(a.values) - max_values} more")
            vals = "  ".join(shown)
        lines.append(f"  {a.key:<34} {a.label:<30} {vals}  -={a.n_missing}")
    lines += ["", f"categories ({len(cat.categories)})"]
    lines += [f"  {c.count:>5}  {c.name}" for c in cat.categories]
    lines += ["", "hours (restaurants open / missing / malformed, earliest opening, latest closing)"]
    for h in cat.hours:
        j = h.to_json()
        lines.append(f"  {h.day:<10} {h.n_open:>5} {h.n_missing:>5} {h.n_malformed:>5}  "
                     f"{j['earliest_open'] or '-':>6} {j['latest_close'] or '-':>6}")
    lines += ["", "review metadata (path, kind, reviews with a value, min, max)"]
    lines += [f"  {'.'.join(f.path):<22} {f.kind:<7} {f.n_present:>7}  {f.min} .. {f.max}  ({f.label})"
              for f in cat.review_fields]
    lines += ["", (f"reviewers: {len(cat.reviewers)}; friend graph: {cat.friend_graph_people} people, "
                   f"{cat.friend_graph_edges} friendships")]
    return lines


@app.command()
def catalog(
    data: Path = DataOpt,
    as_json: bool = typer.Option(False, "--json", help="The whole catalog as one JSON object."),
    lenient: bool = LenientOpt,
) -> None:
    """List what requests can ask about: attribute paths with values and counts, categories, hours, review fields."""
    cat = build_catalog(load_data(data, lenient))
    if as_json:
        echo_json(cat.to_json())
        return
    for line in render_catalog(cat):
        typer.echo(line)


@app.command()
def matrix(
    data: Path = DataOpt,
    requests: Path = typer.Option(..., "--requests", help="Requests file (JSON Lines)."),
    out: Path | None = typer.Option(None, "--out", help="Write the matrix as JSON (condition_matrix.json)."),
    as_json: bool = typer.Option(False, "--json", help="Print the matrix as one JSON object."),
    lenient: bool = LenientOpt,
    strict: bool = StrictOpt,
    no_lint: bool = NoLintOpt,
) -> None:
    """Every request condition (by aspect) × every restaurant: +1/0/-1, with per-condition counts."""
    reqs = load_requests(requests)
    ds = load_data(data, lenient)
    if not no_lint:
        lint_or_fail(ds, reqs, str(requests), strict=strict)
    m = build_matrix(ds, reqs)
    obj = m.to_json()
    if out is not None:
        try:
            out.write_text(json.dumps(obj, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise DataError(f"cannot write the matrix ({exc.strerror})", str(out)) from None
    if as_json:
        echo_json(obj)
        return
    typer.echo(f"{'condition':<44} {'type':<16} {'+1':>5} {'0':>5} {'-1':>5}  requests")
    for c in m.conditions:
        k = c.counts()
        rids = sorted({rid for rid, _ in c.uses})
        shown = ", ".join(rids[:6]) + (f", … {len(rids) - 6} more" if len(rids) > 6 else "")
        typer.echo(f"{c.name:<44} {c.kind:<16} {k['+1']:>5} {k['0']:>5} {k['-1']:>5}  {shown}")
    typer.echo(f"\n{len(m.conditions)} conditions × {len(m.restaurants)} restaurants; "
               f"{len(m.unique_conditions())} unique, {len(m.rare_conditions())} rare (1-3 restaurants)"
               + (f"; written to {out}" if out is not None else ""))


@app.command()
def suggest(
    data: Path = DataOpt,
    gold: str = typer.Option(..., "--gold", help="The restaurant the request must single out: business_id or unique "
                                                 "name."),
    group: str = typer.Option("G01", "--group", help="Shape of the request: G01 … G10 (see docs/requests.md)."),
    max_conditions: int = typer.Option(DEFAULT_MAX_CONDITIONS, "--max-conditions", min=1,
                                       help="Most conditions in a suggested request."),
    limit: int = typer.Option(5, "--limit", min=1, help="How many suggestions at most."),
    as_json: bool = typer.Option(False, "--json", help="Print each suggestion as a request line (JSON Lines)."),
    lenient: bool = LenientOpt,
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    api_key: ApiKeyOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Suggest the smallest requests of a group's shape that only the gold restaurant satisfies (each validated ok).
    With a configured model, its draft of the text replaces the template when it mentions every condition.
    Exit 1 when none is found within --max-conditions."""
    ds = load_data(data, lenient)
    target = resolve_restaurant(ds, gold, data, f"--gold {gold}")
    found = Suggester(ds).suggest(target, group.upper(), max_conditions=max_conditions, limit=limit)
    drafts = _model_drafts(found, target.name, base_url, model, api_key, config)
    for i, s in enumerate(found, start=1):
        template = s.line["text"]
        draft = drafts.get(s.line["id"])
        line = {**s.line, "text": draft} if draft else s.line
        if as_json:
            echo_json(line)
            continue
        typer.echo(f"{i}. {s.line['shorthand']}")
        if draft:
            typer.echo(f"   text (model draft, checked): {draft}")
            typer.echo(f"   template: {template}")
        else:
            typer.echo(f"   text: {template}")
        counts = ", ".join(f"{a}={n}" for a, n in s.condition_counts)
        typer.echo(f"   {s.n_conditions} conditions; restaurants satisfying each: {counts}; status: ok")
    if not as_json:
        typer.echo(f"{len(found)} suggestion(s) of group {group.upper()} for {target.business_id} ({target.name})")
    if not found:
        raise typer.Exit(1)


def _model_drafts(found: Sequence[Suggestion], gold_name: str, base_url: str | None, model: str | None,
                  api_key: str | None, config: Path | None) -> dict[str, str]:
    """Model drafts of the texts (id → text) when a model is configured; rejected drafts are warnings on stderr."""
    from dinecheck.extract.chat import ENV_BASE_URL, configured_base_url

    if not found or not (base_url or os.environ.get(ENV_BASE_URL) or configured_base_url(config)):
        return {}
    from dinecheck.cli.extractor_options import build_options
    from dinecheck.extract.chat import ChatClient, resolve_config
    from dinecheck.requests.draft import draft_text

    cfg = resolve_config(build_options(base_url=base_url, model=model, api_key=api_key, config=config),
                         location="requests suggest")
    client = ChatClient(cfg)
    out: dict[str, str] = {}
    try:
        for s in found:
            d = draft_text(client, s.line["text"], list(s.phrases), s.request.structure, gold_name)
            if d.from_model:
                out[s.line["id"]] = d.text
            else:
                print(f"warning: {s.line['id']}: the model's draft was not used: {'; '.join(d.problems)}",
                      file=sys.stderr)
    finally:
        client.close()
    return out


@app.command("list")
def list_cmd(
    requests: Path = typer.Argument(..., help="Requests file (JSON Lines)."),
    data: Path | None = typer.Option(None, "--data", help="Also evaluate against this dataset and show statuses."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per request."),
    lenient: bool = LenientOpt,
) -> None:
    """List a request file: id, group, shorthand (derived from the structure), and the status when --data is given."""
    reqs = load_requests(requests)
    statuses: dict[str, tuple[str, int]] = {}
    if data is not None:
        ds = load_data(data, lenient)
        statuses = {r.request_id: (r.status, len(r.matches)) for r in validate_requests(Engine(ds), reqs)}
    for r in reqs:
        short = sh.to_text(sh.from_structure(r.structure))
        if as_json:
            obj: dict[str, Any] = {"id": r.id, "group": r.group, "shorthand": short}
            if r.id in statuses:
                obj["status"], obj["matches"] = statuses[r.id]
            echo_json(obj)
        elif r.id in statuses:
            status, n = statuses[r.id]
            typer.echo(f"{r.id:<8} {r.group or '-':<5} {status:<15} {n:>4}  {short}")
        else:
            typer.echo(f"{r.id:<8} {r.group or '-':<5} {short}")
