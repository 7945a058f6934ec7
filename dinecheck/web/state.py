"""What the server holds while it runs (:class:`AppState`): the dataset, its request engine, the allergen store and
the request files offered on the benchmark page. Built once at start-up; the engine is shared behind a lock because
its caches are not made for concurrent writers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dinecheck.allergens.ontology import Ontology
from dinecheck.allergens.store import OntologyStore, open_store
from dinecheck.dataset import Dataset, load_dataset
from dinecheck.errors import DataError
from dinecheck.extract.factory import make_extractor
from dinecheck.requests import Engine
from dinecheck.risk import AllergenEvidence, RiskStore, build_evidence, open_risk_store
from dinecheck.sample import sample_dir
from dinecheck.search import EvidenceSource
from dinecheck.web.config import WebConfig
from dinecheck.web.results_cache import ResultCache


class LockedEvidence:
    """An evidence source shared by request threads: reads of a results store (one connection) are serialised."""

    def __init__(self, source: EvidenceSource) -> None:
        self._source = source
        self._lock = threading.Lock()

    def evidence(self, business_ids: Sequence[str] | None, codes: Sequence[str]
                 ) -> dict[str, dict[str, AllergenEvidence]]:  # fmt: skip
        with self._lock:
            return self._source.evidence(business_ids, codes)

MAX_CACHED_CONDITIONS = 2_000


@dataclass
class AppState:
    """The loaded dataset + engine, the allergen store, the allergy evidence, and the server-side request files (by
    name only)."""

    config: WebConfig
    data_dir: Path
    dataset: Dataset
    engine: Engine
    store: OntologyStore
    request_files: dict[str, Path]
    evidence: EvidenceSource
    risk_store: RiskStore | None = None
    results: ResultCache[Any] = field(default_factory=ResultCache)
    engine_lock: threading.Lock = field(default_factory=threading.Lock)
    _memo: dict[str, Any] = field(default_factory=dict)

    @property
    def is_sample(self) -> bool:
        return self.config.data is None

    def ontology(self) -> Ontology:
        return self.store.ontology()

    @contextmanager
    def engine_locked(self) -> Iterator[Engine]:
        """The engine, used by one request at a time; replaced by a fresh one once its caches hold more than
        MAX_CACHED_CONDITIONS distinct conditions (visitors can send any number of different requests)."""
        with self.engine_lock:
            if self.engine.cached_conditions > MAX_CACHED_CONDITIONS:
                self.engine = Engine(self.dataset, regex_timeout_s=self.config.regex_timeout_s)
            yield self.engine

    def remembered(self, name: str, build: Callable[[], Any]) -> Any:
        """A value derived from the loaded data, built on first use (the data does not change while loaded)."""
        if name not in self._memo:
            self._memo[name] = build()
        return self._memo[name]

    def close(self) -> None:
        self.store.close()
        if self.risk_store is not None:
            self.risk_store.close()


def find_request_files(data_dir: Path) -> dict[str, Path]:
    """Request files the benchmark page may offer: ``*.jsonl`` files in the data directory whose name starts with
    ``requests`` (clients choose them by this name; a client never sends a path)."""
    return {p.name: p for p in sorted(data_dir.glob("requests*.jsonl")) if p.is_file()}


def build_state(config: WebConfig) -> AppState:
    """Load the dataset (the bundled sample when ``config.data`` is None), open (creating and seeding on first use)
    the allergen store, and get the allergy evidence: from the results store ``config.risk_db`` when given (built
    there with the offline extractor first if it holds nothing for this dataset; a build is incremental), else built
    in memory with the offline extractor."""
    data_dir = config.data if config.data is not None else sample_dir()
    if not data_dir.is_dir():
        raise DataError("not a directory", str(data_dir))
    dataset, _ = load_dataset(data_dir)
    engine = Engine(dataset, regex_timeout_s=config.regex_timeout_s)
    store = open_store(config.db)
    risk_store: RiskStore | None = None
    try:
        store.ontology()  # build the in-memory ontology now, not on the first request
        ids = [r.business_id for r in dataset.restaurants]
        if config.risk_db is not None:
            risk_store = open_risk_store(config.risk_db)
            have = risk_store.evidence(ids, ("PEANUT",)) if ids else {}
            if len(have) < len(ids):
                build_evidence(dataset, make_extractor("offline"), store=risk_store)  # as `risk build` does
            evidence: EvidenceSource = LockedEvidence(risk_store)
        else:
            evidence, _ = build_evidence(dataset, make_extractor("offline"))
    except BaseException:
        store.close()
        if risk_store is not None:
            risk_store.close()
        raise
    return AppState(config, data_dir, dataset, engine, store, find_request_files(data_dir), evidence, risk_store)
