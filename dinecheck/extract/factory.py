"""Build an extractor from an explicit spec — ``replay:FILE``, ``offline`` or ``llm`` — and describe which one answered.

The spec is always explicit here; choosing a default from the environment (``llm`` when a model is configured, else
``offline``) is the command line's business (:func:`dinecheck.cli.extractor_options.resolve_extractor`).
:func:`extractor_info` names the extractor behind every result: ``{"kind", "model", "version"}``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def make_extractor(spec: str, options: ExtractorOptions | None = None) -> Extractor:
    """Construct the extractor named by ``spec`` (raises ConfigError for an unknown or missing name)."""
    if not isinstance(spec, str) or not spec:
        raise ConfigError("no extractor named; expected 'llm', 'offline' or 'replay:FILE'", "--extractor")
    options = options or ExtractorOptions()
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


def extractor_info(extractor: Extractor) -> dict[str, Any]:
    """Which extractor answered: ``kind`` (its name), ``model`` (the language model, else None) and ``version`` (the
    offline rules' version, the prompt version, or the replayed file's name and content hash)."""
    kind = getattr(extractor, "name", type(extractor).__name__)
    model: str | None = None
    version: str | None = getattr(extractor, "version", None)
    config = getattr(extractor, "config", None)
    if config is not None:
        from dinecheck.extract.prompt import PROMPT_VERSION

        model, version = getattr(config, "model", None), PROMPT_VERSION
    path = getattr(extractor, "path", None)
    if isinstance(path, Path):
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        except OSError:
            digest = "unreadable"
        version = f"{path.name}@{digest}"
    return {"kind": kind, "model": model, "version": version}


def describe_extractor(info: dict[str, Any]) -> str:
    """One line for humans: "offline v2", "llm gpt-4o-mini (extract-v2)", "replay labels.jsonl@1a2b…"."""
    kind, model, version = info.get("kind"), info.get("model"), info.get("version")
    if kind == "offline":
        return f"offline v{version}"
    if model:
        return f"{kind} {model} ({version})"
    return f"{kind} {version}" if version else str(kind)
