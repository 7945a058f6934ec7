"""The allergen store's repository interface, its dialect-independent SQL, and :func:`open_store`.

:class:`OntologyStore` owns everything both databases share, one module per job: migrations and seeding
(:mod:`.schema`), synonym edits and the bulk add of the Open Food Facts imports (:mod:`.synonym_edits`), the audit
log (:mod:`.audit_log`); this module keeps the connection-independent core (version counter, ontology loading and
cache, stats) and :func:`open_store`. The SQLite and PostgreSQL
subclasses only supply a connection, a transaction (``?`` placeholders everywhere) and timestamp conversion.

URLs accepted by :func:`open_store`:

* ``None`` → ``$DINECHECK_DB`` if set, else the SQLite file ``<user data dir>/dinecheck/ontology.sqlite``;
* ``sqlite:///relative/file.sqlite``, ``sqlite:////absolute/file.sqlite``, or a plain file path;
* ``postgresql://user@host:port/db`` (or ``postgres://``), optionally with ``?schema=NAME`` to use (and create) a
  schema other than ``public``.

A new database is migrated and seeded from the shipped data files on first use; a database seeded from older data
files is re-seeded (user and OFF synonyms kept). Every ontology write bumps ``ontology_version`` in the same
transaction, which is what the in-memory cache watches.
"""

from __future__ import annotations

import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from dinecheck.allergens.ontology import ALLERGEN_CODES, Allergen, Ingredient, Ontology, RiskLevel, RiskPhrase, Synonym
from dinecheck.allergens.store.audit_log import AuditLog
from dinecheck.allergens.store.cache import OntologyCache
from dinecheck.allergens.store.migrations import Dialect
from dinecheck.allergens.store.schema import SchemaAndSeed, SeedOutcome
from dinecheck.allergens.store.seed import Tx
from dinecheck.allergens.store.synonym_edits import (
    BulkAddResult,
    SkippedSynonym,
    SynonymEdits,
    SynonymInput,
    resolve_canonical,
    validate_synonym_fields,
)
from dinecheck.allergens.text import lookup_key
from dinecheck.errors import StoreError

__all__ = [
    "BulkAddResult", "OntologyStore", "SeedOutcome", "SkippedSynonym", "StoreStats", "SynonymInput", "open_store",
    "resolve_canonical", "validate_synonym_fields", "wrap_driver_errors",
]  # fmt: skip

DB_ENV = "DINECHECK_DB"


# ------------------------------------------------------------------------------------------------ typed results


@dataclass(frozen=True, slots=True)
class StoreStats:
    url: str
    dialect: str
    schema_version: int
    ontology_version: int
    allergens: int
    ingredients: int
    synonyms: int
    synonyms_by_source: dict[str, int]
    risk_phrases: int
    audit_rows: int

    def to_json(self) -> dict[str, Any]:
        return {
            "url": self.url, "dialect": self.dialect, "schema_version": self.schema_version,
            "ontology_version": self.ontology_version, "allergens": self.allergens, "ingredients": self.ingredients,
            "synonyms": self.synonyms, "synonyms_by_source": self.synonyms_by_source,
            "risk_phrases": self.risk_phrases, "audit_rows": self.audit_rows,
        }  # fmt: skip


class OntologyStore(SchemaAndSeed, SynonymEdits, AuditLog, ABC):
    """Repository of the allergen ontology and the audit log. Thread-safe: one connection guarded by a lock."""

    dialect: Dialect

    def __init__(self, display_url: str) -> None:
        self.url = display_url
        self._lock = threading.RLock()
        self._cache = OntologyCache(self._load_ontology, self.version)

    # -- dialect hooks ------------------------------------------------------------------------------------------

    @abstractmethod
    def transaction(self, write: bool = False) -> AbstractContextManager[Tx]:
        """A transaction; ``write=True`` takes the database's write lock up front."""

    @abstractmethod
    def _exclusive(self, tx: Tx) -> None:
        """Serialise schema/seed work across processes (inside a write transaction)."""

    @abstractmethod
    def _ts_param(self, dt: datetime) -> Any: ...

    @abstractmethod
    def _ts_value(self, value: Any) -> datetime: ...

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> OntologyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM ontology_meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One read-only statement (dialects may run it without an explicit transaction: it is one snapshot)."""
        with self.transaction() as tx:
            return tx.fetchall(sql, params)

    @staticmethod
    def _bump_version(tx: Tx) -> None:
        tx.execute(
            "UPDATE ontology_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'ontology_version'"
        )

    # -- ontology -----------------------------------------------------------------------------------------------

    def version(self) -> int:
        """The ontology version counter (bumped by every ontology write)."""
        value = self._meta("ontology_version")
        if value is None:
            raise StoreError("the store has no ontology_version; it was not migrated", self.url)
        return int(value)

    def ontology(self) -> Ontology:
        """The ontology through the in-memory cache (rebuilt only when the store's version changed)."""
        return self._cache.get()

    @property
    def cache(self) -> OntologyCache:
        return self._cache

    def _load_ontology(self) -> Ontology:
        with self.transaction() as tx:  # one snapshot: the version and the rows it describes
            version = int(tx.fetchall("SELECT value FROM ontology_meta WHERE key = 'ontology_version'")[0][0])
            allergen_rows = tx.fetchall("SELECT code, name FROM allergen_categories")
            ing_rows = tx.fetchall("SELECT id, parent_id, category FROM canonical_ingredients ORDER BY id")
            map_rows = tx.fetchall("SELECT ingredient_id, allergen_code, risk_level FROM ingredient_allergen_map")
            comp_rows = tx.fetchall(
                "SELECT compound_id, component_id FROM compound_ingredients ORDER BY compound_id, position"
            )
            syn_rows = tx.fetchall(
                "SELECT synonym, canonical_id, language_code, region_code, synonym_type FROM ingredient_synonyms"
                " ORDER BY id"
            )
            phrase_rows = tx.fetchall(
                "SELECT phrase, language_code, risk_type, risk_level, allergen_codes FROM risk_phrases ORDER BY id"
            )
        order = {c: i for i, c in enumerate(ALLERGEN_CODES)}
        allergens = [Allergen(c, n) for c, n in sorted(allergen_rows, key=lambda r: order.get(r[0], len(order)))]
        amap: dict[str, dict[str, RiskLevel]] = {}
        for ing_id, code, level in map_rows:
            amap.setdefault(ing_id, {})[code] = RiskLevel(level)
        parts: dict[str, list[str]] = {}
        for comp, part in comp_rows:
            parts.setdefault(comp, []).append(part)
        ingredients = [
            Ingredient(i, p, cat, amap.get(i, {}), tuple(parts.get(i, ()))) for i, p, cat in ing_rows
        ]
        # keys are recomputed, never trusted from the column: they must equal what the pipeline computes today
        synonyms = [Synonym(t, lookup_key(t), cid, lang, reg, typ) for t, cid, lang, reg, typ in syn_rows]
        phrases = [
            RiskPhrase(p, lookup_key(p), lang, typ, RiskLevel(lvl), tuple(c for c in codes.split(",") if c))
            for p, lang, typ, lvl, codes in phrase_rows
        ]
        return Ontology(allergens, ingredients, synonyms, phrases, version=version)

    # -- stats --------------------------------------------------------------------------------------------------

    def stats(self) -> StoreStats:
        with self.transaction() as tx:
            one = lambda sql: int(tx.fetchall(sql)[0][0])  # noqa: E731
            by_source = {str(s): int(n) for s, n in tx.fetchall(
                "SELECT source, COUNT(*) FROM ingredient_synonyms GROUP BY source ORDER BY source")}  # fmt: skip
            return StoreStats(
                url=self.url,
                dialect=self.dialect,
                schema_version=one("SELECT MAX(version) FROM schema_migrations"),
                ontology_version=int(
                    tx.fetchall("SELECT value FROM ontology_meta WHERE key = 'ontology_version'")[0][0]
                ),
                allergens=one("SELECT COUNT(*) FROM allergen_categories"),
                ingredients=one("SELECT COUNT(*) FROM canonical_ingredients"),
                synonyms=sum(by_source.values()),
                synonyms_by_source=by_source,
                risk_phrases=one("SELECT COUNT(*) FROM risk_phrases"),
                audit_rows=one("SELECT COUNT(*) FROM normalization_audit_log"),
            )


# ------------------------------------------------------------------------------------------------ opening


def default_sqlite_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("dinecheck")) / "ontology.sqlite"


def open_store(url: str | None = None, *, seed: bool = True, data_dir: Path | None = None) -> OntologyStore:
    """Open (creating, migrating and seeding as needed) the store named by ``url``; see the module docstring."""
    target = url if url is not None else os.environ.get(DB_ENV) or None
    if target is not None and not target.strip():
        raise StoreError("the database URL is empty", "--db")
    if target is None:
        from dinecheck.allergens.store.sqlite import SqliteStore

        path = default_sqlite_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        store: OntologyStore = SqliteStore(path)
    elif target.startswith(("postgresql://", "postgres://")):
        from dinecheck.allergens.store.postgres import PostgresStore

        store = PostgresStore.from_url(target)
    elif target.startswith("sqlite://"):
        from dinecheck.allergens.store.sqlite import SqliteStore

        store = SqliteStore.from_url(target)
    elif "://" in target:
        raise StoreError(f"unsupported database URL scheme in {target.split('://')[0]!r}://…; use sqlite:/// or "
                         "postgresql://", "--db")  # fmt: skip
    else:
        from dinecheck.allergens.store.sqlite import SqliteStore

        store = SqliteStore(Path(target))
    try:
        store.migrate()
        if seed:
            store.ensure_seeded(data_dir)
    except BaseException:
        store.close()
        raise
    return store


@contextmanager
def wrap_driver_errors(url: str, driver_error: type[BaseException] | tuple[type[BaseException], ...]) -> Iterator[None]:
    """Turn a database driver exception into a one-line :class:`StoreError` naming the database."""
    try:
        yield
    except driver_error as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise StoreError(reason, url) from exc
