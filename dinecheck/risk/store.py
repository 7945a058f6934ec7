"""The allergy-evidence results store: per-review labels (with quotes and extractor provenance) and summaries.

SQLite by default, PostgreSQL by URL, with the ontology store's conventions:

* ``None`` → ``$DINECHECK_RISK_DB`` if set, else the SQLite file ``<user data dir>/dinecheck/risk.sqlite``;
* ``sqlite:///relative.sqlite``, ``sqlite:////absolute.sqlite`` or a plain file path;
* ``postgresql://user@host:port/db`` (or ``postgres://``), optionally ``?schema=NAME``.

Labels are keyed by ``(review_id, provenance)`` and carry the hash of the text they were extracted from, so a re-build
extracts only new or changed reviews (:meth:`RiskStore.labels`). Summaries are one row per restaurant × allergen, the
JSON of :class:`~dinecheck.risk.evidence.AllergenEvidence`, replaced by each build of that restaurant.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from dinecheck.errors import StoreError
from dinecheck.risk.evidence import AllergenEvidence

DB_ENV = "DINECHECK_RISK_DB"
SCHEMA_VERSION = "1"

_DDL = (
    "CREATE TABLE IF NOT EXISTS risk_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    (
        "CREATE TABLE IF NOT EXISTS risk_labels (review_id TEXT NOT NULL, provenance TEXT NOT NULL, text_hash TEXT"
        " NOT NULL, business_id TEXT NOT NULL, status TEXT NOT NULL, label TEXT NOT NULL,"
        " PRIMARY KEY (review_id, provenance))"
    ),
    "CREATE TABLE IF NOT EXISTS risk_restaurants (business_id TEXT PRIMARY KEY, name TEXT NOT NULL, address TEXT, source TEXT)",
    (
        "CREATE TABLE IF NOT EXISTS risk_summaries (business_id TEXT NOT NULL, allergen TEXT NOT NULL, level TEXT"
        " NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (business_id, allergen))"
    ),
    "CREATE INDEX IF NOT EXISTS risk_summaries_allergen ON risk_summaries (allergen)",
)


@dataclass(frozen=True, slots=True)
class StoredLabel:
    """One stored extraction: the text hash it belongs to, its status, values and verified quotes."""

    review_id: str
    business_id: str
    text_hash: str
    status: str
    values: dict[str, str]
    quotes: dict[str, str]
    error: str | None = None

    def label_json(self) -> str:
        return json.dumps({"values": self.values, "quotes": self.quotes, "error": self.error}, ensure_ascii=False)


def default_sqlite_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("dinecheck")) / "risk.sqlite"


class RiskStore:
    """The results store (one connection; ``?`` placeholders in every statement, rewritten for PostgreSQL)."""

    def __init__(self, conn: Any, dialect: str, url: str, schema: str | None = None) -> None:
        self._conn = conn
        self.dialect = dialect
        self.url = url
        self._schema = schema
        self._lock = threading.Lock()  # one connection shared by threads (a web server): one statement group at a time
        with self._tx() as cur:
            if schema:
                cur.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
                cur.execute(f'SET search_path TO "{schema}"')
            for stmt in _DDL:
                cur.execute(stmt)
            self._exec(cur, "INSERT INTO risk_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                       ("schema_version", SCHEMA_VERSION))  # fmt: skip

    # ------------------------------------------------------------------------------------------------- plumbing
    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.dialect == "postgresql" else text

    def _exec(self, cur: Any, text: str, params: Sequence[Any] = ()) -> Any:
        return cur.execute(self._sql(text), tuple(params))

    def _many(self, cur: Any, text: str, rows: Iterable[Sequence[Any]]) -> None:
        cur.executemany(self._sql(text), [tuple(r) for r in rows])

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self._lock:
            yield from self._tx_unlocked()

    def _tx_unlocked(self) -> Iterator[Any]:
        try:
            if self.dialect == "sqlite":
                cur = self._conn.cursor()
                try:
                    cur.execute("BEGIN")
                    yield cur
                    cur.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        cur.execute("ROLLBACK")
                    raise
                finally:
                    cur.close()
            else:
                with self._conn.transaction(), self._conn.cursor() as cur:
                    if self._schema:
                        cur.execute(f'SET LOCAL search_path TO "{self._schema}"')
                    yield cur
        except sqlite3.Error as exc:
            raise StoreError(f"database error ({exc})", self.url) from None
        except Exception as exc:
            if type(exc).__module__.startswith("psycopg"):
                raise StoreError(f"database error ({str(exc).strip().splitlines()[0]})", self.url) from None
            raise

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------------- labels
    def labels(self, provenance: str, review_ids: Sequence[str]) -> dict[str, StoredLabel]:
        """Stored labels of these reviews by this extractor provenance."""
        out: dict[str, StoredLabel] = {}
        ids = list(review_ids)
        with self._tx() as cur:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._exec(
                    cur,
                    "SELECT review_id, business_id, text_hash, status, label FROM risk_labels "
                    f"WHERE provenance = ? AND review_id IN ({marks})",
                    [provenance, *chunk],
                ).fetchall()
                for rid, bid, th, status, label in rows:
                    obj = json.loads(label)
                    out[rid] = StoredLabel(rid, bid, th, status, obj["values"], obj["quotes"], obj.get("error"))
        return out

    def save_labels(self, provenance: str, labels: Sequence[StoredLabel]) -> None:
        if not labels:
            return
        with self._tx() as cur:
            self._many(
                cur,
                "INSERT INTO risk_labels (review_id, provenance, text_hash, business_id, status, label) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (review_id, provenance) DO UPDATE SET "
                "text_hash = excluded.text_hash, business_id = excluded.business_id, status = excluded.status, "
                "label = excluded.label",
                [(x.review_id, provenance, x.text_hash, x.business_id, x.status, x.label_json()) for x in labels],
            )

    def count_labels(self) -> int:
        with self._tx() as cur:
            return int(self._exec(cur, "SELECT COUNT(*) FROM risk_labels").fetchone()[0])

    # ------------------------------------------------------------------------------------------------- summaries
    def save_summaries(
        self,
        restaurants: Sequence[tuple[str, str, str | None]],
        summaries: Iterable[AllergenEvidence],
        meta: dict[str, str],
        source: str | None,
    ) -> None:
        """Replace the restaurants' rows and their summaries; record build metadata."""
        rows = [(e.business_id, e.allergen, e.level, json.dumps(e.to_json(), ensure_ascii=False)) for e in summaries]
        with self._tx() as cur:
            self._many(
                cur,
                "INSERT INTO risk_restaurants (business_id, name, address, source) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (business_id) DO UPDATE SET name = excluded.name, address = excluded.address, "
                "source = excluded.source",
                [(b, n, a, source) for b, n, a in restaurants],
            )
            self._many(
                cur,
                "INSERT INTO risk_summaries (business_id, allergen, level, payload) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (business_id, allergen) DO UPDATE SET level = excluded.level, payload = excluded.payload",
                rows,
            )
            self._many(
                cur,
                "INSERT INTO risk_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                list(meta.items()),
            )

    def evidence(self, business_ids: Sequence[str] | None, codes: Sequence[str]) -> dict[str, dict[str, AllergenEvidence]]:
        """Stored summaries: ``business_id → code → evidence`` for these codes (all restaurants when ids is None)."""
        out: dict[str, dict[str, AllergenEvidence]] = {}
        if not codes:
            return out
        marks = ",".join("?" * len(codes))
        with self._tx() as cur:
            rows = self._exec(
                cur, f"SELECT business_id, payload FROM risk_summaries WHERE allergen IN ({marks})", list(codes)
            ).fetchall()
        wanted = set(business_ids) if business_ids is not None else None
        for bid, payload in rows:
            if wanted is not None and bid not in wanted:
                continue
            ev = AllergenEvidence.from_json(json.loads(payload))
            out.setdefault(bid, {})[ev.allergen] = ev
        return out

    def restaurants(self) -> list[tuple[str, str, str | None]]:
        """``(business_id, name, address)`` of every restaurant with stored evidence."""
        with self._tx() as cur:
            return [tuple(r) for r in self._exec(cur, "SELECT business_id, name, address FROM risk_restaurants "
                                                      "ORDER BY name, business_id").fetchall()]  # fmt: skip

    def meta(self) -> dict[str, str]:
        with self._tx() as cur:
            return {k: v for k, v in self._exec(cur, "SELECT key, value FROM risk_meta").fetchall()}


def open_risk_store(url: str | None = None, *, create: bool = True) -> RiskStore:
    """Open (creating the tables as needed) the store named by ``url``; see the module docstring.

    With ``create=False`` a missing SQLite file is a :class:`StoreError` (reading a store that was never built).
    """
    target = url if url is not None else os.environ.get(DB_ENV) or None
    if target is not None and not target.strip():
        raise StoreError("the database URL is empty", "--db")
    if target is not None and target.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError:  # pragma: no cover - psycopg is a core dependency
            raise StoreError("PostgreSQL needs the psycopg package", "--db") from None
        parts = urlsplit(target)
        query = parse_qsl(parts.query, keep_blank_values=True)
        schema = next((v for k, v in query if k == "schema"), None)
        conninfo = urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query if k != "schema"])))
        shown = urlunsplit(parts._replace(netloc=parts.hostname or "", query=""))
        try:
            conn = psycopg.connect(conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect ({str(exc).strip().splitlines()[0]})", shown) from None
        return RiskStore(conn, "postgresql", shown, schema)
    if target is None:
        path = default_sqlite_path()
    elif target.startswith("sqlite://"):
        rest = target[len("sqlite://") :]
        if not rest.startswith("/"):
            raise StoreError("a SQLite URL is sqlite:///relative/file.sqlite or sqlite:////absolute/file.sqlite", "--db")
        path = Path(rest[1:])  # sqlite:///rel.sqlite -> rel.sqlite; sqlite:////abs.sqlite -> /abs.sqlite
    elif "://" in target:
        raise StoreError(f"unsupported database URL scheme {target.split('://')[0]!r}; use sqlite:/// or postgresql://",
                         "--db")  # fmt: skip
    else:
        path = Path(target)
    if not create and not path.is_file():
        raise StoreError("no allergy evidence store here yet; build it with: dinecheck risk build --data DIR", str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lite = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        lite.execute("PRAGMA journal_mode=WAL")
        lite.execute("PRAGMA synchronous=NORMAL")
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open the database ({exc})", str(path)) from None
    return RiskStore(lite, "sqlite", str(path))
