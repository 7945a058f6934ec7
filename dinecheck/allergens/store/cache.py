"""In-memory cache of the store's :class:`~dinecheck.allergens.ontology.Ontology`, refreshed when the store changes.

Every write to the ontology tables bumps the store's ``ontology_version`` counter in the same transaction. ``get()``
reads that counter (one tiny query) and rebuilds the ontology only when it differs from the cached one, so checks in
one process see another process's new synonym on their next call, and a warm cache costs one indexed read.
Thread-safe: concurrent callers share one rebuild.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from dinecheck.allergens.ontology import Ontology


class OntologyCache:
    """``load()`` returns a fresh ontology whose ``version`` is the store version it was read at."""

    def __init__(self, load: Callable[[], Ontology], current_version: Callable[[], int]) -> None:
        self._load = load
        self._current_version = current_version
        self._lock = threading.Lock()
        self._ontology: Ontology | None = None
        self.loads = 0  # how many times the ontology was (re)built: observable in tests and stats

    def get(self) -> Ontology:
        version = self._current_version()
        cached = self._ontology
        if cached is not None and cached.version == version:
            return cached
        with self._lock:
            cached = self._ontology
            if cached is not None and cached.version == version:
                return cached
            fresh = self._load()
            self.loads += 1
            self._ontology = fresh
            return fresh

    def peek(self) -> Ontology | None:
        """The cached ontology without checking the store (may be stale); None before the first ``get()``."""
        return self._ontology

    def invalidate(self) -> None:
        with self._lock:
            self._ontology = None
