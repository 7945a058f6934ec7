"""The extraction cache in PostgreSQL (``--cache-url postgresql://…``): one cache for workers on several machines.

Same keys and rows as the SQLite file (:mod:`dinecheck.extract.cache`), in the table ``dinecheck_extraction_cache``
(created when missing). One autocommit connection guarded by a lock serves the threads of a worker; every Ray actor
opens its own. Only validated answers are stored; a damaged row counts as a miss.
"""

from __future__ import annotations

import threading
from urllib.parse import urlsplit

from dinecheck.errors import StoreError
from dinecheck.extract.base import Evidence
from dinecheck.extract.cache import Row, decode_row, encode_row

TABLE = "dinecheck_extraction_cache"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    key           TEXT PRIMARY KEY,
    model         TEXT NOT NULL,
    values_json   TEXT NOT NULL,
    evidence_json TEXT NOT NULL,
    created_at    DOUBLE PRECISION NOT NULL
)
"""
_LOCK_KEY = 0x64636578  # serialises CREATE TABLE IF NOT EXISTS when many workers open the cache at once


def display_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (for messages)."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@", 1)
    return url


def is_postgres_url(value: str) -> bool:
    return value.startswith(("postgresql://", "postgres://"))


class PostgresExtractionCache:
    """Thread-safe PostgreSQL cache of validated extractions (``get`` / ``put`` by key)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self._error = psycopg.Error
        self.url = display_url(url)
        if not is_postgres_url(url):
            raise StoreError("expected a postgresql:// URL", "--cache-url")
        self._lock = threading.Lock()
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=10)
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
                self._conn.execute(_SCHEMA)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open the extraction cache ({str(exc).strip().splitlines()[0]})", self.url) from None

    def get(self, key: str) -> Row | None:
        """The cached ``(values, evidence)`` for ``key``, or None."""
        with self._lock:
            try:
                row = self._conn.execute(f"SELECT values_json, evidence_json FROM {TABLE} WHERE key = %s", (key,)).fetchone()
            except self._error as exc:
                raise StoreError(f"cannot read the extraction cache ({exc})", self.url) from None
        return decode_row(row)

    def put(self, key: str, model: str, values: dict[str, str], evidence: dict[str, Evidence]) -> None:
        """Store validated labels (callers must only pass ``ok`` answers); the last writer of a key wins."""
        with self._lock:
            try:
                self._conn.execute(
                    f"INSERT INTO {TABLE} (key, model, values_json, evidence_json, created_at) VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT (key) DO UPDATE SET model = EXCLUDED.model, values_json = EXCLUDED.values_json, "
                    "evidence_json = EXCLUDED.evidence_json, created_at = EXCLUDED.created_at",
                    encode_row(key, model, values, evidence),
                )
            except self._error as exc:
                raise StoreError(f"cannot write the extraction cache ({exc})", self.url) from None

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()
