"""CLI: ``dinecheck serve`` — run the web app and HTTP API (:mod:`dinecheck.web`) with uvicorn.

With no arguments it serves the bundled sample on http://127.0.0.1:8000 with the embedded defaults (the SQLite
allergen store is created and seeded on first start) and prints the URL.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from dinecheck.errors import ConfigError
from dinecheck.web.config import DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES, DEFAULT_PORT, WebConfig


def serve(
    data: Path | None = typer.Option(None, "--data", help="Dataset directory [default: the bundled sample]."),
    db: str | None = typer.Option(None, "--db", help="Store URL (sqlite:///FILE, a path, or postgresql://…) "
                                     "[default: $DINECHECK_DB or a SQLite file in the user data directory]."),
    risk_db: str | None = typer.Option(None, "--risk-db", help="Allergy-evidence store written by `dinecheck risk "
                                          "build` [default: evidence built in memory at start, offline extractor]."),
    host: str = typer.Option(DEFAULT_HOST, "--host", help="Address to bind (anything but 127.0.0.1 exposes the server)."),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=0, max=65535, help="TCP port (0 picks a free one)."),
    admin_token: str | None = typer.Option(None, "--admin-token", envvar="DINECHECK_ADMIN_TOKEN",
                                              help="Enable the data-changing endpoints; they need "
                                                   "'Authorization: Bearer TOKEN'."),
    max_body: int = typer.Option(DEFAULT_MAX_BODY_BYTES, "--max-body-bytes", min=1024, help="Largest request body."),
    log_labels: bool = typer.Option(False, "--log-labels", help="Write checked label texts to the audit log (off by "
                                                                "default: label texts are not kept)."),
    extractor: str = typer.Option("offline", "--extractor", help="Extractor /api/seeds/run may use beyond replay: "
                                                                 "offline, or llm (needs --max-cost and a model)."),
    max_cost: float | None = typer.Option(None, "--max-cost", min=0.0, help="Cost cap per LLM seed run."),
    check: bool = typer.Option(False, "--check", help="Load the data and open the stores as a start would, report, "
                                                      "and exit without serving."),
) -> None:
    """Serve the web app (find a place, restaurant pages, label checks, benchmark) and the JSON API."""
    if extractor not in ("offline", "llm"):
        raise ConfigError(f"unknown extractor {extractor!r}; expected offline or llm", "--extractor")
    if extractor == "llm" and max_cost is None:
        raise ConfigError("--extractor llm needs --max-cost", "--max-cost")
    import uvicorn

    from dinecheck.web.app import create_app
    from dinecheck.web.state import build_state

    config = WebConfig(data=data, db=db, risk_db=risk_db, admin_token=admin_token, max_body_bytes=max_body, log_labels=log_labels,
                       extractor=extractor, max_cost=max_cost)
    state = build_state(config)  # load and seed before binding: bad input is one error line, not a server crash
    shown = f"[{host}]" if ":" in host else host
    what = "the bundled sample" if data is None else str(data)
    if check:
        print(f"ok: {what}: {len(state.dataset.restaurants)} restaurants, {state.dataset.n_reviews} reviews, "
              f"{len(state.request_files)} request file(s); allergen store {state.store.url} (ontology version "
              f"{state.store.version()}); allergy evidence ready; would serve at http://{shown}:{port}/")
        state.close()
        return
    app = create_app(config, state)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: binding {host}: the server is reachable from other machines", file=sys.stderr)
    print(f"dinecheck serving {what} ({len(state.dataset.restaurants)} restaurants) at http://{shown}:{port}/ "
          "(Ctrl+C stops)", flush=True)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, server_header=False)
    finally:
        state.close()
