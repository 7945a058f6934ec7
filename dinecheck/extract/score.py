"""Score one label file against another: per field and value precision, recall, F1, confusion matrix, Cohen's kappa.

A *label file* is JSONL with one object per review holding ``review_id`` and ``extraction`` (``{field: value}``) —
what ``seed extract --json`` prints, what the replay extractor reads, and what a human annotator writes. Lines whose
``status`` is present and not ``"ok"`` count as *unanswered*. Only reviews present (and answered) in both files are
compared; the counts of the others are reported, never silently dropped.

Precision and recall of a value treat the *reference* as truth: precision = labelled-as-v and reference-v / labelled
v; recall = the same / reference v. A field's *false non-null* count is how many labels carry a non-null value that
differs from the reference (the number that matters for a precision-first extractor). Which values are null comes
from :meth:`~dinecheck.extract.base.FieldSpec.null_values` when a seed is given, else from
:data:`~dinecheck.extract.base.NULL_VALUE_NAMES`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dinecheck.dataset.loader import iter_jsonl
from dinecheck.errors import DataError
from dinecheck.extract.base import NULL_VALUE_NAMES

Labels = dict[str, dict[str, str]]  # review_id → field → value


@dataclass(frozen=True)
class LabelFile:
    """The answered labels of one file and the review ids it left unanswered."""

    labels: Labels
    unanswered: frozenset[str]


def read_labels(path: Path) -> LabelFile:
    """Parse a label file (raises :class:`DataError` naming file and line for a malformed one)."""
    labels: Labels = {}
    unanswered: set[str] = set()
    for lineno, obj in iter_jsonl(path):
        if isinstance(obj, DataError):
            raise obj
        loc = f"{path}:{lineno}"
        if "summary" in obj and "review_id" not in obj:
            continue  # a summary line of an older `seed extract --json`
        rid = obj.get("review_id")
        if not isinstance(rid, str) or not rid:
            raise DataError("missing or empty 'review_id'", loc)
        if rid in labels or rid in unanswered:
            raise DataError(f"duplicate review_id {rid!r}", loc)
        status = obj.get("status", "ok")
        if status != "ok":
            unanswered.add(rid)
            continue
        ext = obj.get("extraction")
        if not isinstance(ext, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in ext.items()):
            raise DataError("'extraction' must be an object of field → string value", loc)
        labels[rid] = dict(ext)
    return LabelFile(labels, frozenset(unanswered))


@dataclass(frozen=True)
class ValueScore:
    value: str
    labelled: int  # how often the scored file says this value
    reference: int  # how often the reference says it
    agree: int

    @property
    def precision(self) -> float | None:
        return self.agree / self.labelled if self.labelled else None

    @property
    def recall(self) -> float | None:
        return self.agree / self.reference if self.reference else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None if p is None or r is None else 0.0
        return 2 * p * r / (p + r)


@dataclass(frozen=True)
class FieldScore:
    field: str
    n: int
    accuracy: float | None
    kappa: float | None
    values: tuple[ValueScore, ...]
    confusion: dict[str, dict[str, int]]  # reference value → labelled value → count
    null_values: frozenset[str]
    false_non_null: int
    non_null_precision: float | None  # exact-value precision over non-null labels
    non_null_recall: float | None  # exact-value recall over non-null reference labels


def cohen_kappa(pairs: Iterable[tuple[str, str]]) -> float | None:
    """Cohen's kappa of (reference, labelled) pairs; None when undefined (no pairs, or chance agreement is 1)."""
    items = list(pairs)
    n = len(items)
    if n == 0:
        return None
    observed = sum(1 for a, b in items if a == b) / n
    ref = Counter(a for a, _ in items)
    lab = Counter(b for _, b in items)
    expected = sum(ref[v] * lab.get(v, 0) for v in ref) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def score_field(field: str, pairs: list[tuple[str, str]], null_values: frozenset[str]) -> FieldScore:
    """Score (reference, labelled) pairs of one field."""
    ref = Counter(a for a, _ in pairs)
    lab = Counter(b for _, b in pairs)
    agree = Counter(a for a, b in pairs if a == b)
    values = tuple(ValueScore(v, lab[v], ref[v], agree[v]) for v in sorted(set(ref) | set(lab)))
    confusion: dict[str, dict[str, int]] = {}
    for a, b in pairs:
        row = confusion.setdefault(a, {})
        row[b] = row.get(b, 0) + 1
    labelled_nn = [(a, b) for a, b in pairs if b not in null_values]
    ref_nn = [(a, b) for a, b in pairs if a not in null_values]
    false_nn = sum(1 for a, b in labelled_nn if a != b)
    return FieldScore(
        field=field,
        n=len(pairs),
        accuracy=sum(agree.values()) / len(pairs) if pairs else None,
        kappa=cohen_kappa(pairs),
        values=values,
        confusion=confusion,
        null_values=null_values,
        false_non_null=false_nn,
        non_null_precision=(len(labelled_nn) - false_nn) / len(labelled_nn) if labelled_nn else None,
        non_null_recall=sum(1 for a, b in ref_nn if a == b) / len(ref_nn) if ref_nn else None,
    )


@dataclass(frozen=True)
class ScoreReport:
    compared: int
    only_in_labels: int
    only_in_reference: int
    unanswered: int  # reviews the scored file left unanswered (status not ok) that the reference has
    fields: tuple[FieldScore, ...]

    @property
    def false_non_null(self) -> int:
        return sum(f.false_non_null for f in self.fields)


def score_labels(
    labels: LabelFile,
    reference: LabelFile,
    null_values: Mapping[str, frozenset[str]] | None = None,
    review_ids: Iterable[str] | None = None,
) -> ScoreReport:
    """Compare ``labels`` against ``reference`` on the reviews both answered (restricted to ``review_ids`` if given).

    Fields are those both files carry on the compared reviews (in reference order); ``null_values`` maps a field to
    its null values (default: :data:`NULL_VALUE_NAMES`)."""
    keep = set(review_ids) if review_ids is not None else None
    lab_ids = {r for r in labels.labels if keep is None or r in keep}
    ref_ids = {r for r in reference.labels if keep is None or r in keep}
    common = [r for r in reference.labels if r in lab_ids]
    fields: list[str] = []
    for rid in common:
        for f in reference.labels[rid]:
            if f in labels.labels[rid] and f not in fields:
                fields.append(f)
    out: list[FieldScore] = []
    for f in fields:
        pairs = [
            (reference.labels[r][f], labels.labels[r][f])
            for r in common
            if f in reference.labels[r] and f in labels.labels[r]
        ]
        nulls = (null_values or {}).get(f) or NULL_VALUE_NAMES
        out.append(score_field(f, pairs, frozenset(nulls)))
    return ScoreReport(
        compared=len(common),
        only_in_labels=len(lab_ids - ref_ids - reference.unanswered),
        only_in_reference=len(ref_ids - lab_ids - labels.unanswered),
        unanswered=len(ref_ids & labels.unanswered),
        fields=tuple(out),
    )


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def report_json(report: ScoreReport) -> dict[str, Any]:
    """The JSON form printed by ``dinecheck seed score --json``."""
    return {
        "compared": report.compared,
        "only_in_labels": report.only_in_labels,
        "only_in_reference": report.only_in_reference,
        "unanswered": report.unanswered,
        "false_non_null": report.false_non_null,
        "fields": {
            f.field: {
                "n": f.n,
                "accuracy": _round(f.accuracy),
                "kappa": _round(f.kappa),
                "false_non_null": f.false_non_null,
                "non_null_precision": _round(f.non_null_precision),
                "non_null_recall": _round(f.non_null_recall),
                "null_values": sorted(f.null_values),
                "values": {
                    v.value: {
                        "labelled": v.labelled,
                        "reference": v.reference,
                        "agree": v.agree,
                        "precision": _round(v.precision),
                        "recall": _round(v.recall),
                        "f1": _round(v.f1),
                    }
                    for v in f.values
                },
                "confusion": f.confusion,
            }
            for f in report.fields
        },
    }


def _fmt(x: float | None) -> str:
    return "  –  " if x is None else f"{x:.2f}"


def report_text(report: ScoreReport) -> str:
    """A plain-text rendering: one block per field (values, then the confusion matrix, rows = reference)."""
    lines = [
        f"compared {report.compared} reviews (only in labels {report.only_in_labels}, only in reference "
        f"{report.only_in_reference}, unanswered {report.unanswered}); false non-null labels {report.false_non_null}"
    ]
    for f in report.fields:
        lines.append(
            f"{f.field}: n {f.n}  accuracy {_fmt(f.accuracy)}  kappa {_fmt(f.kappa)}  false non-null {f.false_non_null}"
            f"  non-null P {_fmt(f.non_null_precision)} R {_fmt(f.non_null_recall)}"
        )
        for v in f.values:
            lines.append(
                f"  {v.value:<16} P {_fmt(v.precision)}  R {_fmt(v.recall)}  F1 {_fmt(v.f1)}"
                f"  (labelled {v.labelled}, reference {v.reference}, agree {v.agree})"
            )
        cols = sorted({b for row in f.confusion.values() for b in row} | set(f.confusion))
        lines.append("  confusion (rows: reference, columns: labels): " + " ".join(cols))
        for a in cols:
            if a in f.confusion:
                lines.append(f"    {a:<16} " + " ".join(str(f.confusion[a].get(b, 0)) for b in cols))
    return "\n".join(lines)


def split_half(review_id: str) -> str:
    """The fixed tuning/untouched split of labelled sets: ``"tuning"`` when the last hex digit of
    sha1(review_id) is even, else ``"untouched"`` (decided before any label was read)."""
    return "tuning" if int(hashlib.sha1(review_id.encode("utf-8")).hexdigest()[-1], 16) % 2 == 0 else "untouched"
