"""CLI: ``dinecheck risk build | show`` — allergy evidence per restaurant × allergen (thin shell over ``risk``)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from dinecheck.cli.common import DataDirOpt, LenientOpt, echo_json, load_data
from dinecheck.cli.extractor_options import (
    ApiKeyOpt,
    BaseUrlOpt,
    BatchOpt,
    CacheOpt,
    ConcurrencyOpt,
    ConfigOpt,
    ExtractorArg,
    MaxCostOpt,
    ModelOpt,
    NoCacheOpt,
    build_options,
)
from dinecheck.errors import DataError
from dinecheck.extract.factory import DEFAULT_CONCURRENCY, make_extractor
from dinecheck.risk.build import build_evidence
from dinecheck.risk.evidence import LEVEL_WORDS, AllergenEvidence
from dinecheck.risk.store import open_risk_store
from dinecheck.search import find_restaurants, parse_allergens

app = typer.Typer(help="Allergy evidence from reviews, per restaurant and allergen.", no_args_is_help=True)

DbOpt = Annotated[str | None, typer.Option("--db", help="Results store: SQLite path/URL or postgresql:// URL "
                                                            "(default: $DINECHECK_RISK_DB or the user data dir).")]  # fmt: skip
AllergensOpt = Annotated[str, typer.Option("--allergens", help="Allergen codes (PEANUT,MILK), common names "
                                                               "(PEANUTS,DAIRY) or ALL.")]  # fmt: skip


@app.command()
def build(
    data: DataDirOpt,
    allergens: AllergensOpt = "ALL",
    extractor: ExtractorArg = None,
    db: DbOpt = None,
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    api_key: ApiKeyOpt = None,
    config: ConfigOpt = None,
    cache: CacheOpt = None,
    no_cache: NoCacheOpt = False,
    batch_size: BatchOpt = 1,
    concurrency: ConcurrencyOpt = DEFAULT_CONCURRENCY,
    max_cost: MaxCostOpt = None,
    as_json: bool = typer.Option(False, "--json", help="Print the build report as one JSON object."),
    lenient: bool = LenientOpt,
) -> None:
    """Scan every review, extract allergy talk once (only new or changed reviews), write evidence to the store."""
    codes = parse_allergens(allergens)
    ds = load_data(data, lenient)
    opts = build_options(base_url=base_url, model=model, api_key=api_key, config=config, cache=cache,
                         no_cache=no_cache, batch_size=batch_size, concurrency=concurrency,
                         max_cost=max_cost)  # fmt: skip
    ex = make_extractor(extractor, opts)
    try:
        with open_risk_store(db) as store:
            index, report = build_evidence(ds, ex, codes=codes, store=store)
    finally:
        ex.close()
    if as_json:
        echo_json(report.to_json())
        return
    levels: dict[str, int] = {}
    for per in index.by_restaurant.values():
        for e in per.values():
            levels[e.level] = levels.get(e.level, 0) + 1
    typer.echo(f"{report.restaurants} restaurants, {report.reviews} reviews read, {report.allergy_reviews} about "
               f"allergies: {report.extracted} extracted now, {report.reused} reused ({report.provenance}); "
               f"{report.seconds:.1f} s")  # fmt: skip
    if report.failed:
        typer.echo(f"warning: {report.failed} allergy review(s) could not be labelled; they count as unread", err=True)
    typer.echo("levels: " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items())))


def render_evidence(e: AllergenEvidence, name: str) -> list[str]:
    lines = [f"{e.allergen:<10} {LEVEL_WORDS[e.level]} ({e.level})", f"           {e.summary}"]
    for q in e.quotes:
        lines.append(f"           [{q.kind}] {q.review_id}: \u201c{q.text}\u201d")
    if e.score is not None:
        lines.append(f"           score {e.score.value:g}: {e.score.computed_from}")
    return lines


@app.command()
def show(
    restaurant: str = typer.Argument(..., help="Business id or name (a unique part of the name is enough)."),
    allergens: AllergensOpt = "ALL",
    db: DbOpt = None,
    as_json: bool = typer.Option(False, "--json", help="One JSON object per allergen."),
) -> None:
    """Print the allergy evidence of one restaurant (an ambiguous name lists the candidates, exit 2)."""
    codes = parse_allergens(allergens)
    with open_risk_store(db, create=False) as store:
        found = find_restaurants(store.restaurants(), restaurant)
        if not found:
            raise DataError(f"no restaurant named {restaurant!r} in the store", "risk show")
        if len(found) > 1:
            for bid, nm, addr in found[:20]:
                print(f"  {bid}  {nm}" + (f"  ({addr})" if addr else ""), file=sys.stderr)
            raise DataError(f"{len(found)} restaurants match {restaurant!r}; give the business id", "risk show")
        bid, nm, addr = found[0]
        per = store.evidence([bid], codes).get(bid, {})
    if as_json:
        for c in codes:
            if c in per:
                echo_json(per[c].to_json())
        return
    typer.echo(f"{nm}  ({bid})" + (f"  {addr}" if addr else ""))
    for c in codes:
        if c in per:
            for line in render_evidence(per[c], nm):
                typer.echo(line)


