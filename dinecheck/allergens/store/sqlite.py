"""SQLite dialect of the allergen store (the default): one file, WAL journal, explicit transactions.

Writers take the file's write lock up front (``BEGIN IMMEDIATE``) and wait up to ``busy_timeout`` for it, so several
threads or processes appending audit rows to one file all succeed; nothing is lost or half-written. Timestamps are
stored as fixed-width UTC ISO-8601 text, so text order is time order. Foreign keys are enforced (deferred to commit).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dinecheck.allergens.store.base import OntologyStore, wrap_driver_errors
from dinecheck.errors import StoreError

BUSY_TIMEOUT_S = 60.0


class _SqliteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        self._conn.execute(sql, params)

    def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            self._conn.executemany(sql, rows)

    def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._conn.execute(sql, params).fetchall()


class SqliteStore(OntologyStore):
    dialect = "sqlite"

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        super().__init__(f"sqlite:///{self.path}")
        with wrap_driver_errors(self.url, sqlite3.Error):
            self._conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            self._conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            self._conn.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                self._enable_wal()
            self._conn.execute("PRAGMA synchronous = NORMAL")

    def _enable_wal(self) -> None:
        """Switch the file to WAL once. Switching ignores the busy handler, so a concurrent first open retries."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                if self._conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self._conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    @classmethod
    def from_url(cls, url: str) -> SqliteStore:
        """``sqlite:///relative.sqlite`` or ``sqlite:////absolute/path.sqlite`` (also ``sqlite:///:memory:``)."""
        rest = url[len("sqlite://") :]
        if not rest.startswith("/") or len(rest) < 2:
            raise StoreError(f"{url!r} is not a SQLite URL; write sqlite:///file.sqlite or sqlite:////abs/path", "--db")
        return cls(rest[1:])

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[_SqliteTx]:
        with self._lock, wrap_driver_errors(self.url, sqlite3.Error):
            self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _SqliteTx(self._conn)
                self._conn.execute("COMMIT")  # deferred foreign keys are checked here and may fail
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    def _exclusive(self, tx: Any) -> None:
        """``BEGIN IMMEDIATE`` already holds the file's single write lock."""

    def _ts_param(self, dt: datetime) -> str:
        return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")

    def _ts_value(self, value: Any) -> datetime:
        return datetime.fromisoformat(value)

    def close(self) -> None:
        with self._lock:
            self._conn.close()
