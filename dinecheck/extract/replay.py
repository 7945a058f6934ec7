"""The replay extractor: recorded labels from a JSONL file keyed by ``review_id``.

Each line is ``{"review_id": …, "business_id"?: …, "extraction": {FIELD: value, …}, "status"?: …, "error"?: …}`` —
exactly what ``seed extract --json`` prints, so its output replays as is. A malformed file (bad JSON, a line without
``review_id`` or ``extraction``, a duplicate ``review_id``) raises :class:`~dinecheck.errors.DataError` naming file and
line. A review with no record gets a result with status ``error``; a record whose ``status`` is ``invalid`` or
``error`` replays that status and its error; a record that lacks a requested field or holds an undeclared value gets
status ``invalid``. Nothing is ever defaulted.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dinecheck.dataset.loader import iter_jsonl
from dinecheck.errors import DataError
from dinecheck.extract.base import ExtractionResult, ExtractionStats, FieldSpec, ReviewInput, Status

MAX_RECORDS = 5_000_000


class ReplayExtractor:
    """Replays recorded labels; loads the whole file at construction."""

    name = "replay"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.stats = ExtractionStats()
        self.records: dict[str, dict[str, Any]] = {}
        self.failed: dict[str, tuple[Status, str]] = {}  # review_id → the recorded non-ok status and error
        first_line: dict[str, int] = {}
        for lineno, obj in iter_jsonl(self.path):
            if isinstance(obj, DataError):
                raise obj
            loc = f"{self.path}:{lineno}"
            rid = obj.get("review_id")
            if not isinstance(rid, str) or not rid:
                raise DataError("missing or empty 'review_id'", loc)
            ext = obj.get("extraction")
            if not isinstance(ext, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in ext.items()):
                raise DataError("'extraction' must be an object of field → string value", loc)
            if rid in self.records:
                raise DataError(f"duplicate review_id {rid!r} (first at line {first_line[rid]})", loc)
            if len(self.records) >= MAX_RECORDS:
                raise DataError(f"more than {MAX_RECORDS} records", loc)
            status = obj.get("status", "ok")
            if status not in ("ok", "invalid", "error"):
                raise DataError(f"'status' must be 'ok', 'invalid' or 'error', not {status!r}", loc)
            if status != "ok":
                self.failed[rid] = (status, str(obj.get("error") or f"recorded status {status!r}"))
            self.records[rid] = ext
            first_line[rid] = lineno

    def extract(self, fields: Sequence[FieldSpec], reviews: Sequence[ReviewInput]) -> list[ExtractionResult]:
        out: list[ExtractionResult] = []
        for rv in reviews:
            rec = self.records.get(rv.review_id)
            failed = self.failed.get(rv.review_id)
            if failed is not None:
                out.append(ExtractionResult(rv.business_id, rv.review_id, failed[0], error=failed[1]))
                continue
            if rec is None:
                out.append(
                    ExtractionResult(rv.business_id, rv.review_id, "error", error=f"no recorded extraction in {self.path.name}")
                )
                continue
            values: dict[str, str] = {}
            problem = None
            for f in fields:
                v = rec.get(f.name)
                if v is None:
                    problem = f"the recorded extraction has no field {f.name!r}"
                    break
                if v not in f.values:
                    problem = f"recorded value {v!r} is not a declared value of {f.name!r}"
                    break
                values[f.name] = v
            if problem:
                out.append(ExtractionResult(rv.business_id, rv.review_id, "invalid", error=problem))
            else:
                out.append(ExtractionResult(rv.business_id, rv.review_id, "ok", values=values))
        self.stats.reviews += len(reviews)
        return out

    def close(self) -> None:
        """Nothing to release."""
