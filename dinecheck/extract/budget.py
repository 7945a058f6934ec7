"""The cost budget of a run (``--max-cost``) as a small protocol, so one budget can be shared by many workers.

Before each model call the client reserves the call's worst-case cost (:meth:`Budget.reserve`); after it, the
client settles the reservation with what the call actually cost (:meth:`Budget.settle`). :class:`LocalBudget` is
the in-process implementation (thread-safe); :mod:`dinecheck.executors.ray` wraps the same object in a Ray actor so
that every worker of a cluster run draws on ONE budget held by one coordinator.

A denial is final: once one reservation is refused, every later one is refused with the same reason, so all
workers stop asking at once and the run ends cleanly (unanswered reviews get status ``error``).
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable


@runtime_checkable
class Budget(Protocol):
    """Reserve before a call, settle after it."""

    def reserve(self, estimate: float) -> str | None:
        """Reserve ``estimate`` USD; None when granted, else the reason it was denied."""
        ...

    def settle(self, estimate: float, actual: float) -> None:
        """Release the reservation of ``estimate`` and charge ``actual`` (0 when the call never completed)."""
        ...


class LocalBudget:
    """A budget of ``limit`` USD (None: unlimited) for the threads of one process; the coordinator's state."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.spent = 0.0
        self.reserved = 0.0
        self.denied: str | None = None
        self._lock = threading.Lock()

    def reserve(self, estimate: float) -> str | None:
        with self._lock:
            if self.denied is not None:
                return self.denied
            if self.limit is not None and self.spent + self.reserved + estimate > self.limit:
                self.denied = (
                    f"the next call could cost up to ${estimate:.6f}, and ${self.spent:.6f} is spent "
                    f"(${self.reserved:.6f} more in flight) of the ${self.limit:.6f} budget"
                )
                return self.denied
            self.reserved += estimate
            return None

    def settle(self, estimate: float, actual: float) -> None:
        with self._lock:
            self.reserved = max(0.0, self.reserved - estimate)
            self.spent += actual

    def state(self) -> dict[str, float | str | None]:
        """``{"limit", "spent", "reserved", "denied"}`` (for reports and tests)."""
        with self._lock:
            return {"limit": self.limit, "spent": self.spent, "reserved": self.reserved, "denied": self.denied}
