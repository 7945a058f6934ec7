"""The version-watching ontology cache, on its own (no database): rebuild only on a version change, one rebuild under
concurrent callers."""

from __future__ import annotations

import threading
import time

from dinecheck.allergens.ontology import Allergen, Ontology
from dinecheck.allergens.store.cache import OntologyCache


class FakeStore:
    def __init__(self) -> None:
        self.version = 1
        self.loads = 0

    def load(self) -> Ontology:
        self.loads += 1
        time.sleep(0.01)  # long enough for concurrent callers to pile up
        return Ontology([Allergen("PEANUT", "Peanut")], [], [], version=self.version)


def test_rebuilds_only_when_the_version_changes() -> None:
    fake = FakeStore()
    cache = OntologyCache(fake.load, lambda: fake.version)
    assert cache.peek() is None
    first = cache.get()
    assert cache.get() is first and cache.get() is first
    assert (fake.loads, cache.loads) == (1, 1)
    fake.version = 2
    second = cache.get()
    assert second is not first and second.version == 2 and cache.peek() is second
    assert (fake.loads, cache.loads) == (2, 2)
    cache.invalidate()
    assert cache.peek() is None and cache.get().version == 2 and fake.loads == 3


def test_concurrent_callers_share_one_rebuild() -> None:
    fake = FakeStore()
    cache = OntologyCache(fake.load, lambda: fake.version)
    got: list[Ontology] = []
    threads = [threading.Thread(target=lambda: got.append(cache.get())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fake.loads == 1 and len(got) == 8 and all(o is got[0] for o in got)
