"""Typer options shared by every command that extracts (``seed run``, ``seed extract``).

Commands declare ``extractor: ExtractorArg = None`` and the ``Llm*`` options, then call :func:`build_options`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from dinecheck.errors import ConfigError
from dinecheck.extract.factory import DEFAULT_CONCURRENCY, ExtractorOptions

ExtractorArg = Annotated[
    Optional[str],
    typer.Option("--extractor", help="llm | offline | replay:FILE (default: llm when a model is configured, else offline)."),
]
BaseUrlOpt = Annotated[Optional[str], typer.Option("--base-url", help="OpenAI-compatible base URL (env DINECHECK_LLM_BASE_URL).")]
ModelOpt = Annotated[Optional[str], typer.Option("--model", help="Model name (env DINECHECK_LLM_MODEL).")]
ApiKeyOpt = Annotated[Optional[str], typer.Option("--api-key", help="API key (env DINECHECK_LLM_API_KEY).")]
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", help="TOML file with [llm] base_url, model, api_key, prices.")]
CacheOpt = Annotated[Optional[Path], typer.Option("--cache", help="Extraction cache file (default: user cache dir).")]
CacheUrlOpt = Annotated[
    Optional[str],
    typer.Option("--cache-url", help="postgresql://… : the extraction cache in PostgreSQL (shared by workers on several machines)."),
]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the extraction cache.")]
BatchOpt = Annotated[int, typer.Option("--batch-size", min=1, max=50, help="Reviews per model call.")]
ConcurrencyOpt = Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Model calls in flight at once.")]
MaxCostOpt = Annotated[Optional[float], typer.Option("--max-cost", min=0.0, help="Stop cleanly before the estimated cost exceeds this.")]
WorkersOpt = Annotated[
    Optional[int],
    typer.Option(
        "--workers", min=1, max=1024,
        help="Worker processes for the offline/replay extractor and the compute stage (default: the CPU count; "
        "with --executor ray: the cluster's CPUs). Output is identical to one worker.",
    ),
]
ExecutorOpt = Annotated[str, typer.Option("--executor", help="local | ray (Ray tasks; pip install 'dinecheck[ray]').")]
RayAddressOpt = Annotated[
    Optional[str], typer.Option("--ray-address", help="Ray cluster to join (e.g. 10.0.0.5:6379; default: RAY_ADDRESS or a local instance).")
]
ProgressOpt = Annotated[
    Optional[bool], typer.Option("--progress/--no-progress", help="Progress bar on stderr (default: when stderr is a terminal).")
]


def build_options(
    *,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    config: Path | None = None,
    cache: Path | None = None,
    cache_url: str | None = None,
    no_cache: bool = False,
    batch_size: int = 1,
    concurrency: int = DEFAULT_CONCURRENCY,
    max_cost: float | None = None,
    progress: bool | None = False,
) -> ExtractorOptions:
    """Collect the shared flags; ``progress=None`` means "when stderr is a terminal"."""
    if progress is None:
        progress = sys.stderr.isatty()
    if cache_url is not None:
        if cache is not None:
            raise ConfigError("give either --cache (a SQLite file) or --cache-url (PostgreSQL), not both", "--cache-url")
        if not cache_url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(f"expected a postgresql:// URL, got {cache_url.split('://')[0]!r}", "--cache-url")
    return ExtractorOptions(
        base_url=base_url,
        model=model,
        api_key=api_key,
        config_file=config,
        cache_path=cache,
        cache_url=cache_url,
        use_cache=not no_cache,
        batch_size=batch_size,
        concurrency=concurrency,
        max_cost=max_cost,
        progress=progress,
    )
