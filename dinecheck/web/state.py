"""What the server holds while it runs (:class:`AppState`): the dataset, its request engine, the allergen store and
the request files offered on the benchmark page. Built once at start-up; the engine is shared behind a lock because
its caches are not made for concurrent writers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dinecheck.allergens.ontology import Ontology
from dinecheck.allergens.store import OntologyStore, open_store
from dinecheck.dataset import Dataset, load_dataset
from dinecheck.errors import DataError
from dinecheck.requests import Engine
from dinecheck.sample import sample_dir
from dinecheck.web.config import WebConfig


@dataclass
class AppState:
    """The loaded dataset + engine, the allergen store, and the server-side request files (by name only)."""

    config: WebConfig
    data_dir: Path
    dataset: Dataset
    engine: Engine
    store: OntologyStore
    request_files: dict[str, Path]
    engine_lock: threading.Lock = field(default_factory=threading.Lock)
    _memo: dict[str, Any] = field(default_factory=dict)

    @property
    def is_sample(self) -> bool:
        return self.config.data is None

    def ontology(self) -> Ontology:
        return self.store.ontology()

    @contextmanager
    def engine_locked(self) -> Iterator[Engine]:
        with self.engine_lock:
            yield self.engine

    def remembered(self, name: str, build: Callable[[], Any]) -> Any:
        """A value derived from the loaded data, built on first use (the data does not change while loaded)."""
        if name not in self._memo:
            self._memo[name] = build()
        return self._memo[name]

    def close(self) -> None:
        self.store.close()


def find_request_files(data_dir: Path) -> dict[str, Path]:
    """Request files the benchmark page may offer: ``*.jsonl`` files in the data directory whose name starts with
    ``requests`` (clients choose them by this name; a client never sends a path)."""
    return {p.name: p for p in sorted(data_dir.glob("requests*.jsonl")) if p.is_file()}


def build_state(config: WebConfig) -> AppState:
    """Load the dataset (the bundled sample when ``config.data`` is None) and open (creating and seeding on first
    use) the allergen store."""
    data_dir = config.data if config.data is not None else sample_dir()
    if not data_dir.is_dir():
        raise DataError("not a directory", str(data_dir))
    dataset, _ = load_dataset(data_dir)
    engine = Engine(dataset, regex_timeout_s=config.regex_timeout_s)
    store = open_store(config.db)
    try:
        store.ontology()  # build the in-memory ontology now, not on the first request
    except BaseException:
        store.close()
        raise
    return AppState(config, data_dir, dataset, engine, store, find_request_files(data_dir))
