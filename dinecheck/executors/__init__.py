"""Where the extract and compute stages of ``seed run`` / ``seed extract`` run: this process, local worker processes
(``--workers N``) or a Ray cluster (``--executor ray``).

Work is partitioned by restaurant into contiguous chunks in dataset order (:mod:`dinecheck.executors.partition`);
every executor yields the chunks' results in that order, so the output is identical to one process. See
``docs/executors.md``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from dinecheck.dataset.models import Dataset, Restaurant
from dinecheck.errors import ConfigError
from dinecheck.executors.local import LocalExecutor, default_workers
from dinecheck.executors.partition import (
    PartitionResult,
    PartitionSpec,
    add_stats,
    partitions,
)
from dinecheck.extract.base import ExtractionResult, ExtractionStats
from dinecheck.extract.factory import ExtractorOptions
from dinecheck.formula.run import CompiledSeed, RestaurantResult

EXECUTORS = ("local", "ray")


class Executor(Protocol):
    name: str

    def map(self, spec: PartitionSpec, chunks: Sequence[Sequence[str]], dataset: Dataset | None = None) -> Iterator[PartitionResult]: ...


def make_executor(kind: str, workers: int | None, ray_address: str | None, extractor: str) -> Executor | None:
    """The executor for these flags, or None to run in this process.

    ``local`` runs in this process when one worker is asked for and for the ``llm`` extractor (its calls already run
    concurrently, ``--concurrency``); ``ray`` always uses Ray.
    """
    if kind not in EXECUTORS:
        raise ConfigError(f"unknown executor {kind!r}; expected 'local' or 'ray'", "--executor")
    if ray_address is not None and kind != "ray":
        raise ConfigError("--ray-address needs --executor ray", "--ray-address")
    if kind == "ray":
        from dinecheck.executors.ray import RayExecutor, import_ray

        import_ray()  # fail now, before any review is read, when the extra is not installed
        return RayExecutor(ray_address, workers)
    n = default_workers() if workers is None else workers
    if n <= 1 or extractor.split(":")[0] == "llm":
        return None
    return LocalExecutor(n)


def worker_extractor(name: str) -> str:
    """The extractor name to send to workers (already resolved by the caller): a replay file made absolute."""
    if name.startswith("replay:"):
        return "replay:" + str(Path(name[len("replay:") :]).resolve())
    return name


def _spec(compiled: CompiledSeed, data: Path, extractor: str, options: ExtractorOptions, **kw: Any) -> PartitionSpec:
    seed = compiled.seed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    worker_options = replace(
        options,
        progress=False,
        config_file=options.config_file.resolve() if options.config_file is not None else None,
        cache_path=options.cache_path.resolve() if options.cache_path is not None else None,
    )
    return PartitionSpec(data=str(Path(data).resolve()), seed=seed, extractor=extractor, options=worker_options, **kw)


def _results(executor: Executor, spec: PartitionSpec, dataset: Dataset, restaurants: Sequence[Restaurant]) -> Iterator[PartitionResult]:
    chunks = partitions([r.business_id for r in restaurants], getattr(executor, "workers", None) or default_workers())
    for part in executor.map(spec, chunks, dataset):
        if part.failure is not None:
            raise part.failure.exception()
        yield part


def run_seed(
    executor: Executor, compiled: CompiledSeed, data: Path, dataset: Dataset, restaurants: Sequence[Restaurant],
    extractor: str, options: ExtractorOptions, *, trace: bool = False, lenient: bool = False,
) -> Iterator[RestaurantResult]:
    """``seed run`` on an executor: one RestaurantResult per restaurant, in order, as chunks complete."""
    spec = _spec(compiled, data, extractor, options, mode="run", trace=trace, lenient=lenient)
    for part in _results(executor, spec, dataset, restaurants):
        yield from part.items


def extract_seed(
    executor: Executor, compiled: CompiledSeed, data: Path, dataset: Dataset, restaurants: Sequence[Restaurant],
    extractor: str, options: ExtractorOptions, *, lenient: bool = False,
) -> tuple[list[ExtractionResult], ExtractionStats, str | None]:
    """``seed extract`` on an executor: every relevant review's result in order, the summed accounting, and the
    budget denial (the first one) if the run was stopped by ``--max-cost``."""
    spec = _spec(compiled, data, extractor, options, mode="extract", lenient=lenient)
    items: list[ExtractionResult] = []
    stats = ExtractionStats()
    budget: str | None = None
    for part in _results(executor, spec, dataset, restaurants):
        items.extend(part.items)
        add_stats(stats, part.stats)
        budget = budget or part.budget_error
    return items, stats, budget


__all__ = ["EXECUTORS", "Executor", "LocalExecutor", "extract_seed", "make_executor", "run_seed", "worker_extractor"]
