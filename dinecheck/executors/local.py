"""``--workers N``: run chunks of restaurants in N worker processes on this machine, results in dataset order.

Each worker process (``fork`` where the platform has it, else ``spawn``) holds one
:class:`~dinecheck.executors.partition.PartitionWorker`, so the seed is compiled and the extractor built once per
process. A JSONL dataset already loaded by the parent is inherited through ``fork`` (copy-on-write, nothing is
re-read); a Parquet dataset, or any dataset under ``spawn``, is opened by each worker by path (cheap: only the
restaurants are read up front). Chunks are handed out in order with a bounded number in flight, and results are
yielded in chunk order, so the output is the one a single process prints.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
from collections.abc import Iterator, Sequence
from typing import Any

from dinecheck.dataset.models import Dataset
from dinecheck.errors import WorkerError
from dinecheck.executors.partition import (
    PartitionResult,
    PartitionSpec,
    PartitionWorker,
)

POLL_SECONDS = 0.5
JOIN_SECONDS = 5.0


def default_workers() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _serve(spec: PartitionSpec, dataset: Dataset | None, tasks: Any, results: Any) -> None:
    """A worker process: run every ``(index, chunk)`` from ``tasks`` until ``None``; answers go to ``results``.
    Ctrl-C is left to the parent, which stops the workers (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = PartitionWorker(spec, dataset)
    try:
        while (task := tasks.get()) is not None:
            results.put(worker.run(*task))
    finally:
        worker.close()


def _inheritable(dataset: Dataset) -> bool:
    """A dataset a forked child may use as is: one held in memory. A streamed one (Parquet: pyarrow's threads and file
    handles do not survive fork) is opened again by path in each worker, which is cheap."""
    return dataset.source is None or not dataset.streamed


class LocalExecutor:
    """A pool of ``workers`` processes running :class:`PartitionWorker` chunks."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)

    def map(self, spec: PartitionSpec, chunks: Sequence[Sequence[str]], dataset: Dataset | None = None) -> Iterator[PartitionResult]:
        """Run every chunk; yield their results in chunk order."""
        if not chunks:
            return
        fork = "fork" in mp.get_all_start_methods()
        ctx: Any = mp.get_context("fork" if fork else "spawn")
        shared = dataset if fork and dataset is not None and _inheritable(dataset) else None
        n = min(self.workers, len(chunks))
        tasks, results = ctx.Queue(), ctx.Queue()
        procs = [
            ctx.Process(target=_serve, args=(spec, shared, tasks, results), name=f"dinecheck-worker-{i}", daemon=True)
            for i in range(n)
        ]
        for p in procs:
            p.start()
        try:
            yield from self._collect(chunks, procs, tasks, results, ahead=2 * n)
        finally:
            for _ in procs:
                tasks.put(None)
            for p in procs:
                p.join(JOIN_SECONDS)
            for p in procs:
                if p.is_alive():
                    p.terminate()
                    p.join()
            tasks.close()
            results.close()
            tasks.cancel_join_thread()
            results.cancel_join_thread()

    @staticmethod
    def _collect(
        chunks: Sequence[Sequence[str]], procs: list[Any], tasks: Any, results: Any, ahead: int
    ) -> Iterator[PartitionResult]:
        sent, nxt = 0, 0
        done: dict[int, PartitionResult] = {}
        while nxt < len(chunks):
            while sent < len(chunks) and sent - nxt < ahead:
                tasks.put((sent, list(chunks[sent])))
                sent += 1
            if nxt in done:
                yield done.pop(nxt)
                nxt += 1
                continue
            try:
                res: PartitionResult = results.get(timeout=POLL_SECONDS)
            except queue.Empty:
                dead = [p for p in procs if not p.is_alive()]
                if dead:
                    raise WorkerError(
                        f"worker process {dead[0].name} exited (code {dead[0].exitcode}) with work outstanding",
                        "--workers",
                    ) from None
                continue
            done[res.index] = res
