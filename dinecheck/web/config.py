"""The web server's settings (:class:`WebConfig`): where the data is, which stores, and every safety bound.

Defaults are the safe ones: the bundled sample, 127.0.0.1, a 1 MB body cap, no admin endpoints, label texts not logged.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_BODY_BYTES = 1_000_000
MAX_LABELS_PER_REQUEST = 500
"""Most labels accepted in one batch check (the per-label size bound is the pipeline's own)."""
MAX_SEARCH_LIMIT = 500
MAX_WORDS_CHARS = 200
"""Longest 'reviews mention' text on the find-a-place form (it is searched literally, never as a pattern)."""
REGEX_TIMEOUT_S = 0.25
"""Per-review regex budget for requests sent to the server (the CLI's default is more generous)."""


@dataclass(frozen=True)
class WebConfig:
    """What ``dinecheck serve`` was started with. ``data`` None means the bundled sample."""

    data: Path | None = None
    db: str | None = None
    risk_db: str | None = None
    admin_token: str | None = None
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    log_labels: bool = False
    extractor: str | None = None  # default for /api/seeds/run: "offline"; "llm" only with max_cost
    max_cost: float | None = None
    regex_timeout_s: float = REGEX_TIMEOUT_S
