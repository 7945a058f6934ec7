"""CLI: ``dinecheck search`` — places that fit a request, ranked by allergy evidence (thin shell over ``search``).

Contract: ``--json`` prints one object per restaurant with exactly ``business_id, name, rank, request_value,
conditions, allergy`` (see :class:`dinecheck.search.SearchResult`). Exit 0 when something is listed, 1 when nothing is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dinecheck.cli.common import DataDirOpt, LenientOpt, echo_json, load_data
from dinecheck.cli.risk import DbOpt
from dinecheck.errors import RequestError
from dinecheck.requests.load import find_request, load_request, load_requests
from dinecheck.requests.schema import Request
from dinecheck.risk.store import open_risk_store
from dinecheck.search import parse_allergens, parse_where, request_catalog_from, search

_MARK = {1: "\u2713", 0: "?", -1: "\u2717"}


def _request(data: Path, request: Path | None, request_id: str | None, where: str | None) -> Request | None:
    if request is not None and where is not None:
        raise RequestError("give --request FILE or --where TEXT, not both", "search")
    if where is not None:
        if request_id:
            raise RequestError("--id goes with --request FILE (a JSON Lines file of requests)", "search")
        catalog, source = request_catalog_from(data)
        return parse_where(where, catalog, source)
    if request is None:
        if request_id:
            raise RequestError("--id needs --request FILE", "search")
        return None
    if request_id:
        return find_request(load_requests(request), request_id, str(request))
    if request.suffix == ".jsonl":
        reqs = load_requests(request)
        if len(reqs) != 1:
            raise RequestError(f"the file holds {len(reqs)} requests; choose one with --id", str(request))
        return reqs[0]
    return load_request(request)


RequestOpt = Annotated[Path | None, typer.Option("--request", help="A request: .json file, or .jsonl with --id.")]
IdOpt = Annotated[str | None, typer.Option("--id", help="Which request of a --request .jsonl file.")]
WhereOpt = Annotated[str | None, typer.Option("--where", help="Request as shorthand (names from the data's "
                                                              "requests*.jsonl) or JSON (request or structure).")]
ProfileOpt = Annotated[str | None, typer.Option("--allergens", help="Allergy profile: PEANUT,MILK (or PEANUTS, DAIRY, "
                                                                    "…, ALL).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object per restaurant (the contract).")]
LimitOpt = Annotated[int | None, typer.Option("--limit", min=1, help="Show at most N restaurants.")]
NearOpt = Annotated[bool, typer.Option("--near", help="Also list places that fail only unknown conditions.")]


def search_cmd(
    data: DataDirOpt,
    request: RequestOpt = None,
    request_id: IdOpt = None,
    where: WhereOpt = None,
    allergens: ProfileOpt = None,
    as_json: JsonOpt = False,
    limit: LimitOpt = None,
    near: NearOpt = False,
    db: DbOpt = None,
    lenient: bool = LenientOpt,
) -> None:
    """Places that fit a request, ranked by allergy evidence for the profile, with reasons."""
    req = _request(data, request, request_id, where)
    codes = parse_allergens(allergens) if allergens else ()
    ds = load_data(data, lenient)
    if codes:
        with open_risk_store(db, create=False) as store:
            results = search(ds, request=req, allergens=codes, evidence=store, near=near, limit=limit)
    else:
        results = search(ds, request=req, near=near, limit=limit)
    for r in results:
        if as_json:
            echo_json(r.to_json())
            continue
        stars = f"{r.stars:g}\u2605" if r.stars is not None else "no stars"
        typer.echo(f"{r.rank:>3}. {r.name}  {stars}  {r.address or ''}")
        typer.echo(f"     {r.hours}")
        if r.conditions:
            typer.echo("     " + "  ".join(f"{_MARK[c.value]} {c.aspect}" for c in r.conditions))
        for e in r.allergy.values():
            typer.echo(f"     {e.line}")
    if not as_json:
        what = f"request {req.id}" if req is not None else "no request (every restaurant)"
        typer.echo(f"{len(results)} place(s) for {what}" + (f", profile {','.join(codes)}" if codes else ""))
    if not results:
        raise typer.Exit(1)
