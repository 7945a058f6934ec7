"""The one exception hierarchy of dinecheck.

Every error a user can cause is a :class:`DinecheckError`; its ``str()`` is one readable line naming *where* (file and
line, JSON pointer, request id, seed step, …) and *why*. The CLI prints that line and exits 2 (bad input or usage);
nothing a user does should produce a traceback.

    DinecheckError                 base; ``location`` (str | None) and ``reason`` (str)
    ├── DataError                  a dataset file is malformed (file:line), an id is duplicated or unknown
    ├── SpecError                  a request or a seed is invalid (request id / JSON pointer / seed step)
    │   ├── RequestError           a request fails validation (request id + JSON path)
    │   ├── ShorthandError         request shorthand text cannot be parsed (column)
    │   ├── SeedError              a Formula Seed fails its static check; ``problems`` lists every one
    │   └── ExpressionError        a seed expression cannot be tokenized/parsed (column) or is too large
    ├── EvaluationError            evaluation failed at run time (seed step + restaurant; regex over budget, …)
    ├── ExtractionError            an extractor could not produce labels (endpoint, configuration, replay file)
    │   └── BudgetExceeded         ``--max-cost`` would be exceeded
    ├── OntologyError              the allergen ontology or its store is invalid (data file:line, unknown canonical)
    ├── StoreError                 a database could not be opened, migrated or written
    ├── WorkerError                a worker process or Ray task died, or the Ray cluster cannot be reached
    ├── AuditQueryError            an audit-log query is invalid (e.g. ``--since`` is not an ISO-8601 date)
    └── ConfigError                missing or invalid configuration (e.g. no language model configured)
"""

from __future__ import annotations

from dataclasses import dataclass


class DinecheckError(Exception):
    """Base of every dinecheck error: ``location`` says where, ``reason`` says why."""

    exit_code: int = 2

    def __init__(self, reason: str, location: str | None = None) -> None:
        self.reason = reason
        self.location = location
        super().__init__(str(self))

    def __str__(self) -> str:  # one line: "<location>: <reason>"
        return f"{self.location}: {self.reason}" if self.location else self.reason


class DataError(DinecheckError):
    """A dataset file is malformed: bad JSON, a missing or duplicate id, a review of an unknown restaurant."""


class SpecError(DinecheckError):
    """A request or a seed does not follow its specification."""


class RequestError(SpecError):
    """A request is invalid; ``location`` is ``"<request id> <JSON path>"``."""


class LintError(RequestError):
    """A request refers to something the dataset does not have (an unknown attribute path, a malformed hours window;
    with ``--strict`` also a value never seen, an unknown friend, a pattern matching no review). ``more`` counts the
    further findings not named in the message."""


class ShorthandError(SpecError):
    """Request shorthand cannot be parsed; ``location`` names the column."""


@dataclass(frozen=True)
class Problem:
    """One static-check finding: a JSON pointer into the seed, a reason, and a severity."""

    pointer: str
    reason: str
    severity: str = "error"  # "error" | "warning"

    def __str__(self) -> str:
        return f"{self.severity}: {self.pointer or '/'}: {self.reason}"


class SeedError(SpecError):
    """A Formula Seed failed its static check. ``problems`` holds every finding (errors and warnings)."""

    def __init__(self, problems: list[Problem], location: str | None = None) -> None:
        self.problems = list(problems)
        errors = [p for p in self.problems if p.severity == "error"]
        first = errors[0] if errors else (self.problems[0] if self.problems else None)
        if first is None:
            reason = "the seed is invalid"
        else:
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            reason = f"{first.pointer or '/'}: {first.reason}{more}"
        super().__init__(reason, location)


class ExpressionError(SpecError):
    """A seed expression cannot be tokenized or parsed, or exceeds the size/nesting bounds."""


class EvaluationError(DinecheckError):
    """Evaluation failed at run time (division by zero in a seed step, a regex over its budget, …)."""


class ExtractionError(DinecheckError):
    """An extractor could not produce labels (endpoint unreachable after retries, bad replay file, …)."""


class BudgetExceeded(ExtractionError):
    """Continuing would exceed the configured ``--max-cost``."""


class OntologyError(DinecheckError):
    """The allergen ontology data or an edit to it is invalid."""


class StoreError(DinecheckError):
    """A database could not be opened, migrated, read or written."""


class AuditQueryError(DinecheckError):
    """An audit-log query is invalid (e.g. a ``--since`` value that is not an ISO-8601 date)."""


class ConfigError(DinecheckError):
    """Configuration is missing or invalid."""


class WorkerError(DinecheckError):
    """A worker of a parallel run (``--workers``, ``--executor ray``) died or could not be started or reached."""


__all__ = [
    "AuditQueryError",
    "BudgetExceeded",
    "ConfigError",
    "DataError",
    "DinecheckError",
    "EvaluationError",
    "ExpressionError",
    "ExtractionError",
    "OntologyError",
    "Problem",
    "RequestError",
    "SeedError",
    "ShorthandError",
    "SpecError",
    "StoreError",
    "WorkerError",
]
