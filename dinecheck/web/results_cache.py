"""A small thread-safe LRU of computed answers. The loaded data does not change while the server runs (a reload
builds a new state with a new cache), so an identical question has an identical answer."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class ResultCache(Generic[T]):
    """At most ``size`` entries, least recently used dropped first; ``hits``/``misses`` are counted."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_or_compute(self, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            self.misses += 1
        value = compute()  # outside the lock: a slow computation does not block hits
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def peek(self, key: Hashable) -> T | None:
        """The cached value or None, without counting or reordering (a second look before computing)."""
        with self._lock:
            return self._items.get(key)

    def __len__(self) -> int:
        return len(self._items)
