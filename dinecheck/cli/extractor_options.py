"""Typer options shared by every command that extracts (``seed run``, ``seed extract``), declared once.

A command decorated with :func:`with_extractor_options` declares one parameter ``extraction: ExtractorChoice``; the
decorator replaces it, in the command's signature, by ``--extractor`` and every LLM option, and passes the command one
:class:`ExtractorChoice` (the extractor name and the :class:`~dinecheck.extract.factory.ExtractorOptions`).
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from dinecheck.extract.factory import DEFAULT_CONCURRENCY, ExtractorOptions

ExtractorArg = Annotated[
    str | None,
    typer.Option("--extractor", help="llm | offline | replay:FILE (default: llm when a model is configured, else offline)."),
]
BaseUrlOpt = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible base URL (env DINECHECK_LLM_BASE_URL).")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name (env DINECHECK_LLM_MODEL).")]
ApiKeyOpt = Annotated[str | None, typer.Option("--api-key", help="API key (env DINECHECK_LLM_API_KEY).")]
ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML file with [llm] base_url, model, api_key, prices.")]
CacheOpt = Annotated[Path | None, typer.Option("--cache", help="Extraction cache file (default: user cache dir).")]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the extraction cache.")]
BatchOpt = Annotated[int, typer.Option("--batch-size", min=1, max=50, help="Reviews per model call.")]
ConcurrencyOpt = Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Model calls in flight at once.")]
MaxCostOpt = Annotated[float | None, typer.Option("--max-cost", min=0.0, help="Stop cleanly before the estimated cost exceeds this.")]
ProgressOpt = Annotated[
    bool | None, typer.Option("--progress/--no-progress", help="Progress bar on stderr (default: when stderr is a terminal).")
]


def build_options(
    *,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    config: Path | None = None,
    cache: Path | None = None,
    no_cache: bool = False,
    batch_size: int = 1,
    concurrency: int = DEFAULT_CONCURRENCY,
    max_cost: float | None = None,
    progress: bool | None = False,
) -> ExtractorOptions:
    """Collect the shared flags; ``progress=None`` means "when stderr is a terminal"."""
    if progress is None:
        progress = sys.stderr.isatty()
    return ExtractorOptions(
        base_url=base_url,
        model=model,
        api_key=api_key,
        config_file=config,
        cache_path=cache,
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
        ("no_cache", NoCacheOpt, False),
        ("batch_size", BatchOpt, 1),
        ("concurrency", ConcurrencyOpt, DEFAULT_CONCURRENCY),
        ("max_cost", MaxCostOpt, None),
        ("progress", ProgressOpt, None),
    ]
    return [inspect.Parameter(name, kw, default=default, annotation=ann) for name, ann, default in spec]


F = TypeVar("F", bound=Callable[..., Any])


def with_extractor_options(fn: F) -> F:
    """Give ``fn`` the shared extractor options in place of its ``extraction`` parameter (see the module docstring)."""
    sig = inspect.signature(fn, eval_str=True)
    shared = _shared_parameters()
    names = [p.name for p in shared]
    params: list[inspect.Parameter] = []
    for p in sig.parameters.values():
        if p.name == "extraction":
            params += shared
        else:
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))

    @functools.wraps(fn)
    def wrapper(**kwargs: Any) -> Any:
        values = {n: kwargs.pop(n) for n in names}
        name = values.pop("extractor")
        kwargs["extraction"] = ExtractorChoice(name, build_options(**values))
        return fn(**kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    del wrapper.__wrapped__  # typer must see the new signature, not the original one
    return wrapper  # type: ignore[return-value]
