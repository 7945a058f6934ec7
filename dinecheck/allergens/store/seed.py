"""Loading the shipped ontology data files into a store, fast (``executemany`` in the caller's one transaction).

:func:`data_fingerprint` hashes the shipped data directory; the store keeps the fingerprint it was seeded from in
``ontology_meta`` and calls :func:`replace_shipped_data` when it differs (first use, or a newer dinecheck with new
data). Replacing is all-or-nothing: every row whose ``source`` is ``DATA`` is rewritten, while synonyms added by users
(``USER``) or by the Open Food Facts import (``OFF``) are kept, with the ingredients those sources created. If a kept
synonym refers to an ingredient that the new data no longer defines, or the new data defines an ingredient id that
another source created, the transaction fails with a :class:`~dinecheck.errors.StoreError` naming it — nothing is
dropped silently, and nothing is left pointing at nothing.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from dinecheck.allergens.ontology import Ontology
from dinecheck.errors import StoreError


class Tx(Protocol):
    """The tiny cursor surface the stores give their transactions (``?`` placeholders in every dialect)."""

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None: ...
    def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None: ...
    def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...


def shipped_data_dir() -> Path:
    return Path(str(resources.files("dinecheck.allergens") / "data"))


def data_fingerprint(root: Path | None = None) -> str:
    """SHA-256 over the relative names and bytes of every data file (allergens, ingredients, risk phrases)."""
    base = Path(root) if root else shipped_data_dir()
    h = hashlib.sha256()
    files = [base / "allergens.tsv", *sorted((base / "ingredients").glob("*.jsonl")), base / "risk_phrases.jsonl"]
    for path in files:
        if path.is_file():
            h.update(path.relative_to(base).as_posix().encode())
            h.update(b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def replace_shipped_data(tx: Tx, ontology: Ontology, now: Any) -> dict[str, int]:
    """Rewrite every DATA row from ``ontology`` inside the caller's write transaction; returns row counts."""
    data_ids = "SELECT id FROM canonical_ingredients WHERE source = 'DATA'"
    tx.execute("DELETE FROM ingredient_synonyms WHERE source = 'DATA'")
    tx.execute(f"DELETE FROM compound_ingredients WHERE compound_id IN ({data_ids})")
    tx.execute(f"DELETE FROM ingredient_allergen_map WHERE ingredient_id IN ({data_ids})")
    tx.execute("DELETE FROM risk_phrases")
    tx.execute("DELETE FROM canonical_ingredients WHERE source = 'DATA'")
    tx.execute("DELETE FROM allergen_categories")
    kept = {r[0] for r in tx.fetchall("SELECT id FROM canonical_ingredients")}  # added by users or the OFF import
    clash = sorted(kept & set(ontology.ingredients))
    if clash:
        raise StoreError(f"the shipped data now defines ingredient(s) {', '.join(clash)} that the store already holds "
                         "from another source; the store was left unchanged")  # fmt: skip

    tx.executemany(
        "INSERT INTO allergen_categories (code, name) VALUES (?, ?)",
        [(a.code, a.name) for a in ontology.allergens.values()],
    )
    ings = list(ontology.ingredients.values())
    tx.executemany(
        "INSERT INTO canonical_ingredients (id, canonical_name, parent_id, category, source)"
        " VALUES (?, ?, ?, ?, 'DATA')",
        [(i.id, i.id.replace("_", " "), i.parent, i.category) for i in ings],
    )
    maps = [(i.id, code, level.value) for i in ings for code, level in i.allergens.items()]
    tx.executemany(
        "INSERT INTO ingredient_allergen_map (ingredient_id, allergen_code, risk_level) VALUES (?, ?, ?)", maps
    )
    comps = [(i.id, part, pos) for i in ings for pos, part in enumerate(dict.fromkeys(i.contains))]
    tx.executemany("INSERT INTO compound_ingredients (compound_id, component_id, position) VALUES (?, ?, ?)", comps)
    syns = [
        (s.text, s.key, s.canonical_id, s.lang, s.region, s.type, now)
        for group in (*ontology.synonyms.values(), ontology.modifier_names)
        for s in group
    ]
    tx.executemany(
        "INSERT INTO ingredient_synonyms (synonym, synonym_normalized, canonical_id, language_code, region_code,"
        " synonym_type, source, created_at) VALUES (?, ?, ?, ?, ?, ?, 'DATA', ?)",
        syns,
    )
    phrases = [(p.phrase, p.key, p.lang, p.type, p.level.value, ",".join(p.allergens)) for p in ontology.risk_phrases]
    tx.executemany(
        "INSERT INTO risk_phrases (phrase, phrase_normalized, language_code, risk_type, risk_level, allergen_codes)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        phrases,
    )
    dangling = tx.fetchall(
        "SELECT s.synonym, s.canonical_id, s.source FROM ingredient_synonyms s"
        " LEFT JOIN canonical_ingredients c ON c.id = s.canonical_id WHERE c.id IS NULL ORDER BY s.id"
    )
    if dangling:
        shown = ", ".join(f"{syn!r} → {cid!r} ({src})" for syn, cid, src in dangling[:5])
        more = f" and {len(dangling) - 5} more" if len(dangling) > 5 else ""
        raise StoreError(
            f"the shipped ontology data no longer defines the ingredient(s) that these stored synonyms refer to: "
            f"{shown}{more}; the store was left unchanged (remove them with `dinecheck allergens synonym remove`, "
            "then add them again to an existing ingredient)"
        )
    return {
        "allergens": len(ontology.allergens),
        "ingredients": len(ings),
        "allergen_map": len(maps),
        "compounds": len(comps),
        "synonyms": len(syns),
        "risk_phrases": len(phrases),
    }

