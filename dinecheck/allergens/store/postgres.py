"""PostgreSQL dialect of the allergen store (psycopg 3): ``postgresql://user@host:port/db[?schema=NAME]``.

One autocommit connection; each store transaction is an explicit ``BEGIN … COMMIT`` (reads at REPEATABLE READ so the
ontology is loaded from one snapshot). Schema work and seeding hold a transaction-level advisory lock, so concurrent
first opens migrate exactly once. The optional ``schema`` query parameter selects (and creates) a schema, which the
tests use to isolate sessions on a shared server. Timestamps are ``TIMESTAMPTZ``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from dinecheck.allergens.store.base import OntologyStore, wrap_driver_errors
from dinecheck.errors import StoreError

ADVISORY_LOCK_KEY = 0x44494E45  # "DINE": serialises migrations and seeding across processes
_SCHEMA_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


class _PgTx:
    def __init__(self, cur: psycopg.Cursor[Any]) -> None:
        self._cur = cur

    @staticmethod
    def _sql(text: str) -> str:
        return text.replace("?", "%s")

    def execute(self, sql_text: str, params: tuple[Any, ...] = ()) -> None:
        self._cur.execute(self._sql(sql_text), params or None)

    def executemany(self, sql_text: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            self._cur.executemany(self._sql(sql_text), rows)

    def fetchall(self, sql_text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        self._cur.execute(self._sql(sql_text), params or None)
        return self._cur.fetchall()


class PostgresStore(OntologyStore):
    dialect = "postgres"

    def __init__(self, conninfo: str, schema: str | None = None, display_url: str | None = None) -> None:
        super().__init__(display_url or _redact(conninfo))
        if schema is not None and not _SCHEMA_NAME.match(schema):
            raise StoreError(f"{schema!r} is not a valid schema name (letters, digits, underscore)", "--db")
        self.schema = schema
        with wrap_driver_errors(self.url, psycopg.Error):
            self._conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=10)
            if schema is not None:
                with self._conn.transaction():
                    self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK_KEY,))
                    self._conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
                self._conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))

    @classmethod
    def from_url(cls, url: str) -> PostgresStore:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        schema = next((v for k, v in query if k == "schema"), None)
        rest = [(k, v) for k, v in query if k != "schema"]
        conninfo = urlunsplit(parts._replace(query=urlencode(rest)))
        return cls(conninfo, schema, _redact(url))

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[_PgTx]:
        with (
            self._lock,
            wrap_driver_errors(self.url, psycopg.Error),
            self._conn.transaction(),
            self._conn.cursor() as cur,
        ):
                if not write:
                    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield _PgTx(cur)

    def _read(self, sql_text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """A single statement in autocommit mode: one round trip instead of BEGIN/SET/SELECT/COMMIT."""
        with self._lock, wrap_driver_errors(self.url, psycopg.Error):
            return self._conn.execute(_PgTx._sql(sql_text), params or None).fetchall()

    def _exclusive(self, tx: Any) -> None:
        tx.execute("SELECT pg_advisory_xact_lock(?)", (ADVISORY_LOCK_KEY,))

    def _ts_param(self, dt: datetime) -> datetime:
        return dt.astimezone(UTC)

    def _ts_value(self, value: Any) -> datetime:
        return value.astimezone(UTC)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def drop_schema(self) -> None:
        """Drop this store's schema and everything in it (tests only; refuses the default schema)."""
        if self.schema is None or self.schema == "public":
            raise StoreError("refusing to drop the default schema", self.url)
        with self._lock, wrap_driver_errors(self.url, psycopg.Error):
            self._conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema)))
