"""The persistent extraction cache: one SQLite file mapping a review's cache key to its validated labels.

The key (see :func:`dinecheck.extract.prompt.review_cache_key`) covers the model, the prompt version, the field schema
and the review text, so re-running a seed on the same data asks the model nothing. Only validated (``ok``) answers are
stored — a failed or invalid answer is never cached. One connection guarded by a lock serves every thread; WAL mode
and a busy timeout let several processes share the file.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

import platformdirs

from dinecheck.errors import StoreError
from dinecheck.extract.base import Evidence

_SCHEMA = """
CREATE TABLE IF NOT EXISTS extraction (
    key        TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    values_json   TEXT NOT NULL,
    evidence_json TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""


def default_cache_path() -> Path:
    """``<user cache dir>/dinecheck/llm_cache.sqlite``."""
    return Path(platformdirs.user_cache_dir("dinecheck")) / "llm_cache.sqlite"


Row = tuple[dict[str, str], dict[str, Evidence]]


class Cache(Protocol):
    """What the LLM extractor needs of a cache (this SQLite file, or :mod:`dinecheck.extract.cache_pg`)."""

    def get(self, key: str) -> Row | None: ...

    def put(self, key: str, model: str, values: dict[str, str], evidence: dict[str, Evidence]) -> None: ...

    def close(self) -> None: ...


def decode_row(row: tuple[str, str] | None) -> Row | None:
    """``(values, evidence)`` from a stored ``(values_json, evidence_json)``; None for no row or a damaged one."""
    if row is None:
        return None
    try:
        values = json.loads(row[0])
        evidence = {k: Evidence(quote=v["quote"], verified=bool(v["verified"])) for k, v in json.loads(row[1]).items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
        return None
    return values, evidence


def encode_row(key: str, model: str, values: dict[str, str], evidence: dict[str, Evidence]) -> tuple[str, str, str, str, float]:
    """The stored row ``(key, model, values_json, evidence_json, created_at)``."""
    ev = {k: {"quote": e.quote, "verified": e.verified} for k, e in evidence.items()}
    return key, model, json.dumps(values, ensure_ascii=False), json.dumps(ev, ensure_ascii=False), time.time()


class ExtractionCache:
    """Thread-safe SQLite cache of validated extractions (``get`` / ``put`` by key)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the extraction cache ({exc})", str(self.path)) from None

    def get(self, key: str) -> Row | None:
        """The cached ``(values, evidence)`` for ``key``, or None. A damaged row counts as a miss."""
        with self._lock:
            try:
                row = self._conn.execute(
                    "SELECT values_json, evidence_json FROM extraction WHERE key = ?", (key,)
                ).fetchone()
            except sqlite3.Error as exc:
                raise StoreError(f"cannot read the extraction cache ({exc})", str(self.path)) from None
        return decode_row(row)

    def put(self, key: str, model: str, values: dict[str, str], evidence: dict[str, Evidence]) -> None:
        """Store validated labels (callers must only pass ``ok`` answers)."""
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO extraction (key, model, values_json, evidence_json, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    encode_row(key, model, values, evidence),
                )
            except sqlite3.Error as exc:
                raise StoreError(f"cannot write the extraction cache ({exc})", str(self.path)) from None

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT count(*) FROM extraction").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
