"""The Formula Seed executor: compile a seed once, then run it per restaurant (filter → extract → compute → output).

:func:`compile_seed` checks the seed (raising :class:`~dinecheck.errors.SeedError` with every problem), parses every
expression once and builds one function per step. :meth:`CompiledSeed.run` / :meth:`CompiledSeed.run_many` filter a
restaurant's reviews by keyword, label them through any :class:`~dinecheck.extract.base.Extractor` and compute;
:meth:`CompiledSeed.evaluate` is the compute stage alone (``seed eval``).

A review whose extraction failed (status ``error``/``invalid``, or an ``ok`` answer that misses a field or uses an
undeclared value) is never counted with a default: it is left out of every aggregate, listed in
``RestaurantResult.failed_reviews``, the result's status is ``incomplete`` and every output that depends (through the
step graph) on an aggregate is listed in ``flagged_outputs``. A run-time fault raises
:class:`~dinecheck.errors.EvaluationError` naming the step and the restaurant.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dinecheck.dataset.models import Restaurant, Review
from dinecheck.errors import EvaluationError, ExtractionError, Problem, SeedError, SpecError
from dinecheck.files import NonFiniteNumber, loads_json, require_file
from dinecheck.extract.base import ExtractionResult, Extractor, FieldSpec, ReviewInput
from dinecheck.formula import expr as E
from dinecheck.formula.check import CheckResult, check_seed
from dinecheck.formula.filter import KeywordFilter
from dinecheck.formula.ops import BUILDERS, Frame, Predicate, ReviewRecord, StepFn
from dinecheck.formula.schema import AGGREGATE_OPS, Seed

MAX_SEED_BYTES = 1_000_000
STREAM_CHUNK_REVIEWS = 2048
"""Relevant reviews extracted per chunk by :meth:`CompiledSeed.iter_run` (enough for batching and concurrency)."""


# ---------------------------------------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class FailedReview:
    """A filtered review whose extraction failed, and why."""

    review_id: str
    status: str
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"review_id": self.review_id, "status": self.status, "error": self.error}


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step of a trace: its value, the reviews that contributed (aggregates, filters) and op-specific detail."""

    name: str
    op: str
    value: Any
    reviews: list[str] | None = None
    detail: dict[str, Any] | None = None
    flagged: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.name, "op": self.op}
        if self.op != "define_filter":
            out["value"] = self.value
        if self.reviews is not None:
            out["reviews"] = self.reviews
        if self.detail:
            out.update(self.detail)
        if self.flagged:
            out["flagged"] = True
        return out


@dataclass(frozen=True, slots=True)
class RestaurantResult:
    """The outputs of one restaurant, its status, and (when asked) the trace."""

    business_id: str
    name: str
    n_filtered: int
    status: str  # "complete" | "incomplete"
    outputs: dict[str, Any]
    failed_reviews: tuple[FailedReview, ...] = ()
    flagged_outputs: tuple[str, ...] = ()
    trace: tuple[TraceStep, ...] | None = None

    def to_json(self, *, trace: bool = False) -> dict[str, Any]:
        """The ``seed run --json`` line: the contract fields, plus ``failed_reviews``/``flagged_outputs`` when
        incomplete and ``trace`` when asked."""
        out: dict[str, Any] = {
            "business_id": self.business_id,
            "name": self.name,
            "n_filtered": self.n_filtered,
            "status": self.status,
            "outputs": self.outputs,
        }
        if self.status == "incomplete":
            out["failed_reviews"] = [f.to_json() for f in self.failed_reviews]
            out["flagged_outputs"] = list(self.flagged_outputs)
        if trace:
            out["trace"] = [t.to_json() for t in self.trace or ()]
        return out


# ---------------------------------------------------------------------------------------------------------- loading


def load_seed_json(path: str | Path) -> Any:
    """Read a seed file as JSON (size-bounded); raises SpecError naming the file and the JSON error position."""
    p = require_file(path, SpecError)
    try:
        size = p.stat().st_size
        if size > MAX_SEED_BYTES:
            raise SpecError(f"the seed file is {size} bytes; the limit is {MAX_SEED_BYTES}", str(p))
        data = p.read_bytes()
    except OSError as exc:
        raise SpecError(f"cannot read the seed file ({exc.strerror})", str(p)) from None
    if len(data) > MAX_SEED_BYTES:
        raise SpecError(f"the seed file is larger than {MAX_SEED_BYTES} bytes", str(p))
    try:
        return loads_json(data)
    except NonFiniteNumber as exc:
        raise SpecError(str(exc), str(p)) from None
    except json.JSONDecodeError as exc:
        raise SpecError(f"invalid JSON ({exc.msg})", f"{p}:{exc.lineno}:{exc.colno}") from None
    except UnicodeDecodeError:
        raise SpecError("the seed file is not valid UTF-8", str(p)) from None
    except RecursionError:
        raise SpecError("the seed JSON is nested too deeply", str(p)) from None


def check_seed_file(path: str | Path) -> CheckResult:
    """Static check of a seed file (``seed check``)."""
    return check_seed(load_seed_json(path))


def load_seed(path: str | Path) -> Seed:
    """Read and check a seed file; raises SeedError listing every problem, or SpecError for unreadable JSON."""
    result = check_seed_file(path)
    if result.seed is None:
        raise SeedError(result.problems, str(path))
    return result.seed


# ---------------------------------------------------------------------------------------------------------- compile


@dataclass(frozen=True, slots=True)
class CompiledStep:
    index: int
    name: str
    op: str
    run: StepFn
    deps: frozenset[str]


def _step_deps(step: Any) -> set[str]:
    """Names a step reads directly (computed values and ``$FILTER`` keys)."""
    texts: list[str] = []
    where = getattr(step, "where", None) or {}
    deps = {k[1:] for k in where if k.startswith("$")}
    for attr in ("expr", "field", "source"):
        v = getattr(step, attr, None)
        if isinstance(v, str):
            texts.append(v)
    for t in texts:
        deps |= {n.name for n in E.names(E.parse(t)) if n.namespace is None}
    if step.op == "case":
        for rule in step.rules:
            when = getattr(rule, "when", None)
            if when is not None:
                node = E.parse_comparison_suffix(when, E.Name(None, "_")) if step.source else E.parse(when)
                deps |= {n.name for n in E.names(node) if n.namespace is None and n.name != "_"}
    return deps


class CompiledSeed:
    """A checked seed with every expression parsed and every step built; run it over any number of restaurants."""

    def __init__(self, seed: Seed, warnings: Sequence[Problem] = ()) -> None:
        self.seed = seed
        self.warnings = list(warnings)
        self.fields: list[FieldSpec] = list(seed.extract.fields)
        self._enums = {f.name: set(f.values) for f in self.fields}
        self.keyword_filter = KeywordFilter(seed.filter.keywords)
        self.outputs = list(dict.fromkeys(seed.output))
        filters: dict[str, Predicate] = {}
        steps: list[CompiledStep] = []
        for i, step in enumerate(seed.compute):
            built = BUILDERS[step.op](step, filters)
            if step.op == "define_filter":
                built, filters[step.name] = built
            steps.append(CompiledStep(i, step.name, step.op, built, frozenset(_step_deps(step))))
        self.steps = steps
        review_dependent: set[str] = set()
        for st in steps:  # steps are in dependency order (no forward references)
            if st.op in AGGREGATE_OPS or st.deps & review_dependent:
                review_dependent.add(st.name)
        self.review_dependent = frozenset(review_dependent)

    # ------------------------------------------------------------------------------------------------ stages
    def filter_reviews(self, reviews: Iterable[Review]) -> list[Review]:
        """The reviews whose lower-cased text contains a keyword, in input order."""
        kf = self.keyword_filter
        return [r for r in reviews if kf.matches(r.text)]

    def _record(self, result: ExtractionResult | None, review_id: str, meta: dict[str, Any]) -> ReviewRecord | FailedReview:
        if result is None:
            return FailedReview(review_id, "error", "the extractor returned no result for this review")
        if not result.ok:
            return FailedReview(review_id, result.status, result.error or f"extraction status {result.status}")
        values: dict[str, Any] = {}
        for f in self.fields:
            v = result.values.get(f.name)
            if v is None:
                return FailedReview(review_id, "invalid", f"no value for field {f.name!r}")
            if v not in self._enums[f.name]:
                return FailedReview(review_id, "invalid", f"{v!r} is not a declared value of {f.name!r}")
            values[f.name] = v
        return ReviewRecord(review_id, meta, values)

    def run_many(
        self, items: Sequence[tuple[Restaurant, Sequence[Review]]], extractor: Extractor, *, trace: bool = False
    ) -> list[RestaurantResult]:
        """Filter every restaurant's reviews, extract them all in one extractor call, then compute each restaurant."""
        return self._run_chunk([(rest, self.filter_reviews(revs)) for rest, revs in items], extractor, trace)

    def iter_run(
        self,
        items: Iterable[tuple[Restaurant, Sequence[Review]]],
        extractor: Extractor,
        *,
        trace: bool = False,
        chunk_reviews: int | None = None,
    ) -> Iterator[RestaurantResult]:
        """Like :meth:`run_many`, streamed: restaurants are extracted in chunks of about ``chunk_reviews`` relevant
        reviews and each result is yielded as soon as it is computed, so memory (traces included) stays bounded by
        one chunk however many restaurants there are (default :data:`STREAM_CHUNK_REVIEWS`)."""
        limit = STREAM_CHUNK_REVIEWS if chunk_reviews is None else chunk_reviews
        pending: list[tuple[Restaurant, list[Review]]] = []
        n = 0
        for rest, revs in items:
            kept = self.filter_reviews(revs)
            pending.append((rest, kept))
            n += len(kept)
            if n >= limit:
                yield from self._run_chunk(pending, extractor, trace)
                pending, n = [], 0
        if pending:
            yield from self._run_chunk(pending, extractor, trace)

    def _run_chunk(
        self, filtered: list[tuple[Restaurant, list[Review]]], extractor: Extractor, trace: bool
    ) -> list[RestaurantResult]:
        inputs = [
            ReviewInput(business_id=rest.business_id, review_id=r.review_id, text=r.text, meta=review_meta(r))
            for rest, revs in filtered
            for r in revs
        ]
        results = extractor.extract(self.fields, inputs) if inputs else []
        if len(results) != len(inputs):
            raise ExtractionError(
                f"the extractor returned {len(results)} results for {len(inputs)} reviews", f"extractor {extractor.name}"
            )
        out: list[RestaurantResult] = []
        k = 0
        for rest, revs in filtered:
            records: list[ReviewRecord] = []
            failed: list[FailedReview] = []
            for inp in inputs[k : k + len(revs)]:
                res = results[k]
                k += 1
                if res.review_id != inp.review_id:
                    raise ExtractionError(
                        f"result {k} is for review {res.review_id!r}, expected {inp.review_id!r}", f"extractor {extractor.name}"
                    )
                rec = self._record(res, inp.review_id, inp.meta)
                (failed if isinstance(rec, FailedReview) else records).append(rec)  # type: ignore[arg-type]
            out.append(self.evaluate(rest.business_id, rest.name, rest.raw, records, len(revs), failed, trace=trace))
        return out

    def run(self, restaurant: Restaurant, reviews: Sequence[Review], extractor: Extractor, *, trace: bool = False) -> RestaurantResult:
        """Filter, extract and compute one restaurant."""
        return self.run_many([(restaurant, reviews)], extractor, trace=trace)[0]

    def evaluate(
        self,
        business_id: str,
        name: str,
        context: dict[str, Any],
        reviews: Sequence[ReviewRecord],
        n_filtered: int,
        failed: Sequence[FailedReview] = (),
        *,
        trace: bool = False,
    ) -> RestaurantResult:
        """The compute stage: run every step over already-extracted reviews and collect the outputs."""
        frame = Frame({}, context, list(reviews))
        values = frame.values
        steps_trace: list[TraceStep] = []
        flag = bool(failed)
        for st in self.steps:
            try:
                outcome = st.run(frame, trace)
            except E.Fault as f:
                raise EvaluationError(f.reason, f"step {st.name} (/compute/{st.index}), restaurant {business_id}") from None
            values[st.name] = outcome.value
            if trace:
                steps_trace.append(
                    TraceStep(st.name, st.op, outcome.value, outcome.reviews, outcome.detail, flag and st.name in self.review_dependent)
                )
        outputs = {o: values[o] for o in self.outputs}
        flagged = tuple(o for o in self.outputs if o in self.review_dependent) if failed else ()
        return RestaurantResult(
            business_id=business_id,
            name=name,
            n_filtered=n_filtered,
            status="incomplete" if failed else "complete",
            outputs=outputs,
            failed_reviews=tuple(failed),
            flagged_outputs=flagged,
            trace=tuple(steps_trace) if trace else None,
        )


def review_meta(review: Review) -> dict[str, Any]:
    """``meta``: every field of the review object plus ``year`` derived from ``date``."""
    meta = dict(review.raw)
    meta["year"] = review.year
    return meta


def derive_year(meta: dict[str, Any]) -> dict[str, Any]:
    """Add ``year`` from ``date`` (``YYYY-…``) when it is absent."""
    if "year" not in meta:
        d = meta.get("date")
        meta = {**meta, "year": int(d[:4]) if isinstance(d, str) and len(d) >= 4 and d[:4].isdigit() else None}
    return meta


def compile_seed(seed: Seed | dict[str, Any]) -> CompiledSeed:
    """Check and compile a seed (a model or its raw JSON); raises SeedError listing every problem."""
    raw = seed.model_dump(mode="json", by_alias=True, exclude_unset=True) if isinstance(seed, Seed) else seed
    result = check_seed(raw)
    if result.seed is None:
        raise SeedError(result.problems)
    return CompiledSeed(result.seed, result.warnings)
