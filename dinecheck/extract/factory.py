"""Build an extractor from its command-line name: ``replay:FILE``, ``offline`` or ``llm``.

``None`` picks the default: ``llm`` when a model is configured (``DINECHECK_LLM_BASE_URL``, ``--base-url``, or a
``base_url`` in the ``[llm]`` table of the config file), else ``offline``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dinecheck.errors import ConfigError
from dinecheck.extract.base import Extractor
from dinecheck.extract.budget import Budget


DEFAULT_CONCURRENCY = 16  # model calls in flight; 16 keeps a 100 ms endpoint at ≤ 1/10 of the sequential time


@dataclass
class ExtractorOptions:
    """Every knob of every extractor; each extractor reads the ones it needs."""

    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None
    config_file: Path | None = None
    cache_path: Path | None = None
    cache_url: str | None = None  # postgresql://… : the extraction cache in PostgreSQL instead of the SQLite file
    use_cache: bool = True
    batch_size: int = 1
    concurrency: int = DEFAULT_CONCURRENCY
    timeout: float = 60.0
    max_retries: int = 5
    max_cost: float | None = None
    progress: bool = False
    budget: Budget | None = None  # one budget shared by every worker of a run (dinecheck.executors); None: per client


def default_extractor_name(options: ExtractorOptions | None = None) -> str:
    """``llm`` when a base URL is configured by flag, environment or config file; otherwise ``offline``."""
    if os.environ.get("DINECHECK_LLM_BASE_URL") or (options is not None and options.base_url):
        return "llm"
    from dinecheck.extract.chat import configured_base_url

    return "llm" if configured_base_url(options.config_file if options else None) else "offline"


def make_extractor(spec: str | None, options: ExtractorOptions | None = None) -> Extractor:
    """Construct the extractor named by ``spec`` (raises ConfigError for an unknown name)."""
    options = options or ExtractorOptions()
    spec = spec or default_extractor_name(options)
    if spec.startswith("replay:"):
        from dinecheck.extract.replay import ReplayExtractor

        return ReplayExtractor(Path(spec[len("replay:") :]))
    if spec == "offline":
        from dinecheck.extract.offline import OfflineExtractor

        return OfflineExtractor()
    if spec == "llm":
        from dinecheck.extract.llm import LLMExtractor

        return LLMExtractor.from_options(options)
    raise ConfigError(f"unknown extractor {spec!r}; expected 'llm', 'offline' or 'replay:FILE'", "--extractor")
