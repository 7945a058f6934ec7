"""The allergen store's repository interface, its dialect-independent SQL, and :func:`open_store`.

:class:`OntologyStore` owns everything both databases share: migrations, seeding from the shipped data, the ontology
cache, synonym edits (validated), the Open Food Facts bulk import, and the audit log. The SQLite and PostgreSQL
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

import difflib
import json
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from dinecheck.allergens.audit import AuditRow, UnmatchedCount, count_unmatched, utc_now
from dinecheck.allergens.ontology import (
    ALLERGEN_CODES,
    SYNONYM_TYPES,
    Allergen,
    Ingredient,
    Ontology,
    RiskLevel,
    RiskPhrase,
    Synonym,
    load_data_dir,
)
from dinecheck.allergens.store.cache import OntologyCache
from dinecheck.allergens.store.migrations import LATEST_VERSION, MIGRATIONS_TABLE, Dialect, pending
from dinecheck.allergens.store.seed import Tx, data_fingerprint, replace_shipped_data
from dinecheck.allergens.text import lookup_key
from dinecheck.errors import OntologyError, StoreError

DB_ENV = "DINECHECK_DB"
MAX_SYNONYM_CHARS = 200
_LANG_OK = frozenset("abcdefghijklmnopqrstuvwxyz")


# ------------------------------------------------------------------------------------------------ typed results


@dataclass(frozen=True, slots=True)
class SynonymInput:
    """A synonym to add: ``canonical_id`` must be an existing canonical ingredient id."""

    text: str
    canonical_id: str
    lang: str | None = None
    region: str | None = None
    type: str = "USER"
    source: str = "USER"  # USER | OFF

    @property
    def key(self) -> str:
        return lookup_key(self.text)


@dataclass(frozen=True, slots=True)
class SkippedSynonym:
    synonym: SynonymInput
    reason: str  # "existing" (key already a synonym in the store) | "duplicate" (repeated within this batch)
    existing_canonical_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BulkAddResult:
    added: tuple[SynonymInput, ...]
    skipped: tuple[SkippedSynonym, ...]
    ontology_version: int


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


@dataclass(frozen=True, slots=True)
class SeedOutcome:
    action: str  # "current" | "seeded" | "reseeded"
    counts: dict[str, int] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------------ validation


SynonymFields = tuple[str, str | None, str | None, str]  # text, lang, region, type


def validate_synonym_fields(text: str, lang: str | None, region: str | None, typ: str) -> SynonymFields:
    """Check a user-supplied synonym's fields; returns them cleaned. Raises OntologyError naming the bad field."""
    clean = text.strip()
    if not clean or not lookup_key(clean):
        raise OntologyError("the synonym is empty", "SYNONYM")
    if len(clean) > MAX_SYNONYM_CHARS:
        raise OntologyError(f"the synonym is longer than {MAX_SYNONYM_CHARS} characters", "SYNONYM")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in clean):
        raise OntologyError("the synonym contains control characters", "SYNONYM")
    if lang is not None:
        lang = lang.strip().lower()
        head, _, tail = lang.partition("_")
        tail_ok = not tail or (len(tail) == 2 and set(tail) <= _LANG_OK)
        if not (2 <= len(head) <= 3 and set(head) <= _LANG_OK and tail_ok):
            raise OntologyError(f"{lang!r} is not a language code (two or three letters, e.g. en, fr, hi)", "--lang")
    if region is not None:
        region = region.strip().upper()
        if not (len(region) == 2 and region.isascii() and region.isalpha()):
            raise OntologyError(f"{region!r} is not a region code (two letters, e.g. IN, GB)", "--region")
    typ = typ.strip().upper()
    allowed = [t for t in SYNONYM_TYPES if t != "CANONICAL"]
    if typ not in allowed:
        raise OntologyError(f"{typ!r} is not a synonym type; use one of {', '.join(allowed)}", "--type")
    return clean, lang, region, typ


def resolve_canonical(name: str, ids: Sequence[str]) -> str:
    """The canonical id named by ``name`` (its id, or the id with spaces: ``peanut oil`` → ``peanut_oil``)."""
    wanted = lookup_key(name.replace("_", " "))
    for ing_id in ids:
        if lookup_key(ing_id.replace("_", " ")) == wanted:
            return ing_id
    close = difflib.get_close_matches(wanted.replace(" ", "_"), list(ids), n=5, cutoff=0.6)
    hint = f"; close matches: {', '.join(close)}" if close else "; `dinecheck allergens stats` shows the store"
    raise OntologyError(f"no canonical ingredient named {name!r}{hint}", "--canonical")


# ------------------------------------------------------------------------------------------------ the store


class OntologyStore(ABC):
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

    # -- schema and seed ----------------------------------------------------------------------------------------

    def migrate(self) -> list[int]:
        """Apply pending migrations (all in one transaction); returns the versions applied.

        An up-to-date database is recognised with a plain read, so opening one never waits for the write lock.
        """
        try:
            if self.schema_version() == LATEST_VERSION:
                return []
        except StoreError:  # no schema_migrations table yet: a new database
            pass
        with self.transaction(write=True) as tx:
            self._exclusive(tx)
            tx.execute(MIGRATIONS_TABLE[self.dialect])
            applied = {int(r[0]) for r in tx.fetchall("SELECT version FROM schema_migrations")}
            if applied and max(applied) > LATEST_VERSION:
                raise StoreError(
                    f"the database schema is at version {max(applied)}, newer than this dinecheck understands "
                    f"({LATEST_VERSION}); upgrade dinecheck", self.url
                )  # fmt: skip
            done = []
            for m in pending(applied):
                for stmt in m.statements(self.dialect):
                    tx.execute(stmt)
                tx.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (m.version, m.name, self._ts_param(utc_now())),
                )
                done.append(m.version)
            return done

    def schema_version(self) -> int:
        with self.transaction() as tx:
            rows = tx.fetchall("SELECT MAX(version) FROM schema_migrations")
        return int(rows[0][0] or 0)

    def ensure_seeded(self, data_dir: Path | None = None) -> SeedOutcome:
        """Seed from the data files if the store is empty or was seeded from different data files."""
        fingerprint = data_fingerprint(data_dir)
        if self._meta("seed_fingerprint") == fingerprint:
            return SeedOutcome("current")
        ontology = load_data_dir(data_dir)
        with self.transaction(write=True) as tx:
            self._exclusive(tx)
            current = tx.fetchall("SELECT value FROM ontology_meta WHERE key = 'seed_fingerprint'")
            if current and current[0][0] == fingerprint:
                return SeedOutcome("current")
            counts = replace_shipped_data(tx, ontology, self._ts_param(utc_now()))
            if current:
                tx.execute("UPDATE ontology_meta SET value = ? WHERE key = 'seed_fingerprint'", (fingerprint,))
            else:
                tx.execute("INSERT INTO ontology_meta (key, value) VALUES ('seed_fingerprint', ?)", (fingerprint,))
            self._bump_version(tx)
            return SeedOutcome("reseeded" if current else "seeded", counts)

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

    def canonical_ids(self) -> list[str]:
        with self.transaction() as tx:
            return [r[0] for r in tx.fetchall("SELECT id FROM canonical_ingredients ORDER BY id")]

    def add_synonym(
        self, text: str, canonical: str, lang: str | None = None, region: str | None = None, type: str = "USER"
    ) -> SynonymInput:
        """Add one validated synonym (the CLI's ``synonym add``). Refuses a key that is already a synonym."""
        clean, lang, region, typ = validate_synonym_fields(text, lang, region, type)
        with self.transaction(write=True) as tx:
            ids = [r[0] for r in tx.fetchall("SELECT id FROM canonical_ingredients")]
            canonical_id = resolve_canonical(canonical, sorted(ids))
            syn = SynonymInput(clean, canonical_id, lang, region, typ, "USER")
            existing = self._existing_keys(tx, {syn.key}).get(syn.key)
            if existing:
                raise OntologyError(
                    f"{clean!r} (lookup key {syn.key!r}) is already a synonym of {', '.join(sorted(existing))}; "
                    "a key maps to one meaning, so it was not added", "SYNONYM"
                )  # fmt: skip
            self._insert_synonyms(tx, [syn])
            self._bump_version(tx)
        return syn

    def remove_synonym(self, text: str) -> list[SynonymInput]:
        """Remove the user or OFF synonyms whose lookup key equals that of ``text``; returns what was removed.

        Synonyms from the shipped data are never removed (they come back on the next seed anyway): asking to remove
        only those is an error. Removing a name can only make labels less understood (VERIFY), never SAFE.
        """
        key = lookup_key(text)
        if not key:
            raise OntologyError("the synonym is empty", "SYNONYM")
        with self.transaction(write=True) as tx:
            rows = tx.fetchall(
                "SELECT id, synonym, canonical_id, language_code, region_code, synonym_type, source"
                " FROM ingredient_synonyms ORDER BY id"
            )
            mine = [r for r in rows if lookup_key(r[1]) == key]
            removable = [r for r in mine if r[6] != "DATA"]
            if not removable:
                where = "comes from the shipped data and cannot be removed" if mine else "is not a synonym in the store"
                raise OntologyError(f"{text!r} (lookup key {key!r}) {where}", "SYNONYM")
            tx.executemany("DELETE FROM ingredient_synonyms WHERE id = ?", [(r[0],) for r in removable])
            self._bump_version(tx)
        return [SynonymInput(r[1], r[2], r[3], r[4], r[5], r[6]) for r in removable]

    def synonyms(self, source: str | None = None) -> list[SynonymInput]:
        """Stored synonyms in insertion order, optionally only those of one source (DATA, USER or OFF)."""
        sql = "SELECT synonym, canonical_id, language_code, region_code, synonym_type, source FROM ingredient_synonyms"
        params: tuple[Any, ...] = ()
        if source is not None:
            if source.upper() not in ("DATA", "USER", "OFF"):
                raise OntologyError(f"{source!r} is not a synonym source; use DATA, USER or OFF", "--source")
            sql += " WHERE source = ?"
            params = (source.upper(),)
        with self.transaction() as tx:
            rows = tx.fetchall(sql + " ORDER BY id", params)
        return [SynonymInput(*r) for r in rows]

    def add_synonyms(
        self, synonyms: Sequence[SynonymInput], ingredients: Sequence[Ingredient] = (), source: str = "USER"
    ) -> BulkAddResult:
        """Add many synonyms in one transaction, never overriding a key that already exists (used by the OFF import).

        ``ingredients`` the synonyms may point to are created first (with their allergen map, marked ``source``) unless
        an ingredient of that id exists already. A synonym whose lookup key is already in the store, or repeated earlier
        in the batch, is skipped and reported. Unknown canonical ids are an error (nothing is written).
        """
        if source not in ("USER", "OFF"):
            raise OntologyError(f"ingredients can only be added with source USER or OFF, not {source!r}")
        with self.transaction(write=True) as tx:
            ids = {r[0] for r in tx.fetchall("SELECT id FROM canonical_ingredients")}
            new_ings = [i for i in ingredients if i.id not in ids]
            if new_ings:
                tx.executemany(
                    "INSERT INTO canonical_ingredients (id, canonical_name, parent_id, category, source)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(i.id, i.id.replace("_", " "), i.parent, i.category, source) for i in new_ings],
                )
                tx.executemany(
                    "INSERT INTO ingredient_allergen_map (ingredient_id, allergen_code, risk_level) VALUES (?, ?, ?)",
                    [(i.id, code, level.value) for i in new_ings for code, level in i.allergens.items()],
                )
                ids |= {i.id for i in new_ings}
            unknown = sorted({s.canonical_id for s in synonyms} - ids)
            if unknown:
                raise OntologyError(f"unknown canonical ingredient(s): {', '.join(unknown)}")
            existing = self._existing_keys(tx, {s.key for s in synonyms})
            added: list[SynonymInput] = []
            skipped: list[SkippedSynonym] = []
            seen: set[str] = set()
            for s in synonyms:
                key = s.key
                if not key:
                    skipped.append(SkippedSynonym(s, "empty"))
                elif key in existing:
                    skipped.append(SkippedSynonym(s, "existing", tuple(sorted(existing[key]))))
                elif key in seen:
                    skipped.append(SkippedSynonym(s, "duplicate"))
                else:
                    seen.add(key)
                    added.append(s)
            self._insert_synonyms(tx, added)
            if added or new_ings:
                self._bump_version(tx)
            version = int(tx.fetchall("SELECT value FROM ontology_meta WHERE key = 'ontology_version'")[0][0])
        return BulkAddResult(tuple(added), tuple(skipped), version)

    def _existing_keys(self, tx: Tx, keys: set[str]) -> dict[str, set[str]]:
        """Stored synonyms (and canonical names) whose recomputed key is in ``keys`` → their canonical ids."""
        found: dict[str, set[str]] = {}
        for text, cid in tx.fetchall("SELECT synonym, canonical_id FROM ingredient_synonyms"):
            k = lookup_key(text)
            if k in keys:
                found.setdefault(k, set()).add(cid)
        for (cid,) in tx.fetchall("SELECT id FROM canonical_ingredients"):
            k = lookup_key(cid.replace("_", " "))
            if k in keys:
                found.setdefault(k, set()).add(cid)
        return found

    def _insert_synonyms(self, tx: Tx, synonyms: Sequence[SynonymInput]) -> None:
        now = self._ts_param(utc_now())
        tx.executemany(
            "INSERT INTO ingredient_synonyms (synonym, synonym_normalized, canonical_id, language_code, region_code,"
            " synonym_type, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(s.text, s.key, s.canonical_id, s.lang, s.region, s.type, s.source, now) for s in synonyms],
        )

    # -- audit --------------------------------------------------------------------------------------------------

    def write_audit(self, rows: Sequence[AuditRow]) -> int:
        """Append audit rows in one transaction; returns how many were written."""
        if not rows:
            return 0
        data = [
            (
                r.raw_input, r.product_id, ",".join(r.profile), r.verdict,
                json.dumps(r.result, ensure_ascii=False, separators=(",", ":")),
                json.dumps(list(r.unmatched_tokens), ensure_ascii=False),
                json.dumps(list(r.risk_phrases), ensure_ascii=False),
                r.confidence, r.tokens_processed, r.tokens_matched, r.processing_time_ms, self._ts_param(r.created_at),
            )  # fmt: skip
            for r in rows
        ]
        with self.transaction(write=True) as tx:
            tx.executemany(
                "INSERT INTO normalization_audit_log (raw_input, product_id, profile, verdict, normalized_result,"
                " unmatched_tokens, risk_phrases_found, confidence_score, tokens_processed, tokens_matched,"
                " processing_time_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                data,
            )
        return len(data)

    def audit(self, since: datetime | None = None, unmatched_only: bool = False, limit: int | None = None,
              newest_first: bool = False) -> list[AuditRow]:  # fmt: skip
        """Audit rows in insertion order (or newest first), optionally from ``since`` on and/or only those with
        unmatched tokens."""
        sql = (
            "SELECT id, raw_input, product_id, profile, verdict, normalized_result, unmatched_tokens,"
            " risk_phrases_found, confidence_score, tokens_processed, tokens_matched, processing_time_ms, created_at"
            " FROM normalization_audit_log WHERE 1 = 1"
        )
        params: list[Any] = []
        if since is not None:
            sql += " AND created_at >= ?"
            params.append(self._ts_param(since))
        if unmatched_only:
            sql += " AND unmatched_tokens <> '[]'"
        sql += " ORDER BY id DESC" if newest_first else " ORDER BY id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self.transaction() as tx:
            rows = tx.fetchall(sql, tuple(params))
        return [
            AuditRow(
                raw_input=raw, product_id=pid, profile=tuple(c for c in prof.split(",") if c), verdict=verdict,
                result=json.loads(res), unmatched_tokens=tuple(json.loads(unm)), risk_phrases=tuple(json.loads(phr)),
                confidence=float(conf), tokens_processed=int(tp), tokens_matched=int(tm),
                processing_time_ms=float(ms), created_at=self._ts_value(ts), id=int(rid),
            )  # fmt: skip
            for rid, raw, pid, prof, verdict, res, unm, phr, conf, tp, tm, ms, ts in rows
        ]

    def audit_count(self) -> int:
        with self.transaction() as tx:
            return int(tx.fetchall("SELECT COUNT(*) FROM normalization_audit_log")[0][0])

    def unmatched_report(self, since: datetime | None = None) -> list[UnmatchedCount]:
        """Unmatched token → count over the log (reads only the token column)."""
        sql = "SELECT unmatched_tokens FROM normalization_audit_log WHERE unmatched_tokens <> '[]'"
        params: tuple[Any, ...] = ()
        if since is not None:
            sql += " AND created_at >= ?"
            params = (self._ts_param(since),)
        with self.transaction() as tx:
            rows = tx.fetchall(sql, params)
        return count_unmatched(json.loads(tokens) for (tokens,) in rows)

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
