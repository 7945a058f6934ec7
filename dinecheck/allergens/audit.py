"""The normalization audit trail: one :class:`AuditRow` per label check, and the unmatched-token report.

Pure data and functions only; the store (``dinecheck.allergens.store``) persists rows in ``normalization_audit_log``
(batches in one transaction) and reads them back. A row keeps everything needed to replay or debug a check: the raw
input, the product id, the profile, the verdict, the full result JSON (the CLI contract's line), the unmatched tokens,
the risk phrases found, the confidence, token counts and the processing time.

:func:`unmatched_report` turns rows into ``token → count`` (most frequent first): the list maintainers work through to
add missing synonyms.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from dinecheck.errors import AuditQueryError

if TYPE_CHECKING:  # the pipeline imports nothing from here; keep the dependency one-way at run time too
    from dinecheck.allergens.declared import Declaration
    from dinecheck.allergens.ontology import Ontology
    from dinecheck.allergens.pipeline import LabelResult

__all__ = ["AuditQueryError", "AuditRow", "CheckedLabel", "UnmatchedCount", "check_and_audit", "count_unmatched",
           "parse_since",
           "unmatched_report", "utc_now"]  # fmt: skip


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class AuditRow:
    """One check of one label, as written to ``normalization_audit_log``. ``id`` is set by the store on read."""

    raw_input: str
    product_id: str | None
    profile: tuple[str, ...]
    verdict: str
    result: dict[str, Any]
    unmatched_tokens: tuple[str, ...]
    risk_phrases: tuple[str, ...]
    confidence: float
    tokens_processed: int
    tokens_matched: int
    processing_time_ms: float
    created_at: datetime = field(default_factory=utc_now)
    id: int | None = None

    @classmethod
    def from_result(
        cls,
        result: LabelResult,
        raw_input: str,
        profile: Collection[str],
        processing_time_ms: float,
        product_id: str | None = None,
        created_at: datetime | None = None,
    ) -> AuditRow:
        """The audit row of one pipeline result (its JSON is the CLI contract's line for ``product_id``)."""
        return cls(
            raw_input=raw_input,
            product_id=product_id,
            profile=tuple(profile),
            verdict=result.verdict,
            result=result.to_json(product_id),
            unmatched_tokens=tuple(result.unmatched),
            risk_phrases=tuple(p.phrase for p in result.risk_phrases),
            confidence=float(result.confidence),
            tokens_processed=int(result.tokens_processed),
            tokens_matched=int(result.tokens_matched),
            processing_time_ms=float(processing_time_ms),
            created_at=created_at or utc_now(),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created_at": self.created_at.isoformat(),
            "product_id": self.product_id,
            "profile": list(self.profile),
            "verdict": self.verdict,
            "raw_input": self.raw_input,
            "unmatched_tokens": list(self.unmatched_tokens),
            "risk_phrases": list(self.risk_phrases),
            "confidence": self.confidence,
            "tokens_processed": self.tokens_processed,
            "tokens_matched": self.tokens_matched,
            "processing_time_ms": self.processing_time_ms,
            "result": self.result,
        }


@dataclass(frozen=True, slots=True)
class CheckedLabel:
    """A pipeline result together with its audit row."""

    result: LabelResult
    audit: AuditRow


def check_and_audit(
    text: str,
    profile: Collection[str],
    ontology: Ontology,
    product_id: str | None = None,
    declared: Declaration | None = None,
) -> CheckedLabel:
    """Run the pipeline on one label and build its audit row (timing included). Pure apart from the clock."""
    from dinecheck.allergens.pipeline import check_label

    start = time.perf_counter()
    result = check_label(text, profile, ontology, declared)
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    return CheckedLabel(result, AuditRow.from_result(result, text, profile, elapsed_ms, product_id))


@dataclass(frozen=True, slots=True)
class UnmatchedCount:
    token: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"token": self.token, "count": self.count}


def count_unmatched(token_lists: Iterable[Iterable[str]]) -> list[UnmatchedCount]:
    """``token → count`` over lists of unmatched tokens, most frequent first, ties by token (tokens case-folded)."""
    counts: Counter[str] = Counter()
    for tokens in token_lists:
        counts.update(t.strip().casefold() for t in tokens if t.strip())
    return [UnmatchedCount(t, n) for t, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def unmatched_report(rows: Iterable[AuditRow]) -> list[UnmatchedCount]:
    """The unmatched-token report of audit rows (see :func:`count_unmatched`)."""
    return count_unmatched(row.unmatched_tokens for row in rows)


def parse_since(text: str) -> datetime:
    """An ISO-8601 date or date-time for ``--since``; a naive value is taken as UTC."""
    raw = text.strip()
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
    except ValueError:
        raise AuditQueryError(
            f"{text!r} is not an ISO-8601 date or date-time (e.g. 2026-11-25 or 2026-11-25T21:00:00Z)", "--since"
        ) from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)
