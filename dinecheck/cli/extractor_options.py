"""Typer options shared by every command that extracts (``seed run``, ``seed extract``, ``risk build``), declared once.

A command decorated with :func:`with_extractor_options` declares one parameter ``extraction: ExtractorChoice``; the
decorator replaces it, in the command's signature, by ``--extractor`` and every LLM option, and passes the command one
:class:`ExtractorChoice` (the extractor name and the :class:`~dinecheck.extract.factory.ExtractorOptions`).
:func:`with_parallel_options` does the same for ``parallel: ParallelChoice`` (``--workers``, ``--executor``,
``--ray-address``), on the commands that can run in several processes.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from dinecheck.cli.model_options import ApiKeyOpt, BaseUrlOpt, ConfigOpt, ModelOpt
from dinecheck.errors import ConfigError
from dinecheck.extract.factory import DEFAULT_CONCURRENCY, ExtractorOptions

ExtractorArg = Annotated[
    str | None,
    typer.Option("--extractor", help="llm | offline | replay:FILE (default: llm when a model is configured, else offline)."),
]
CacheOpt = Annotated[Path | None, typer.Option("--cache", help="Extraction cache file (default: user cache dir).")]
CacheUrlOpt = Annotated[
    str | None,
    typer.Option("--cache-url", help="postgresql://… : the extraction cache in PostgreSQL (shared by workers on several machines)."),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers", min=1, max=1024,
        help="Worker processes for the offline/replay extractor and the compute stage (default: the CPU count; "
        "with --executor ray: the cluster's CPUs). Output is identical to one worker.",
    ),
]
ExecutorOpt = Annotated[str, typer.Option("--executor", help="local | ray (Ray tasks; pip install 'dinecheck[ray]').")]
RayAddressOpt = Annotated[
    str | None, typer.Option("--ray-address", help="Ray cluster to join (e.g. 10.0.0.5:6379; default: RAY_ADDRESS or a local instance).")
]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the extraction cache.")]
BatchOpt = Annotated[int, typer.Option("--batch-size", min=1, max=50, help="Reviews per model call.")]
ConcurrencyOpt = Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Model calls in flight at once.")]
MaxCostOpt = Annotated[float | None, typer.Option("--max-cost", min=0.0, help="Stop cleanly before the estimated cost exceeds this.")]
ProgressOpt = Annotated[
    bool | None, typer.Option("--progress/--no-progress", help="Progress bar on stderr (default: when stderr is a terminal).")
]


def resolve_extractor(spec: str | None, options: ExtractorOptions) -> str:
    """The extractor to use: ``spec`` when given, else ``llm`` when a base URL is configured by flag, environment
    (``DINECHECK_LLM_BASE_URL``) or config file, else ``offline``."""
    if spec:
        return spec
    if os.environ.get("DINECHECK_LLM_BASE_URL") or options.base_url:
        return "llm"
    from dinecheck.extract.chat import configured_base_url

    return "llm" if configured_base_url(options.config_file) else "offline"


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


@dataclass(frozen=True)
class ExtractorChoice:
    """What the shared options select: the ``--extractor`` value (None: the default) and the extractor options."""

    name: str | None
    options: ExtractorOptions


def _shared_parameters() -> list[inspect.Parameter]:
    kw = inspect.Parameter.KEYWORD_ONLY
    spec: list[tuple[str, Any, Any]] = [
        ("extractor", ExtractorArg, None),
        ("base_url", BaseUrlOpt, None),
        ("model", ModelOpt, None),
        ("api_key", ApiKeyOpt, None),
        ("config", ConfigOpt, None),
        ("cache", CacheOpt, None),
        ("cache_url", CacheUrlOpt, None),
        ("no_cache", NoCacheOpt, False),
        ("batch_size", BatchOpt, 1),
        ("concurrency", ConcurrencyOpt, DEFAULT_CONCURRENCY),
        ("max_cost", MaxCostOpt, None),
        ("progress", ProgressOpt, None),
    ]
    return [inspect.Parameter(name, kw, default=default, annotation=ann) for name, ann, default in spec]


@dataclass(frozen=True)
class ParallelChoice:
    """``--workers`` (None: the default), ``--executor`` (local | ray) and ``--ray-address``."""

    workers: int | None
    executor: str
    ray_address: str | None


def _parallel_parameters() -> list[inspect.Parameter]:
    kw = inspect.Parameter.KEYWORD_ONLY
    spec: list[tuple[str, Any, Any]] = [("workers", WorkersOpt, None), ("executor", ExecutorOpt, "local"),
                                        ("ray_address", RayAddressOpt, None)]
    return [inspect.Parameter(name, kw, default=default, annotation=ann) for name, ann, default in spec]


F = TypeVar("F", bound=Callable[..., Any])


def with_extractor_options(fn: F) -> F:
    """Give ``fn`` the shared extractor options in place of its ``extraction`` parameter (see the module docstring)."""
    return _replace_parameter(fn, "extraction", _shared_parameters(),
                              lambda v: ExtractorChoice(v.pop("extractor"), build_options(**v)))


def with_parallel_options(fn: F) -> F:
    """Give ``fn`` ``--workers``, ``--executor`` and ``--ray-address`` in place of its ``parallel`` parameter."""
    return _replace_parameter(fn, "parallel", _parallel_parameters(), lambda v: ParallelChoice(**v))


def _replace_parameter(fn: F, target: str, shared: list[inspect.Parameter], build: Callable[[dict[str, Any]], Any]) -> F:
    sig = inspect.signature(fn, eval_str=True)
    names = [p.name for p in shared]
    params: list[inspect.Parameter] = []
    for p in sig.parameters.values():
        if p.name == target:
            params += shared
        else:
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))

    @functools.wraps(fn)
    def wrapper(**kwargs: Any) -> Any:
        kwargs[target] = build({n: kwargs.pop(n) for n in names})
        return fn(**kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    del wrapper.__wrapped__  # typer must see the new signature, not the original one
    return wrapper  # type: ignore[return-value]
