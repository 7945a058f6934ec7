"""Schema migrations and seeding of the allergen store from the shipped data files (a mixin of
:class:`~dinecheck.allergens.store.base.OntologyStore`)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dinecheck.allergens.audit import utc_now
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.store.migrations import LATEST_VERSION, MIGRATIONS_TABLE, Dialect, pending
from dinecheck.allergens.store.seed import Tx, data_fingerprint, replace_shipped_data
from dinecheck.errors import StoreError


@dataclass(frozen=True, slots=True)
class SeedOutcome:
    action: str  # "current" | "seeded" | "reseeded"
    counts: dict[str, int] = field(default_factory=dict)




class SchemaAndSeed:
    """Versioned migrations under a cross-process lock; (re-)seeding when the shipped data changed."""

    dialect: Dialect
    url: str

    if TYPE_CHECKING:  # provided by OntologyStore

        def transaction(self, write: bool = False) -> AbstractContextManager[Tx]: ...
        def _exclusive(self, tx: Tx) -> None: ...
        def _ts_param(self, dt: datetime) -> Any: ...
        def _meta(self, key: str) -> str | None: ...
        def _bump_version(self, tx: Tx) -> None: ...

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
