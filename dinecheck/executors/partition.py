"""The unit of parallel work: one contiguous chunk of restaurants run through filter → extract (→ compute).

:class:`PartitionSpec` is everything a worker needs, as plain picklable data (dataset path, the seed's JSON, the
extractor's name and options). :class:`PartitionWorker` lives in a worker process (a local process or a Ray actor):
on its first chunk it opens the dataset by path (or uses the one it inherited through ``fork``), compiles the seed
and builds the extractor — once per process — then runs chunk after chunk. A chunk's answer is a
:class:`PartitionResult`: the results in dataset order, the extractor's accounting for that chunk, the budget denial
if any, and a :class:`WorkerFailure` instead of raising, so that an error crosses process boundaries intact.

Both executors (:mod:`dinecheck.executors.local`, :mod:`dinecheck.executors.ray`) only move these objects around, in
order; the result is what one process would have produced.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from dinecheck.dataset.models import Dataset, Restaurant
from dinecheck.errors import DataError, DinecheckError, WorkerError
from dinecheck.extract.base import ExtractionStats, Extractor, ReviewInput
from dinecheck.extract.factory import ExtractorOptions

Mode = Literal["run", "extract"]
MAX_CHUNK_RESTAURANTS = 500
"""A chunk holds at most this many restaurants, so the first results print early and workers stay balanced."""


@dataclass(frozen=True)
class PartitionSpec:
    """What every worker needs: dataset directory (absolute), the seed as JSON, the extractor and what to return."""

    data: str
    seed: dict[str, Any]
    extractor: str
    options: ExtractorOptions
    mode: Mode = "run"
    trace: bool = False
    lenient: bool = False


@dataclass(frozen=True)
class WorkerFailure:
    """An error raised in a worker: a :class:`DinecheckError` (class name, reason, location) or a traceback."""

    kind: str
    reason: str
    location: str | None = None
    user_error: bool = True

    @classmethod
    def of(cls, exc: BaseException) -> WorkerFailure:
        if isinstance(exc, DinecheckError):
            return cls(type(exc).__name__, exc.reason, exc.location)
        return cls(type(exc).__name__, "".join(traceback.format_exception(exc)).rstrip(), None, user_error=False)

    def exception(self) -> Exception:
        """The error to raise in the parent: the same DinecheckError class, or a WorkerError carrying the traceback."""
        if not self.user_error:
            return WorkerError(f"a worker failed with {self.kind}:\n{self.reason}")
        from dinecheck import errors

        cls = getattr(errors, self.kind, None)
        if not (isinstance(cls, type) and issubclass(cls, DinecheckError)):
            cls = DinecheckError
        err = cls.__new__(cls)
        DinecheckError.__init__(err, self.reason, self.location)
        return err


@dataclass
class PartitionResult:
    """One chunk's answer: ``items`` are RestaurantResults (``run``) or ExtractionResults (``extract``)."""

    index: int
    items: list[Any] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    budget_error: str | None = None
    failure: WorkerFailure | None = None
    worker: int = 0  # the worker's process id
    cpu_seconds: float = 0.0  # CPU time the worker spent on this chunk (balance and speed-up diagnostics)


def partitions(business_ids: Sequence[str], workers: int) -> list[list[str]]:
    """Contiguous chunks of ``business_ids`` in order, sizes differing by at most one: 4 per worker (fewer only when
    there are fewer restaurants), more when a chunk would exceed MAX_CHUNK_RESTAURANTS."""
    n = len(business_ids)
    if n == 0:
        return []
    count = min(n, max(4 * max(1, workers), math.ceil(n / MAX_CHUNK_RESTAURANTS)))
    size, extra = divmod(n, count)
    out, start = [], 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        out.append(list(business_ids[start:end]))
        start = end
    return out


def add_stats(total: ExtractionStats, delta: dict[str, Any]) -> None:
    """Add a chunk's accounting (:meth:`ExtractionStats.as_dict`-shaped, unrounded) into ``total``."""
    for f in dataclasses.fields(total):
        if f.name in delta:
            setattr(total, f.name, getattr(total, f.name) + delta[f.name])


def _snapshot(stats: ExtractionStats) -> dict[str, Any]:
    return {f.name: getattr(stats, f.name) for f in dataclasses.fields(stats)}


class PartitionWorker:
    """Runs chunks of restaurants in one process; opens the dataset, the seed and the extractor on first use."""

    def __init__(self, spec: PartitionSpec, dataset: Dataset | None = None) -> None:
        self.spec = spec
        self._dataset = dataset
        self._state: tuple[Dataset, Any, Extractor] | None = None

    def _open(self) -> tuple[Dataset, Any, Extractor]:
        if self._state is None:
            from dinecheck.dataset.loader import load_dataset
            from dinecheck.extract.factory import make_extractor
            from dinecheck.formula.run import build_seed

            ds = self._dataset if self._dataset is not None else load_dataset(self.spec.data, lenient=self.spec.lenient)[0]
            self._state = (ds, build_seed(self.spec.seed), make_extractor(self.spec.extractor, self.spec.options))
        return self._state

    def run(self, index: int, chunk: Sequence[str]) -> PartitionResult:
        """Filter, extract (and for ``run`` compute) the restaurants of ``chunk``, in order; never raises."""
        from dinecheck.formula.run import review_meta

        started = time.process_time()
        try:
            ds, compiled, ext = self._open()
            before = _snapshot(ext.stats)
            if self.spec.mode == "run":
                pairs = ((r, ds.reviews_of(r.business_id)) for r in (self._restaurant(ds, b) for b in chunk))
                items: list[Any] = list(compiled.iter_run(pairs, ext, trace=self.spec.trace))
            else:
                inputs = [
                    ReviewInput(rv.business_id, rv.review_id, rv.text, review_meta(rv))
                    for b in chunk
                    for rv in compiled.filter_reviews(ds.reviews_of(b))
                ]
                items = ext.extract(compiled.fields, inputs) if inputs else []
            after = _snapshot(ext.stats)
            budget = getattr(ext, "budget_error", None)
            return PartitionResult(
                index, items, {k: after[k] - before[k] for k in after}, budget.reason if budget is not None else None,
                worker=os.getpid(), cpu_seconds=time.process_time() - started,
            )
        except Exception as exc:  # noqa: BLE001 — crosses the process boundary as data; the parent re-raises it
            return PartitionResult(index, failure=WorkerFailure.of(exc))

    def _restaurant(self, ds: Dataset, business_id: str) -> Restaurant:
        r = ds.restaurant(business_id)
        if r is None:  # the worker opened a different dataset than the parent (changed on disk, or another path)
            raise DataError(f"no restaurant with business_id {business_id!r} in the worker's copy", self.spec.data)
        return r

    def close(self) -> None:
        if self._state is not None:
            self._state[2].close()
            self._state = None
