"""The audit log of label checks in the allergen store: batched writes, listing, the unmatched-token report (a mixin
of :class:`~dinecheck.allergens.store.base.OntologyStore`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dinecheck.allergens.audit import AuditRow, UnmatchedCount, count_unmatched
from dinecheck.allergens.store.seed import Tx

_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_LIST = json.JSONEncoder(ensure_ascii=False)  # the stored form of the two name lists ("a", "b" with a space)


class AuditLog:
    """One row per label check (``normalization_audit_log``)."""

    if TYPE_CHECKING:  # provided by OntologyStore

        def transaction(self, write: bool = False) -> AbstractContextManager[Tx]: ...
        def _ts_param(self, dt: datetime) -> Any: ...
        def _ts_value(self, value: Any) -> datetime: ...

    def write_audit(self, rows: Sequence[AuditRow]) -> int:
        """Append audit rows in one transaction; returns how many were written."""
        if not rows:
            return 0
        encode = _COMPACT.encode  # one encoder for the batch (``json.dumps`` with options builds one per call)
        data = [
            (
                r.raw_input, r.product_id, ",".join(r.profile), r.verdict, encode(r.result),
                _LIST.encode(r.unmatched_tokens) if r.unmatched_tokens else "[]",
                _LIST.encode(r.risk_phrases) if r.risk_phrases else "[]",
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
