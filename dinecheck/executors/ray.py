"""``--executor ray [--ray-address ADDR]``: the same chunks of restaurants as Ray actor calls, results in order.

``ray`` is imported here only (``pip install 'dinecheck[ray]'``). The run joins the cluster at ``--ray-address`` (or
``RAY_ADDRESS``), reuses an already initialised Ray, or starts a local instance (shut down again at the end). It then
creates one :class:`~dinecheck.executors.partition.PartitionWorker` actor per worker (``--workers``, default: the
cluster's CPUs; each actor holds one CPU), so each worker process opens the dataset by path, compiles the seed and
builds the extractor once; chunks go round-robin with at most :data:`IN_FLIGHT_PER_WORKER` per actor queued, and the
driver takes the answers back in chunk order.

With ``--extractor llm --max-cost X`` one coordinator actor (a :class:`~dinecheck.extract.budget.LocalBudget`) holds
the run's budget: every model call in every worker reserves its worst-case cost there first and settles the actual
cost after (:class:`RayBudget`), so the run as a whole never spends more than X.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from dinecheck.dataset.models import Dataset
from dinecheck.errors import ConfigError, WorkerError
from dinecheck.executors.partition import (
    PartitionResult,
    PartitionSpec,
    PartitionWorker,
)
from dinecheck.extract.budget import LocalBudget

IN_FLIGHT_PER_WORKER = 2


def import_ray() -> Any:
    """The ``ray`` module, or ConfigError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ConfigError("--executor ray needs Ray: pip install 'dinecheck[ray]'", "--executor") from None
    return ray


class RayBudget:
    """A :class:`~dinecheck.extract.budget.Budget` whose state lives in one coordinator actor (picklable handle)."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    def reserve(self, estimate: float) -> str | None:
        import ray

        return ray.get(self.actor.reserve.remote(estimate))

    def settle(self, estimate: float, actual: float) -> None:
        self.actor.settle.remote(estimate, actual)  # ordered after this caller's earlier calls; no need to wait


class RayExecutor:
    """Runs chunks on a Ray cluster (or a local Ray instance)."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address
        self.workers = workers
        self.budget_state: dict[str, Any] | None = None  # the coordinator's final state, after an LLM run with a budget

    def map(self, spec: PartitionSpec, chunks: Sequence[Sequence[str]], dataset: Dataset | None = None) -> Iterator[PartitionResult]:
        """Run every chunk; yield their results in chunk order. ``dataset`` is not shipped: workers open it by path."""
        if not chunks:
            return
        ray = import_ray()
        started = False
        if not ray.is_initialized():
            try:
                ray.init(address=self.address, include_dashboard=False, logging_level=logging.WARNING)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"--ray-address {self.address}" if self.address else "--executor ray"
                raise WorkerError(f"cannot start or join Ray ({exc})", where) from None
            started = True
        actors: list[Any] = []
        coordinator = None
        try:
            if spec.extractor == "llm" and spec.options.max_cost is not None:
                coordinator = ray.remote(num_cpus=0)(LocalBudget).remote(spec.options.max_cost)
                spec = replace(spec, options=replace(spec.options, budget=RayBudget(coordinator)))
            n = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            worker_cls = ray.remote(num_cpus=1)(PartitionWorker)
            actors = [worker_cls.remote(spec) for _ in range(min(n, len(chunks)))]
            yield from self._collect(ray, actors, chunks)
            if coordinator is not None:
                self.budget_state = ray.get(coordinator.state.remote())
        finally:
            for a in actors:
                ray.kill(a)
            if coordinator is not None:
                ray.kill(coordinator)
            if started:
                ray.shutdown()

    @staticmethod
    def _collect(ray: Any, actors: list[Any], chunks: Sequence[Sequence[str]]) -> Iterator[PartitionResult]:
        pending: deque[Any] = deque()
        sent = 0
        limit = IN_FLIGHT_PER_WORKER * len(actors)
        while sent < len(chunks) or pending:
            while sent < len(chunks) and len(pending) < limit:
                pending.append(actors[sent % len(actors)].run.remote(sent, list(chunks[sent])))
                sent += 1
            try:
                result: PartitionResult = ray.get(pending.popleft())
            except ray.exceptions.RayActorError as exc:
                raise WorkerError(f"a Ray worker died ({str(exc).splitlines()[0]})", "--executor ray") from None
            yield result
