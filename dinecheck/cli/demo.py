"""CLI: ``dinecheck demo`` — run every capability on the bundled sample data and print one readable report.

It uses only the embedded defaults: the bundled sample dataset (``dinecheck/sample``), the offline extractor (no
network) and the SQLite allergen store (created and seeded on first use; ``--db`` picks another).
"""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from dinecheck.allergens.audit import check_and_audit
from dinecheck.allergens.pipeline import parse_profile
from dinecheck.allergens.store.base import open_store
from dinecheck.cli.allergens import parse_label_lines
from dinecheck.cli.requests import render_explanation
from dinecheck.dataset import load_dataset
from dinecheck.extract.offline import OfflineExtractor
from dinecheck.formula import compile_seed, load_seed
from dinecheck.requests import Engine, load_requests, validate_requests
from dinecheck.sample import sample_dir

DEMO_PROFILE = "PEANUT,TREE_NUTS,MILK,SESAME"


def _requests_section(console: Console) -> None:
    root = sample_dir()
    dataset, _ = load_dataset(root)
    requests = load_requests(root / "requests.jsonl")
    engine = Engine(dataset)
    results = validate_requests(engine, requests)
    names = {r.business_id: r.name for r in dataset.restaurants}
    console.rule("[bold]1. Which restaurant fits? — structured requests")
    console.print(f"{len(dataset.restaurants)} restaurants, {dataset.n_reviews} reviews, {len(requests)} requests "
                  f"(sample data: {root})")  # fmt: skip
    table = Table("request", "group", "text", "status", "matches")
    by_id = {r.id: r for r in requests}
    for v in results:
        style = "green" if v.status == "ok" else "red"
        table.add_row(v.request_id, v.group or "", by_id[v.request_id].text or "", f"[{style}]{v.status}[/]",
                      ", ".join(names.get(m, m) for m in v.matches) or "—")  # fmt: skip
    console.print(table)
    first = requests[0]
    gold = dataset.restaurant(first.gold_restaurant) if first.gold_restaurant else None
    if gold is not None:
        console.print(f"Why {gold.name} matches {first.id} ({first.shorthand or ''}):")
        console.print("\n".join(render_explanation(engine.explain(first, gold))), markup=False)


def _seed_section(console: Console) -> None:
    root = sample_dir()
    dataset, _ = load_dataset(root)
    seed_path = root / "allergy_risk_seed.json"
    compiled = compile_seed(load_seed(seed_path))
    extractor = OfflineExtractor()
    results = compiled.run_many([(r, dataset.reviews_of(r.business_id)) for r in dataset.restaurants], extractor)
    console.rule("[bold]2. How risky is it for my allergy? — a Formula Seed over the reviews (offline extractor)")
    console.print(f"seed {compiled.seed.task_name!r} from {seed_path.name}: {len(compiled.seed.compute)} steps; "
                  f"{extractor.stats.reviews} reviews labelled offline")  # fmt: skip
    outputs = list(compiled.seed.output)[-3:]  # the headline outputs; `dinecheck seed run --json` shows all
    table = Table("restaurant", "relevant reviews", "status", *outputs)
    numeric = [o for o in outputs if all(isinstance(r.outputs.get(o), (int, float)) for r in results)]

    def risk(r: Any) -> tuple[float, int]:
        return (float(r.outputs[numeric[-1]]) if numeric else 0.0, r.n_filtered)

    results.sort(key=risk, reverse=True)
    for res in results:
        table.add_row(res.name, str(res.n_filtered), res.status, *(_fmt(res.outputs.get(o)) for o in outputs))
    console.print(table)
    worst = results[0]
    by_id = {r.business_id: r for r in dataset.restaurants}
    traced = compiled.run(by_id[worst.business_id], dataset.reviews_of(worst.business_id), extractor, trace=True)
    console.print(f"Why {worst.name} got {_fmt(traced.outputs.get(outputs[-1]))} (steps with contributing reviews):")
    for step in traced.trace or ():
        if step.reviews and step.op != "define_filter":
            console.print(f"  {step.name} = {_fmt(step.value)}  ← reviews {', '.join(step.reviews)}", markup=False)


def _fmt(value: Any) -> str:
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def _allergen_section(console: Console, db: str | None) -> None:
    root = sample_dir()
    labels = parse_label_lines((root / "labels.jsonl").read_text(encoding="utf-8").splitlines(), "labels.jsonl")
    profile = parse_profile(DEMO_PROFILE)
    with open_store(db) as store:
        ontology = store.ontology()
        checked = [check_and_audit(lab.text, profile, ontology, lab.id) for lab in labels]
        store.write_audit([c.audit for c in checked])
        stats = ontology.stats()
        console.rule("[bold]3. Is this packaged food safe for me? — ingredient labels")
        console.print(f"profile {DEMO_PROFILE}; ontology: {stats['ingredients']} ingredients, {stats['synonyms']} "
                      f"synonyms, {stats['risk_phrases']} risk phrases; store {store.url}")  # fmt: skip
    colour = {"SAFE": "green", "AVOID": "red", "VERIFY": "yellow"}
    table = Table("label", "verdict", "found", "why")
    for lab, c in zip(labels, checked, strict=True):
        r = c.result
        found = ", ".join(f"{f.code} {f.level.value} ({f.token})" for f in r.findings) or "—"
        table.add_row(lab.id or "", f"[{colour[r.verdict]}]{r.verdict}[/]", found, r.review_reasons[0] if r.review_reasons else "all clean")
    console.print(table)


def demo(
    db: str | None = typer.Option(None, "--db", help="Allergen store URL (default: the SQLite file in the user data dir)."),
) -> None:
    """Run every capability on the bundled sample data and print a readable report."""
    console = Console(highlight=False)
    _requests_section(console)
    _seed_section(console)
    _allergen_section(console, db)
    console.rule("[bold]done")
    console.print("Next: `dinecheck requests validate --data DIR --requests FILE`, `dinecheck seed run SEED --data DIR`, "
                  "`dinecheck allergens check TEXT --allergens PEANUT,MILK`.")  # fmt: skip
