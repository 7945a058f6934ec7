"""The options that name a language-model endpoint (``--base-url``, ``--model``, ``--api-key``, ``--config``).

Kept apart from :mod:`dinecheck.cli.extractor_options` so that commands which only *may* call a model (``requests
suggest`` drafting request texts) import no extractor code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

BaseUrlOpt = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible base URL (env DINECHECK_LLM_BASE_URL).")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name (env DINECHECK_LLM_MODEL).")]
ApiKeyOpt = Annotated[str | None, typer.Option("--api-key", help="API key (env DINECHECK_LLM_API_KEY).")]
ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML file with [llm] base_url, model, api_key, prices.")]
