"""Batch label checks per second on the SQLite store, warm cache, single process — against a naive per-token store.

Usage (from the repository root)::

    .venv/bin/python bench/allergens_bench.py [--labels 10500] [--naive-labels 350]
        [--dev ../shared/data/allergen_labels/dev.jsonl]

Input: the real labels of ``dev.jsonl`` replicated to ``--labels``; profile ALL. Both variants run the same pipeline
(:func:`dinecheck.allergens.pipeline.check_label`) and write one audit row per label, batched 1,000 rows per
transaction, on a fresh SQLite store seeded from the shipped data:

* **cached** — the ontology comes from the store's in-memory cache (``store.ontology()``, one version check per batch);
* **naive** — every synonym lookup and every allergen expansion is a SQL query against the store (what a service
  without the cache would do).

Like the CLI's batch check, the cached run freezes the loaded ontology out of the garbage collector's passes
(``gc.freeze()``) and lets each result go once its audit row is written (only the labels the naive run also checks
are kept, to compare). The two must give identical results on the labels both checked (asserted). Prints labels/s for each, the ratio, and
whether the 5,000 labels/s target is met. Exit 0 always unless the results differ (exit 1).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dinecheck.allergens.audit import AuditRow
from dinecheck.allergens.ontology import AllergenPath, Ontology, RiskLevel, Synonym
from dinecheck.allergens.pipeline import PROFILE_ALL, check_label
from dinecheck.allergens.store import OntologyStore, open_store

TARGET = 5000.0
BATCH = 1000
DEFAULT_DEV = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "allergen_labels" / "dev.jsonl"


class _SqlSynonyms:
    """``dict.get``-compatible view of ``ingredient_synonyms``: one query per lookup."""

    def __init__(self, store: OntologyStore) -> None:
        self._store = store

    def _rows(self, select: str, where: str, value: str) -> list[tuple]:
        """Rows of the synonyms of ingredients that are no modifier, ``where`` holding one ``?``."""
        with self._store.transaction() as tx:
            return tx.fetchall(
                f"SELECT {select} FROM ingredient_synonyms s JOIN canonical_ingredients c ON c.id = s.canonical_id"
                f" WHERE {where} AND COALESCE(c.category, '') <> 'modifier' ORDER BY s.id",
                (value,),
            )

    def get(self, key: str, default: Any = None) -> list[Synonym] | Any:
        rows = self._rows("s.synonym, s.synonym_normalized, s.canonical_id, s.language_code, s.region_code,"
                          " s.synonym_type", "s.synonym_normalized = ?", key)  # fmt: skip
        return [Synonym(*r) for r in rows] or default

    def starting_with(self, prefix: str) -> list[str]:
        """The keys that begin with ``prefix`` (what the pipeline asks to tell a word cut off)."""
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._rows("s.synonym_normalized", "s.synonym_normalized LIKE ? ESCAPE '\\'", pattern)
        return list(dict.fromkeys(r[0] for r in rows if r[0].startswith(prefix)))

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def __getitem__(self, key: str) -> list[Synonym]:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found


class NaiveOntology:
    """The :class:`Ontology` surface the pipeline uses, answered by SQL per token (allergens and phrases preloaded)."""

    def __init__(self, store: OntologyStore, cached: Ontology) -> None:
        self._store = store
        self.allergens = cached.allergens
        self.ingredients = cached.ingredients  # categories only (the allergen maps are asked by SQL below)
        self.modifiers = cached.modifiers
        self.memo = None  # never memoised: every lookup is a query
        self.phrase_index = None
        self.risk_phrases = cached.risk_phrases
        self.synonyms = _SqlSynonyms(store)
        self.version = cached.version

    def lookup(self, key: str) -> list[Synonym]:
        return self.synonyms.get(key) or []

    def allergen_paths(self, ingredient_id: str) -> tuple[AllergenPath, ...]:
        best: dict[str, AllergenPath] = {}

        def visit(ing_id: str, path: tuple[str, ...]) -> None:
            if ing_id in path:
                return
            here = (*path, ing_id)
            with self._store.transaction() as tx:
                levels = tx.fetchall(
                    "SELECT allergen_code, risk_level FROM ingredient_allergen_map WHERE ingredient_id = ?", (ing_id,)
                )
                parts = tx.fetchall(
                    "SELECT component_id FROM compound_ingredients WHERE compound_id = ? ORDER BY position", (ing_id,)
                )
            for code, level_text in levels:
                level = RiskLevel(level_text)
                if path and level is RiskLevel.DEFINITE:
                    level = RiskLevel.DERIVED
                cur = best.get(code)
                if cur is None or level.rank > cur.level.rank:
                    best[code] = AllergenPath(code, level, here)
            for (part,) in parts:
                visit(part, here)

        visit(ingredient_id, ())
        return tuple(sorted(best.values(), key=lambda p: (-p.level.rank, p.code)))


def load_labels(path: Path, n: int) -> list[tuple[str, str]]:
    base = [(o["id"], o["ingredients_text"]) for o in map(json.loads, path.read_text(encoding="utf-8").splitlines())
            if o.get("ingredients_text") is not None]  # fmt: skip
    return [(f"{base[i % len(base)][0]}#{i // len(base)}", base[i % len(base)][1]) for i in range(n)]


@dataclass
class Timing:
    total: float = 0.0
    pipeline: float = 0.0  # inside check_label
    audit_write: float = 0.0  # store.write_audit (one transaction per batch)


def run(
    store: OntologyStore, labels: list[tuple[str, str]], naive: bool, keep: int | None = None
) -> tuple[Timing, list[dict[str, Any]]]:
    """Check every label with audit rows batched per transaction, as ``dinecheck allergens check --input`` does (its
    results are written and let go); returns (timing, the result JSON of the first ``keep`` labels, all if None)."""
    results: list[dict[str, Any]] = []
    timing = Timing()
    start = time.perf_counter()
    for i in range(0, len(labels), BATCH):
        chunk = labels[i : i + BATCH]
        cached = store.ontology()
        rows = []
        for pid, text in chunk:
            # the pipeline memoises resolutions per ontology object: a fresh naive view per label keeps it per-token
            ontology = NaiveOntology(store, cached) if naive else cached
            t0 = time.perf_counter()
            res = check_label(text, PROFILE_ALL, ontology)  # type: ignore[arg-type]
            ms = (time.perf_counter() - t0) * 1000
            timing.pipeline += ms / 1000
            rows.append(AuditRow.from_result(res, text, PROFILE_ALL, ms, pid))
        t1 = time.perf_counter()
        store.write_audit(rows)
        timing.audit_write += time.perf_counter() - t1
        if keep is None or len(results) < keep:
            results.extend(r.result for r in rows[: None if keep is None else keep - len(results)])
    timing.total = time.perf_counter() - start
    return timing, results


def _verdict_facts(result: dict[str, Any]) -> dict[str, Any]:
    """A result without its "did you mean" reasons (suggestions need the name list, which a SQL view does not scan)."""
    return {**result, "reasons": [r for r in result["reasons"] if not r.startswith("did you mean")]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=int, default=10_500, help="labels for the cached run (dev.jsonl replicated)")
    ap.add_argument("--naive-labels", type=int, default=350, help="labels for the naive run")
    ap.add_argument("--dev", type=Path, default=DEFAULT_DEV, help="dev.jsonl path")
    args = ap.parse_args(argv)
    if not args.dev.is_file():
        print(f"error: {args.dev}: no such file (pass --dev)", file=sys.stderr)
        return 2
    labels = load_labels(args.dev, max(args.labels, args.naive_labels))
    with tempfile.TemporaryDirectory() as tmp, open_store(f"sqlite:///{Path(tmp) / 'bench.sqlite'}") as store:
        st = store.stats()
        print(f"store: SQLite, {st.ingredients} ingredients, {st.synonyms} synonyms, {st.risk_phrases} phrases; "
              f"input: {args.dev.name} ({len({t for _, t in labels})} distinct labels) replicated; "
              "profile ALL")  # fmt: skip
        store.ontology()  # warm the store cache
        distinct = list({t: (p, t) for p, t in labels}.values())
        cold, _ = run(store, distinct, naive=False)  # first sight of every distinct label: pipeline memo cold
        print(f"first pass over the {len(distinct)} distinct labels (pipeline memo cold): "
              f"{len(distinct) / cold.total:,.0f} labels/s")  # fmt: skip
        gc.freeze()  # what the CLI does once the ontology is loaded (dinecheck.cli.allergens._run_checks)
        fast, fast_res = run(store, labels[: args.labels], naive=False, keep=args.naive_labels)
        naive, naive_res = run(store, labels[: args.naive_labels], naive=True)
        audited = store.audit_count() - len(distinct)
    same = [_verdict_facts(r) for r in fast_res[: args.naive_labels]] == [_verdict_facts(r) for r in naive_res]
    fast_rate = args.labels / fast.total
    naive_rate = args.naive_labels / naive.total
    print(f"cached: {args.labels} labels in {fast.total:.3f} s = {fast_rate:,.0f} labels/s (audit rows batched "
          f"{BATCH}/tx)")  # fmt: skip
    print(f"        of which check_label {fast.pipeline:.3f} s ({args.labels / fast.pipeline:,.0f} labels/s alone), "
          f"audit writes {fast.audit_write:.3f} s ({args.labels / fast.audit_write:,.0f} rows/s), "
          f"other {fast.total - fast.pipeline - fast.audit_write:.3f} s")  # fmt: skip
    print(f"naive:  {args.naive_labels} labels in {naive.total:.3f} s = {naive_rate:,.0f} labels/s (SQL per token)")
    print(f"ratio cached/naive: {fast_rate / naive_rate:.1f}x; audit rows written: {audited}")
    print(f"target {TARGET:,.0f} labels/s: {'met' if fast_rate >= TARGET else 'NOT met'}")
    if not same:
        print("error: the naive and cached runs disagree on some label", file=sys.stderr)
        return 1
    print("results identical on the labels both runs checked: yes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
